// What the origin serves from: per tier, the live version (followed through the pointer, re-read on a short
// interval by the server) and its fragments in a memory cache with a byte bound. A store that fails keeps the
// last good version answering; a new version is switched to only once its fragments are loaded (or do not fit).
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { inflateRaw, constants as zlibConstants } from "node:zlib";
import type { Feature } from "../model/contract.js";
import type { CountryEntry, VersionManifest } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { tierPrefix } from "../publish/artifacts.js";
import { deflatePiece, type Piece } from "../publish/gzip.js";
import { openairText } from "../publish/openair.js";
import { currentPointer, manifestOf } from "../publish/read-back.js";
import { DayRecord } from "../publish/record.js";
import type { ObjectStore } from "../store/store.js";
import { type Archive, openArchive } from "../tiles/read-back.js";
import { encodeMapFrame } from "./map-form.js";

/** Least recently used fragments, up to a number of bytes. Keys are content-addressed, so versions share them. */
export class FragmentCache {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;
  constructor(readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes || this.map.has(key)) return;
    this.map.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
}

const inflateRawAsync = promisify(inflateRaw);
/** Map frames kept (content-addressed: versions share them): a Europe-scale day has about forty countries. */
const MAP_FRAMES = 256;

/** How every published feature begins (the contract builder's key order): `_id` first of the properties. */
const FEATURE_START = '{"type":"Feature","properties":{"_id":';
const ID_TOKEN = /"(?:[^"\\]|\\.)*"/y;

/**
 * Where each feature of a fragment's text is, by id: features are comma-joined and each begins with
 * FEATURE_START, which cannot occur inside a JSON string (its quotes would be escaped there). A text of another
 * shape gives no places (its features are then not found, never wrongly cut).
 */
export function featureSpans(text: string): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  const sep = `,${FEATURE_START}`;
  if (!text.startsWith(FEATURE_START)) return spans;
  for (let at = 0; at < text.length; ) {
    const next = text.indexOf(sep, at);
    const end = next < 0 ? text.length : next;
    ID_TOKEN.lastIndex = at + FEATURE_START.length;
    const token = ID_TOKEN.exec(text);
    if (token) spans.set(JSON.parse(token[0]) as string, [at, end]);
    at = end + 1;
  }
  return spans;
}

/** Values made lately, by key, the least recently used leaving first; one that failed is made again when asked. */
class Recent<T> {
  private readonly map = new Map<string, Promise<T>>();
  constructor(private readonly max: number) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    let hit = this.map.get(key);
    if (hit) this.map.delete(key);
    else {
      hit = make();
      hit.catch(() => this.map.delete(key));
    }
    this.map.set(key, hit);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return hit;
  }
}

export class FragmentMissing extends Error {
  override readonly name = "FragmentMissing";
}

export class TierView {
  current: VersionManifest | undefined;
  /** Every day's chain (docs/design.md §8): other days, past instants, versions whose own objects are gone. */
  readonly record: DayRecord;
  private readonly heads = new Map<string, { at: number; head: Promise<VersionManifest | undefined> }>();
  private readonly mapFrames = new Recent<Piece>(MAP_FRAMES);
  /** The last vector tile archives asked for (today's and tomorrow's live ones, in the main). */
  private readonly archives = new Recent<{ bytes: Buffer; archive: Archive } | undefined>(2);
  /** The last countries whose features a popup asked for: their text and where each feature is in it. */
  private readonly texts = new Recent<{ text: string; spans: Map<string, [number, number]> }>(2);

  constructor(
    private readonly store: ObjectStore,
    readonly tier: Tier,
    private readonly cache: FragmentCache,
    /** How long a day's pointer, once read, answers for that day. @default 5000 */
    private readonly headTtlMs = 5_000,
  ) {
    this.record = new DayRecord(store, tierPrefix(tier));
  }

  /** A day's live version (its pointer re-read at most every `headTtlMs`); undefined when the day is not published. */
  head(date: string, now: number): Promise<VersionManifest | undefined> {
    const hit = this.heads.get(date);
    if (hit && now - hit.at < this.headTtlMs) return hit.head;
    const head = this.record.head(date);
    head.catch(() => this.heads.delete(date));
    this.heads.set(date, { at: now, head });
    if (this.heads.size > 64) this.heads.delete(this.heads.keys().next().value!);
    return head;
  }

  /**
   * A country's fragment in version `m`: the stored one, or (when retention has left only the day's record) one
   * rebuilt from the record and checked against the manifest's length and CRC-32.
   */
  async fragmentOf(m: VersionManifest, cc: string): Promise<Buffer> {
    const entry = m.countries[cc]!;
    try {
      return await this.fragment(entry);
    } catch (err) {
      if (!(err instanceof FragmentMissing)) throw err;
    }
    const fc = await this.record.collection(m, cc);
    const piece = await deflatePiece(Buffer.from(fc.features.map((f) => JSON.stringify(f)).join(",")));
    if (piece.crc32 !== entry.fragmentCrc32 || piece.length !== entry.fragmentBytes) {
      throw new FragmentMissing(`${m.version} ${cc}: the rebuilt fragment is not the one published`);
    }
    this.cache.set(entry.fragment, piece.deflated);
    return piece.deflated;
  }

