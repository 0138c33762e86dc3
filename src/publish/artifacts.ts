// src/publish — artifacts into a store: objects, manifests, the pointer, retention, the S3 and local stores.
// Per-country FeatureCollections as content-addressed objects: each country's features are serialised and
// deflated once (the fragment), and its gzip object is the fragment inside the collection's shell. EUROPE is
// not stored: it is the countries' fragments joined into one member (as the origin answers any country set),
// and the manifest describes that join, so a change in one country uploads that country's objects alone.
import { createHash } from "node:crypto";
import type { Count, Feature } from "../model/contract.js";
import type { CountryEntry, EuropeEntry } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { chunkDigest, featuresDigestOf, keepChunks, type LaidChunk, memoChunks } from "./chunk-memo.js";
import { crc32Combine } from "./crc32-combine.js";
import { deflatePiece, deflatePieceSync, gzipPieces, joinPieces, type Piece } from "./gzip.js";
import { OPENAIR_HEADER, openairBlocks, openairOf } from "./openair.js";

/**
 * Features per chunk of a country's fragment. Each chunk (its features comma-joined, with the comma before it
 * after the first) is deflated on its own, so a refresh deflates again only the chunks where a feature changed.
 * The country's OpenAir is chunked alike: chunk j holds the blocks of the same features.
 */
export const CHUNK = 128;
/** A chunk of a fragment: its deflated bytes, and the CRC-32 and length of its text. */
export type Chunk = [bytes: number, crc32: number, length: number];

export const EUROPE = "EUROPE";

/** A country's features to serialise, sorted by `_id`. */
export interface CountryFeatures {
  features: readonly Feature[];
  airspaceNotams: number;
}

export interface Artifact {
  entry: CountryEntry;
  /**
   * The collection's gzip object, made when asked (to upload it): its fragment inside the shell. Most runs find it in
   * the store already, and a refresh copied every country's fragment into an object it never wrote.
   */
  gz: () => Buffer;
  fragment: Buffer;
  /** The country's OpenAir (docs/design.md §8): a gzip object with the header (made when asked), its fragment for joins. */
  openair: { gz: () => Buffer; fragment: Buffer };
  /** How its fragments are laid out, when this run serialised them (a later run patches them by it). */
  layout?: Layout;
}

/** A country's fragments as chunks of features, so that a refresh inflates and deflates only the changed ones. */
export interface Layout {
  /** The fragment's chunks. */
  chunks: Chunk[];
  /** Each feature's JSON length (UTF-16 code units), in `_id` order: a chunk's text splits by them. */
  lengths: number[];
  /** The OpenAir fragment's chunks: chunk j holds the blocks of the fragment's chunk j's features. */
  openairChunks: Chunk[];
  /** OpenAir blocks per feature, in `_id` order. */
  openairCounts: number[];
  /** Each chunk's SHA-256 (base64) of its JSON: the collection's features digest is made of them. */
  digests: string[];
}

/** Every country's artifact, and EUROPE's entry: EUROPE is joined from the countries' fragments, never stored. */
export interface Artifacts {
  countries: Map<string, Artifact>;
  europe: EuropeEntry;
}

/** Object key prefix of a tier (docs/design.md §5). */
export function tierPrefix(tier: Tier): string {
  return tier === "dynamic" ? "v1" : "internal/static/v1";
}

/** SHA-256 of buffers one after the other. */
function sha256(...parts: readonly Buffer[]): string {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest("hex");
}
const lengthOf = (parts: readonly Buffer[]) => parts.reduce((n, p) => n + p.length, 0);

export function countOf(features: readonly Feature[], airspaceNotams: number): Count {
  let graphicalNotams = 0;
  for (const f of features) if (f.properties.featureCategory === "graphicalNotam") graphicalNotams++;
  return { airspaces: features.length - graphicalNotams, airspaceNotams, graphicalNotams, total: features.length };
}

/** Adds the counts of `c` to `into` (a country set's meta.count is the sum of its countries'). */
export function addCount(into: Count, c: Count): Count {
  into.airspaces += c.airspaces;
  into.airspaceNotams += c.airspaceNotams;
  into.graphicalNotams += c.graphicalNotams;
  into.total += c.total;
  return into;
}

/** `{"type":"FeatureCollection","features":[` … `],"meta":{…}}` around a fragment. */
function shell(count: Count, tier: Tier): { prefix: Buffer; suffix: Buffer } {
  return {
    prefix: Buffer.from('{"type":"FeatureCollection","features":['),
    suffix: Buffer.from(`],"meta":${JSON.stringify({ count, tier })}}`),
  };
}

