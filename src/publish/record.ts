// The record (docs/design.md §8): every version of a day is a link in that day's chain (`previous`), the day's pointer
// names its head, and the day's first version with the change sets rebuilds every version of the day. Answers
// "which version was live at T" and "what did version V hold for country C" long after V's own objects are gone.
//   v1/days/2026-08-22/current.json ─▶ V5 ─previous─▶ V4 ─▶ … ─▶ V1 (first: its collections are kept)
import { gunzipSync } from "node:zlib";
import type { FeatureCollection } from "../model/contract.js";
import { ChangeSet, Pointer, parseVersioned, type VersionManifest, VersionManifest as VM } from "../model/manifest.js";
import { DAY_MS, isoDay } from "../model/time.js";
import type { ObjectStore } from "../store/store.js";
import { applyChange } from "./changes.js";
import { crc32, gunzipAsync } from "./gzip.js";

export const dayPointerKey = (base: string, date: string) => `${base}/days/${date}/current.json`;
export const manifestKey = (base: string, version: string) => `${base}/versions/${version}.json`;
const dayOf = (ms: number) => isoDay(Math.floor(ms / DAY_MS));

/** A version cannot be rebuilt: an object it needs is gone, or what was rebuilt is not what it published. */
export class RecordGap extends Error {
  override readonly name = "RecordGap";
}

export class DayRecord {
  private readonly manifests = new Map<string, Promise<VersionManifest | undefined>>();
  private readonly collections = new Map<string, Promise<FeatureCollection>>();

  constructor(
    private readonly store: ObjectStore,
    readonly base: string,
  ) {}

  /** A version's manifest (immutable: read once), or undefined when it is not (or no longer) kept. */
  manifest(version: string): Promise<VersionManifest | undefined> {
    let hit = this.manifests.get(version);
    if (!hit) {
      const key = manifestKey(this.base, version);
      hit = this.store.get(key).then((b) => b && parseVersioned(VM, b.toString("utf8"), key));
      hit.catch(() => this.manifests.delete(version));
      this.manifests.set(version, hit);
      if (this.manifests.size > 4096) this.manifests.delete(this.manifests.keys().next().value!);
    }
    return hit;
  }

  /** The head of a day's chain: the version its pointer names now. */
  async head(date: string): Promise<VersionManifest | undefined> {
    const key = dayPointerKey(this.base, date);
    const bytes = await this.store.get(key);
    if (!bytes) return undefined;
    return this.manifest(parseVersioned(Pointer, bytes.toString("utf8"), key).version);
  }

  /** The days that have a pointer, sorted. */
  async days(): Promise<string[]> {
    const keys = await this.store.list(`${this.base}/days/`);
    return [...new Set(keys.map((k) => /\/days\/(\d{4}-\d{2}-\d{2})\/current\.json$/.exec(k)?.[1]))]
      .filter((d): d is string => d !== undefined)
      .sort();
  }

  /** A day's versions, oldest first, as far back as manifests are kept. */
  async chain(date: string): Promise<VersionManifest[]> {
    const out: VersionManifest[] = [];
    for (let m = await this.head(date); m; m = m.previous ? await this.manifest(m.previous) : undefined) {
      out.push(m);
      if (out.length > 10_000) throw new RecordGap(`the chain of ${date} does not end`);
    }
    return out.reverse();
  }

  /**
   * The version live at `at`: of `date` when given (what its day pointer named then), else what `current.json`
   * (today's pointer) named then, looked for in that day's chain and the two before.
   */
  async liveAt(at: number, date?: string): Promise<VersionManifest | undefined> {
    const today = `${this.base}/current.json`;
    for (const d of date ? [date] : [dayOf(at), dayOf(at - DAY_MS), dayOf(at - 2 * DAY_MS)]) {
      let m = await this.head(d);
      for (; m; m = m.previous ? await this.manifest(m.previous) : undefined) {
        const wasToday = date !== undefined || (m.pointers ?? [today]).includes(today);
        if (wasToday && Date.parse(m.publishedAt) <= at) return m;
      }
    }
    return undefined;
  }

  /**
   * A country's collection as version `m` published it: its object when kept, else rebuilt from the version
   * before and this version's change set (back to the day's first), and checked against the manifest's length and
   * CRC-32 of the features.
   */
  collection(m: VersionManifest, cc: string): Promise<FeatureCollection> {
    const key = `${m.version}|${cc}`;
    let hit = this.collections.get(key);
    if (!hit) {
      hit = this.build(m, cc);
      hit.catch(() => this.collections.delete(key));
      this.collections.set(key, hit);
      if (this.collections.size > 64) this.collections.delete(this.collections.keys().next().value!);
    }
    return hit;
  }

  /** A country's collection in a version as the JSON text it was published as (its object's, else rebuilt). */
  async collectionText(m: VersionManifest, cc: string): Promise<string> {
    const entry = m.countries[cc];
    const own = entry ? await this.store.get(entry.key) : undefined;
    // on zlib's thread: the caller inflates the new collection beside it
    return own ? (await gunzipAsync(own)).toString("utf8") : JSON.stringify(await this.collection(m, cc));
  }

  private async build(m: VersionManifest, cc: string): Promise<FeatureCollection> {
    const entry = m.countries[cc];
    if (!entry) return { type: "FeatureCollection", features: [], meta: { count: zero(), tier: m.tier } };
    const own = await this.store.get(entry.key);
    if (own) return JSON.parse(gunzipSync(own).toString("utf8")) as FeatureCollection;
    const previous = m.previous ? await this.manifest(m.previous) : undefined;
    if (!previous) throw new RecordGap(`${m.version} ${cc}: its collection is gone and no version before it is kept`);
    const before = await this.collection(previous, cc);
    let rebuilt: FeatureCollection;
    if (entry.changes) {
      const bytes = await this.store.get(entry.changes.key);
      if (!bytes) throw new RecordGap(`${m.version} ${cc}: its change set ${entry.changes.key} is gone`);
      const set = parseVersioned(ChangeSet, gunzipSync(bytes).toString("utf8"), entry.changes.key);
      rebuilt = applyChange(before, set, set.meta);
    } else if (previous.countries[cc]?.sha256 === entry.sha256) rebuilt = before;
    else throw new RecordGap(`${m.version} ${cc}: changed without a change set`);
    const features = Buffer.from(rebuilt.features.map((f) => JSON.stringify(f)).join(","));
    const whole = Buffer.byteLength(JSON.stringify(rebuilt));
    if (whole !== entry.bytes || crc32(features) !== entry.fragmentCrc32 || features.length !== entry.fragmentBytes) {
      throw new RecordGap(`${m.version} ${cc}: the rebuilt collection is not the one published`);
    }
    return rebuilt;
  }
}

const zero = () => ({ airspaces: 0, airspaceNotams: 0, graphicalNotams: 0, total: 0 });