  /** A country's OpenAir fragment in version `m`: stored, or written again from its (rebuilt) collection. */
  async openairOf(m: VersionManifest, cc: string): Promise<Buffer> {
    const oa = m.countries[cc]?.openair;
    if (!oa) throw new FragmentMissing(`${m.version} ${cc}: published before OpenAir (issue 23)`);
    const hit = this.cache.get(oa.fragment) ?? (await this.store.get(oa.fragment));
    if (hit && createHash("sha256").update(hit).digest("hex") === oa.fragmentSha256) {
      this.cache.set(oa.fragment, hit);
      return hit;
    }
    const fc = await this.record.collection(m, cc);
    const piece = await deflatePiece(Buffer.from(openairText(fc.features).text));
    if (piece.crc32 !== oa.fragmentCrc32 || piece.length !== oa.fragmentBytes) {
      throw new FragmentMissing(`${m.version} ${cc}: the rebuilt OpenAir is not the one published`);
    }
    this.cache.set(oa.fragment, piece.deflated);
    return piece.deflated;
  }

  /** Version `m`'s vector tiles (issue 60), checked against its SHA-256; undefined when the archive is not kept. */
  tilesOf(m: VersionManifest): Promise<{ bytes: Buffer; archive: Archive } | undefined> {
    const t = m.tiles;
    if (!t) return Promise.resolve(undefined);
    return this.archives.get(t.sha256, async () => {
      const bytes = await this.store.get(t.key);
      if (!bytes) return undefined;
      if (createHash("sha256").update(bytes).digest("hex") !== t.sha256) {
        throw new FragmentMissing(`${m.version}: the stored tiles are not the ones published`);
      }
      return { bytes, archive: await openArchive(bytes, t.key) };
    });
  }

  /**
   * A country's frame of the map page's compact form (src/origin/map-form.ts) in version `m`, deflated: made
   * from its fragment once per content, so versions that keep a country share its frame. `boxes`: each feature's
   * bounding box for its rings (`shapes=boxes`, for a page that draws the vector tiles).
   */
  mapFrameOf(m: VersionManifest, cc: string, boxes = false): Promise<Piece> {
    return this.mapFrames.get(`${cc}|${m.countries[cc]!.fragmentSha256}${boxes ? "|boxes" : ""}`, async () => {
      const features = JSON.parse(`[${await this.fragmentText(m, cc)}]`) as Feature[];
      return deflatePiece(Buffer.from(encodeMapFrame(cc, features, boxes)));
    });
  }

  /**
   * One feature's text as version `m` publishes it in country `cc` (a popup's details), or undefined. The country's
   * fragment is inflated once and kept with its features' places for the next popups (two countries at most).
   */
  async featureText(m: VersionManifest, cc: string, id: string): Promise<string | undefined> {
    const { text, spans } = await this.texts.get(`${cc}|${m.countries[cc]!.fragmentSha256}`, async () => {
      const text = await this.fragmentText(m, cc);
      return { text, spans: featureSpans(text) };
    });
    const span = spans.get(id);
    return span && text.slice(span[0], span[1]);
  }

  /** A country's features in version `m` as the comma-joined text its fragment deflates. */
  private async fragmentText(m: VersionManifest, cc: string): Promise<string> {
    const fragment = await this.fragmentOf(m, cc);
    return (await inflateRawAsync(fragment, { finishFlush: zlibConstants.Z_SYNC_FLUSH })).toString("utf8");
  }

  /**
   * Makes the live version's map frames before a page asks, one country after another (a failure waits for a
   * request to say so); returns how many countries it made, kept ones included. A version with tiles has its
   * boxes made first: a page with WebGL asks for those, one without for the whole frames.
   */
  async warmMap(): Promise<number> {
    const m = this.current;
    if (!m) return 0;
    let made = 0;
    for (const boxes of m.tiles ? [true, false] : [false]) {
      made = 0;
      for (const cc of Object.keys(m.countries).sort()) {
        made += await this.mapFrameOf(m, cc, boxes).then(
          () => 1,
          () => 0,
        );
      }
    }
    return made;
  }

  /**
   * Re-reads the pointer; on a new version loads its fragments (as many as the cache holds), then switches.
   * Throws when the store cannot be read; the current version then stays.
   */
  async refresh(): Promise<"unchanged" | "switched" | "none"> {
    // the pointer alone tells whether anything changed: the manifest is read only for a new version
    const pointer = await currentPointer(this.store, this.tier);
    if (!pointer) return "none";
    if (pointer.version === this.current?.version) return "unchanged";
    const manifest = await manifestOf(this.store, pointer);
    let budget = this.cache.maxBytes;
    for (const entry of Object.values(manifest.countries)) {
      budget -= entry.gzBytes; // about the fragment's compressed size
      if (budget < 0) break;
      await this.fragment(entry);
    }
    this.current = manifest;
    return "switched";
  }

  /** A country's fragment, from the cache or the store; its bytes are checked against the manifest's hash. */
  async fragment(entry: CountryEntry): Promise<Buffer> {
    const hit = this.cache.get(entry.fragment);
    if (hit) return hit;
    const bytes = await this.store.get(entry.fragment);
    if (!bytes) throw new FragmentMissing(`${entry.fragment} is missing`);
    if (createHash("sha256").update(bytes).digest("hex") !== entry.fragmentSha256) {
      throw new FragmentMissing(`${entry.fragment} does not match its hash`);
    }
    this.cache.set(entry.fragment, bytes);
    return bytes;
  }
}