const COMMA_PIECE = deflatePieceSync(Buffer.from(","), false);

/** Countries serialised and deflated at once: two keep both cores busy (zlib runs on the thread pool). */
export const CONCURRENCY = 2;

/**
 * Builds every country's artifact and EUROPE's entry. `byCountry` maps a country to its features, already sorted;
 * a country in `reused` (its objects as a run before built them, {@link storedArtifact}) is not serialised again.
 * A country's JSON lives only until it is deflated: memory holds the compressed fragments, not the text.
 */
export async function buildArtifacts(
  byCountry: ReadonlyMap<string, CountryFeatures>,
  tier: Tier,
  europeAirspaceNotams?: number,
  reused: ReadonlyMap<string, Artifact> = new Map(),
): Promise<Artifacts> {
  const countries = new Map<string, Artifact>(reused);
  const todo = [...byCountry.keys()].filter((cc) => !reused.has(cc));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < todo.length; i = next++) {
      const cc = todo[i]!;
      const { features, airspaceNotams } = byCountry.get(cc)!;
      countries.set(cc, await serialise(features, countOf(features, airspaceNotams), tier));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const codes = [...countries.keys()].sort();
  const europeCount: Count = { airspaces: 0, airspaceNotams: 0, graphicalNotams: 0, total: 0 };
  for (const cc of codes) addCount(europeCount, countries.get(cc)!.entry.count);
  if (europeAirspaceNotams !== undefined) europeCount.airspaceNotams = europeAirspaceNotams;
  const joined = codes.filter((cc) => countries.get(cc)!.entry.fragmentBytes > 0);
  // EUROPE's object is described, never stored: hashed piece by piece, not joined
  const member = memberPieces(
    joined.map((cc) => pieceOf(countries.get(cc)!)),
    europeCount,
    tier,
  );
  const gzBytes = lengthOf(member.pieces);
  const europe = { parts: joined, sha256: sha256(...member.pieces), bytes: member.bytes, gzBytes, count: europeCount };
  return { countries: new Map(codes.map((cc) => [cc, countries.get(cc)!])), europe };
}

/**
 * A country's fragment text as UTF-8, chunk by chunk (chunk `j`: its features' JSON comma-joined, after a comma
 * unless it is the first, see chunkText), with each feature's text length (UTF-16 units, as a refresh splits a
 * chunk's text). Held as bytes, not strings, while a country is serialised: a NOTAM's name ends in `…`, so its JSON
 * is a two-byte string, and as strings one country's NOTAMs were a quarter of the Europe-scale publish's live heap.
 * Each chunk is one buffer its features' texts are written into (a buffer per feature cost a tenth of the stage).
 */
export interface Encoded {
  /** Each chunk's JSON; none for a chunk of the same feature objects as one this process serialised last. */
  chunks: Array<Buffer | undefined>;
  lengths: number[];
  /** Each chunk's SHA-256 (chunk-memo.ts). */
  digests: string[];
}

/**
 * The features' JSON chunk by chunk, with each chunk's digest. A chunk whose features are the objects of the same chunk
 * `before` (this process's last serialisation of the country, chunk-memo.ts) is not written again: the resolver gives
 * the same feature object for an airspace or NOTAM whose inputs are the same (resolve/day.ts, resolve/notam-stage.ts),
 * and features are never changed once made, so its JSON is what it was.
 */
export function encodeFeatures(features: readonly Feature[], before?: readonly LaidChunk[]): Encoded {
  const lengths: number[] = new Array(features.length);
  const chunks: Array<Buffer | undefined> = new Array(Math.max(1, Math.ceil(features.length / CHUNK)));
  const digests: string[] = new Array(chunks.length);
  for (let j = 0; j < chunks.length; j++) {
    const end = Math.min(features.length, (j + 1) * CHUNK);
    const laid = before?.[j];
    if (laid && sameObjects(laid.features, features, j * CHUNK, end)) {
      for (const [k, n] of laid.lengths.entries()) lengths[j * CHUNK + k] = n;
      digests[j] = laid.digest;
      continue;
    }
    const chunk = encodeChunk(features, j, lengths);
    chunks[j] = chunk;
    digests[j] = chunkDigest(chunk);
  }
  return { chunks, lengths, digests };
}

/** Chunk `j`'s JSON: its features comma-joined, after a comma unless it is the first; their lengths into `lengths`. */
function encodeChunk(features: readonly Feature[], j: number, lengths: number[]): Buffer {
  const end = Math.min(features.length, (j + 1) * CHUNK);
  const texts: string[] = [];
  let bytes = 0;
  for (let i = j * CHUNK; i < end; i++) {
    const text = JSON.stringify(features[i]);
    lengths[i] = text.length;
    bytes += Buffer.byteLength(text);
    texts.push(text);
  }
  const commas = j > 0 ? texts.length : Math.max(0, texts.length - 1);
  const chunk = Buffer.allocUnsafe(bytes + commas);
  let at = 0;
  for (let k = 0; k < texts.length; k++) {
    if (k > 0 || j > 0) chunk[at++] = 0x2c; // ,
    at += chunk.write(texts[k]!, at);
  }
  return chunk;
}

/** `features[from, end)` are the objects of `laid`, in order. */
function sameObjects(laid: readonly Feature[], features: readonly Feature[], from: number, end: number): boolean {
  if (laid.length !== end - from) return false;
  for (let i = from; i < end; i++) if (laid[i - from] !== features[i]) return false;
  return true;
}

/** One country's objects: its features deflated once, the collection around them, and its OpenAir. */
export async function serialise(
  features: readonly Feature[],
  count: Count,
  tier: Tier,
  /** The features' JSON, when the caller has it already. */
  encoded: Encoded = encodeFeatures(features),
  /** The memo of this country's chunks (chunk-memo.ts) to take from and keep in. */
  memo?: { key: string },
): Promise<Artifact> {
  // chunk by chunk: its JSON and OpenAir deflated on zlib's thread pool (four in flight) while the main thread
  // writes the next chunk's OpenAir; a chunk this process deflated last time is taken as it was
  const { chunks, lengths, digests } = encoded;
  const pieces: Piece[] = new Array(chunks.length);
  const oa: Piece[] = new Array(chunks.length);
  const openairCounts: number[] = new Array(features.length);
  const before = memo && memoChunks(memo.key);
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  const start = (raw: Buffer, into: Piece[], j: number) => {
    const p: Promise<void> = deflatePiece(raw)
      .then(
        (piece) => {
          into[j] = piece;
        },
        (error: unknown) => {
          failed ??= { error };
        },
      )
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  for (let j = 0; j < chunks.length; j++) {
    const kept = memo && before?.get(digests[j]!);
    if (kept) {
      [pieces[j], oa[j]] = [kept.json, kept.openair];
      for (const [k, n] of kept.counts.entries()) openairCounts[j * CHUNK + k] = n;
      continue;
    }
    // a chunk left unwritten is one of the memo's (encodeFeatures), written here only if the memo lost it
    start(chunks[j] ?? encodeChunk(features, j, [...lengths]), pieces, j);
    const per = features.slice(j * CHUNK, (j + 1) * CHUNK).map((f) => openairBlocks(f));
    for (const [k, b] of per.entries()) openairCounts[j * CHUNK + k] = b.length;
    start(Buffer.from(openairOf(per).text), oa, j);
    while (inFlight.size >= 4) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failed) throw failed.error;
  const artifact = artifactFrom(pieces, oa, { lengths, openairCounts, digests }, count, tier);
  if (memo) {
    const counts = (j: number) => openairCounts.slice(j * CHUNK, (j + 1) * CHUNK);
    const byDigest = new Map(digests.map((d, j) => [d, { json: pieces[j]!, openair: oa[j]!, counts: counts(j) }]));
    const laid = digests.map((digest, j): LaidChunk => {
      const [from, end] = [j * CHUNK, (j + 1) * CHUNK];
      return { features: features.slice(from, end), digest, lengths: lengths.slice(from, end) };
    });
    keepChunks(memo.key, { byDigest, laid, sha256: artifact.entry.sha256 });
  }
  return artifact;
}

/** Chunk `j`'s text: its features' JSON comma-joined, after a comma unless it is the first. */
export const chunkText = (texts: readonly string[], j: number) => (j > 0 ? `,${texts.join(",")}` : texts.join(","));

/**
 * The features' JSON in chunk `j`'s text, split by their lengths; undefined if they do not add up (a comma
 * between two features, and before the first unless `j` is 0).
 */
export function chunkFeatureTexts(text: string, j: number, lengths: readonly number[]): string[] | undefined {
  const out: string[] = [];
  let at = j > 0 ? 1 : 0;
  if (j > 0 && text[0] !== ",") return undefined;
  for (const [k, n] of lengths.entries()) {
    if (k > 0 && text[at++] !== ",") return undefined;
    out.push(text.slice(at, at + n));
    at += n;
  }
  return at === text.length ? out : undefined;
}

/** The chunks of a stored fragment as pieces (their bytes sliced, not copied); undefined if they do not add up. */
export function chunkPieces(fragment: Buffer, chunks: readonly Chunk[]): Piece[] | undefined {
  const out: Piece[] = [];
  let at = 0;
  for (const [bytes, crc32, length] of chunks) {
    out.push({ deflated: fragment.subarray(at, at + bytes), crc32, length });
    at += bytes;
  }
  return at === fragment.length ? out : undefined;
}

/**
 * A country's artifact as `base` with some chunks replaced by new text and its OpenAir text renewed: the other
 * chunks' deflated bytes are kept, byte for byte what serialising every feature again gives.
 */
export async function patchArtifact(
  json: { pieces: readonly Piece[]; renewed: ReadonlyMap<number, string>; lengths: number[]; digests: string[] },
  openair: { pieces: readonly Piece[]; renewed: ReadonlyMap<number, string>; counts: number[] },
  count: Count,
  tier: Tier,
): Promise<Artifact> {
  const renew = ({ pieces, renewed }: { pieces: readonly Piece[]; renewed: ReadonlyMap<number, string> }) =>
    Promise.all(
      pieces.map((p, j) => {
        const text = renewed.get(j);
        return text === undefined ? p : deflatePiece(Buffer.from(text));
      }),
    );
  const [all, oa] = await Promise.all([renew(json), renew(openair)]);
  const digests = json.digests.map((d, j) => {
    const text = json.renewed.get(j);
    return text === undefined ? d : chunkDigest(Buffer.from(text));
  });
  return artifactFrom(all, oa, { lengths: json.lengths, openairCounts: openair.counts, digests }, count, tier);
}

/** A country's artifact from its chunks' pieces, GeoJSON and OpenAir, with what a later run needs to patch it. */
function artifactFrom(
  json: Piece[],
  oa: Piece[],
  per: Pick<Layout, "lengths" | "openairCounts" | "digests">,
  count: Count,
  tier: Tier,
): Artifact {
  const blocks = per.openairCounts.reduce((n, c) => n + c, 0);
  const digest = featuresDigestOf(per.digests);
  const a = artifactOf(joinPieces(json), { piece: joinPieces(oa), blocks }, count, tier, { features: digest });
  const chunks = (ps: Piece[]) => ps.map((p): Chunk => [p.deflated.length, p.crc32, p.length]);
  return { ...a, layout: { chunks: chunks(json), openairChunks: chunks(oa), ...per } };
}

function artifactOf(
  piece: Piece,
  oa: { piece: Piece; blocks: number },
  count: Count,
  tier: Tier,
  /** The features digest; the objects' SHA-256s, when known already (their fragments are hashed all the same). */
  known: { features?: string; sha256?: string; openair?: string },
): Artifact {
  const member = memberPieces([piece], count, tier);
  const [sha, fragSha] = [known.sha256 ?? sha256(...member.pieces), sha256(piece.deflated)];
  const base = tierPrefix(tier);
  const oaPieces = openairPieces([oa.piece]);
  const [oaSha, oaFragSha] = [known.openair ?? sha256(...oaPieces), sha256(oa.piece.deflated)];
  const entry: CountryEntry = {
    key: `${base}/objects/${sha}.geojson.gz`,
    fragment: `${base}/objects/${fragSha}.deflate`,
    sha256: sha,
    bytes: member.bytes,
    gzBytes: lengthOf(member.pieces),
    fragmentSha256: fragSha,
    fragmentBytes: piece.length,
    fragmentCrc32: piece.crc32,
    ...(known.features ? { featuresSha256: known.features } : {}),
    count,
    openair: {
      key: `${base}/objects/${oaSha}.openair.gz`,
      fragment: `${base}/objects/${oaFragSha}.openair.deflate`,
      sha256: oaSha,
      fragmentSha256: oaFragSha,
      fragmentBytes: oa.piece.length,
      fragmentCrc32: oa.piece.crc32,
      gzBytes: lengthOf(oaPieces),
      blocks: oa.blocks,
    },
  };
  return {
    entry,
    gz: () => Buffer.concat(member.pieces),
    fragment: piece.deflated,
    openair: { gz: () => Buffer.concat(oaPieces), fragment: oa.piece.deflated },
  };
}

/**
 * A country's artifact as an earlier run stored it, rebuilt from its two fragments (no serialising, no
 * deflating); undefined when an object is gone or its bytes are not the entry's (then it is built again). The
 * entry comes from a cache entry of this code version (src/publish/stage-cache.ts): the objects around fragments
 * with the entry's SHA-256s are those this code builds, so only the fragments are hashed (hashing the objects too
 * was a twentieth of a Europe-scale refresh).
 */
export async function storedArtifact(
  store: { get(key: string): Promise<Buffer | undefined> },
  entry: CountryEntry,
  tier: Tier,
): Promise<Artifact | undefined> {
  const oa = entry.openair;
  if (!oa) return undefined;
  const [fragment, oaFragment] = await Promise.all([store.get(entry.fragment), store.get(oa.fragment)]);
  if (!fragment || !oaFragment) return undefined;
  const piece = { deflated: fragment, crc32: entry.fragmentCrc32, length: entry.fragmentBytes };
  const oaPiece = { deflated: oaFragment, crc32: oa.fragmentCrc32, length: oa.fragmentBytes };
  const features = entry.featuresSha256 ? { features: entry.featuresSha256 } : {};
  const known = { sha256: entry.sha256, openair: oa.sha256, ...features };
  const a = artifactOf(piece, { piece: oaPiece, blocks: oa.blocks }, entry.count, tier, known);
  const same = a.entry.fragmentSha256 === entry.fragmentSha256 && a.entry.openair?.fragmentSha256 === oa.fragmentSha256;
  // how its answers were decided is the derivation's, not the bytes': kept as the entry states it
  return same ? { ...a, entry: { ...a.entry, ...(entry.decided ? { decided: entry.decided } : {}) } } : undefined;
}

/** A stored fragment as a piece to join. */
export function pieceOf(a: { entry: CountryEntry; fragment: Buffer }): Piece {
  return { deflated: a.fragment, crc32: a.entry.fragmentCrc32, length: a.entry.fragmentBytes };
}

/**
 * One gzip member holding a FeatureCollection of the given fragments (commas between them) with `meta.count`:
 * what a country's object is, and what the origin answers for a set of countries or EUROPE (docs/design.md §6).
 */
export function joinMember(parts: readonly Piece[], count: Count, tier: Tier): Buffer {
  return Buffer.concat(memberPieces(parts, count, tier).pieces);
}

/**
 * The buffers of that member in order, without copying the fragments (the origin writes them one by one), and
 * the length of the uncompressed text.
 */
export function memberPieces(parts: readonly Piece[], count: Count, tier: Tier): { pieces: Buffer[]; bytes: number } {
  const { prefix, suffix } = shell(count, tier);
  const pieces: Buffer[] = [];
  let crc = 0;
  let length = 0;
  for (const [i, p] of parts.entries()) {
    if (i > 0) {
      pieces.push(COMMA_PIECE.deflated);
      crc = crc32Combine(crc, COMMA_PIECE.crc32, COMMA_PIECE.length);
      length += COMMA_PIECE.length;
    }
    pieces.push(p.deflated);
    crc = crc32Combine(crc, p.crc32, p.length);
    length += p.length;
  }
  const head = deflatePieceSync(prefix, false);
  const tail = deflatePieceSync(suffix, true);
  const whole = crc32Combine(crc32Combine(head.crc32, crc, length), tail.crc32, tail.length);
  const bytes = prefix.length + length + suffix.length;
  return { pieces: gzipPieces([head.deflated, ...pieces, tail.deflated], whole, bytes), bytes };
}

const OPENAIR_HEAD = deflatePieceSync(Buffer.from(`${OPENAIR_HEADER}\n`), false);
const FINAL = deflatePieceSync(Buffer.alloc(0), true);

/** One gzip member of OpenAir: the header, then the countries' blocks in order (they end in blank lines). */
export function openairPieces(parts: readonly Piece[]): Buffer[] {
  return memberOf([OPENAIR_HEAD, ...parts]);
}

/** One gzip member of pieces in order (none of them final), with its uncompressed length. */
export function memberOf(parts: readonly Piece[]): Buffer[] {
  let crc = 0;
  let length = 0;
  for (const p of parts) {
    crc = crc32Combine(crc, p.crc32, p.length);
    length += p.length;
  }
  return gzipPieces([...parts.map((p) => p.deflated), FINAL.deflated], crc, length);
}
