// Publish one version (docs/design.md §5): upload the objects that are not there yet, then the version
// manifest, then flip the pointer. Until the pointer is written the previous version stays live and
// complete; a crash anywhere before leaves only unreferenced objects, and a re-run converges.
import { createHash } from "node:crypto";
import {
  type CountryEntry,
  type Decided,
  MANIFEST_SCHEMA,
  Pointer,
  parseVersioned,
  type SourceEntry,
  type TilesEntry,
  type VersionManifest,
} from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { Tier } from "../model/vocab.js";
import type { LeaseGuard } from "../store/publisher-lease.js";
import type { ObjectStore, PutOptions } from "../store/store.js";
import { type Artifact, type Artifacts, buildArtifacts, type CountryFeatures, tierPrefix } from "./artifacts.js";
import { type Change, changeSetObject, diffTexts } from "./changes.js";
import { gunzipAsync } from "./gzip.js";
import { DayRecord, dayPointerKey, manifestKey } from "./record.js";
import { TILES_HEADERS, type TilesCountry, type TilesObject, tilesObject } from "./tiles.js";
import { type Upload, uploadObjects } from "./upload.js";

export const DATA_HEADERS: PutOptions = {
  contentType: "application/geo+json",
  contentEncoding: "gzip",
  cacheControl: "public, max-age=31536000, immutable",
};
const FRAGMENT_HEADERS: PutOptions = {
  contentType: "application/octet-stream",
  cacheControl: "public, max-age=31536000, immutable",
};
const MANIFEST_HEADERS: PutOptions = {
  contentType: "application/json",
  cacheControl: "public, max-age=31536000, immutable",
};
const POINTER_HEADERS: PutOptions = { contentType: "application/json", cacheControl: "public, max-age=30" };
const OPENAIR_HEADERS: PutOptions = {
  contentType: "text/plain; charset=utf-8",
  contentEncoding: "gzip",
  cacheControl: "public, max-age=31536000, immutable",
};
/** Change sets are read by the origin (never public objects of their own): gzip JSON, immutable. */
const CHANGES_HEADERS: PutOptions = {
  contentType: "application/json",
  contentEncoding: "gzip",
  cacheControl: "public, max-age=31536000, immutable",
};

export interface PublishInput {
  /** Features per home country, each list sorted by `_id`. */
  byCountry: ReadonlyMap<string, CountryFeatures>;
  /** Countries whose objects an earlier run built (issue 24): published as they are, not serialised again. */
  reused?: ReadonlyMap<string, Artifact>;
  /** A country's change from the collection with SHA-256 `sha256` (a refresh knows it): neither is read back. */
  known?: ReadonlyMap<string, { sha256: string; change: Change }>;
  /** Distinct A/D NOTAMs over all countries (one NOTAM may touch several); the per-country sum when absent. */
  europeAirspaceNotams?: number;
  /** The UTC day described, `YYYY-MM-DD`. */
  date: string;
  /** Publication instant (the run's `now`), epoch ms: part of the version name. */
  publishedAt: number;
  sources: Record<string, SourceEntry>;
  tier: Tier;
  /** Per country built, how its airspaces were decided (the dynamic tier): stated in its manifest entry. */
  decided?: ReadonlyMap<string, Decided>;
  /** Publish the version's vector tiles too (the dynamic tier; PublishDayOptions.tiles). */
  tiles?: boolean;
}

export interface PublishResult {
  manifest: VersionManifest;
  pointer: Pointer;
  /** Keys written in this run (objects that already existed are not rewritten). */
  uploaded: string[];
  reused: string[];
  /** Today's pointer (`current.json`) was switched to this version (a version of today, not of another day). */
  today: boolean;
  /** Every country's objects as published (built or reused). */
  artifacts: ReadonlyMap<string, Artifact>;
}

export type PublishProgress = (event: {
  phase: "compress" | "tiles" | "upload" | "manifest" | "pointer";
  done?: number;
  total?: number;
}) => void;

/** Another run switched the pointer while this one was publishing: nothing of this run is live. */
export class PublishConflict extends Error {
  override readonly name = "PublishConflict";
}

export async function publishVersion(
  store: ObjectStore,
  input: PublishInput,
  progress: PublishProgress = () => {},
  /** The store's publisher lease this run holds (jobs/publish-run.ts): confirmed before the pointers are switched. */
  options: { lease?: LeaseGuard } = {},
): Promise<PublishResult> {
  const base = tierPrefix(input.tier);
  const pointerKey = `${base}/current.json`;
  // the pointer as it was when this run began: the flip is a compare-and-swap against it
  const before = await store.head(pointerKey);
  const record = new DayRecord(store, base);
  // the day's chain: the version before this one of the same day, the base of its change sets
  const dayKey = dayPointerKey(base, input.date);
  const dayBefore = await store.head(dayKey);
  const previous = dayBefore ? await record.head(input.date) : undefined;
  progress({ phase: "compress" });
  const built = await buildArtifacts(input.byCountry, input.tier, input.europeAirspaceNotams, input.reused);
  const artifacts = built.countries;
  for (const [cc, decided] of input.decided ?? []) {
    const a = artifacts.get(cc);
    if (a) artifacts.set(cc, { ...a, entry: { ...a.entry, decided } });
  }
  const publishedAt = isoInstant(input.publishedAt);
  const today = input.date === publishedAt.slice(0, 10);
  const pointers = [dayKey, ...(today ? [pointerKey] : [])];
  // the public tier's vector tiles (issue 60): the static tier has no activation to show
  let tiles: TilesObject | undefined;
  // an unchanged re-run (same content, same `now`) keeps the day's head as it is, tiles and all
  const content = contentOf(input, built);
  if (input.tiles && input.tier === "dynamic" && previous?.version !== content.version) {
    progress({ phase: "tiles" });
    const held = new Map(
      [...artifacts].map(([cc, artifact]): [string, TilesCountry] => {
        const features = input.byCountry.get(cc)?.features;
        // a refresh's change of the country, when it is the change from the day's previous version
        const known = input.known?.get(cc);
        const change = known && known.sha256 === previous?.countries[cc]?.sha256 ? known.change : undefined;
        return [cc, { artifact, ...(features ? { features } : {}), ...(change ? { change } : {}) }];
      }),
    );
    tiles = await tilesObject(store, base, input.date, held, previous);
  }
  const { manifest, changeSets } = await nextManifest(record, previous, input, built, content, pointers, tiles?.entry);
  const version = manifest.version;
  const uploads = [...objectsOf(artifacts), ...changeSets.map((c): Upload => [c.key, c.gz, CHANGES_HEADERS])];
  if (tiles?.body) uploads.push([tiles.entry.key, tiles.body, TILES_HEADERS]);
  const { uploaded, reused } = await uploadObjects(store, uploads, progress);
  const mKey = manifestKey(base, version);
  progress({ phase: "manifest" });
  // the version names its content: a manifest already there (an unchanged re-run) holds these very bytes
  if (await store.head(mKey)) reused.push(mKey);
  else {
    await store.put(mKey, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_HEADERS);
    uploaded.push(mKey);
  }
  const pointer: Pointer = { schema: MANIFEST_SCHEMA, version, manifest: mKey, publishedAt };
  progress({ phase: "pointer" });
  // where the store cannot compare-and-swap, the lease alone keeps other runs off the pointers: still this run's?
  await options.lease?.confirm();
  const pointerBody = Buffer.from(`${JSON.stringify(pointer, null, 2)}\n`);
  // the day's pointer is the chain's head: switched by compare-and-swap, so two runs of a day never interleave
  if ((await swap(store, dayKey, pointerBody, dayBefore)) === "conflict") {
    throw new PublishConflict(
      `another run switched ${dayKey} while this one published ${version}; nothing was switched`,
    );
  }
  uploaded.push(dayKey);
  // today's pointer follows only a version of today, and never goes back to an earlier day
  const switched = today && (await switchToday(record, store, pointerKey, pointerBody, before, input.date));
  if (switched) uploaded.push(pointerKey);
  return { manifest, pointer, uploaded, reused, today: switched, artifacts };
}

/** A country's change set since the day's previous version: its object and its manifest entry. */
type ChangeSetObject = { cc: string; key: string; gz: Buffer; entry: NonNullable<CountryEntry["changes"]> };

/** This version's manifest, and the change sets it names since `previous` (the day's head before this run). */
async function nextManifest(
  record: DayRecord,
  previous: VersionManifest | undefined,
  input: PublishInput,
  built: Artifacts,
  { countries, body, version }: ReturnType<typeof contentOf>,
  pointers: string[],
  tiles: TilesEntry | undefined,
): Promise<{ manifest: VersionManifest; changeSets: ChangeSetObject[] }> {
  const publishedAt = isoInstant(input.publishedAt);
  // an unchanged re-run (same content, same `now`) is the day's head already: it is kept as it is
  if (previous?.version === version) return { manifest: previous, changeSets: [] };
  const changeSets = await changesFrom(record, previous, input, built.countries, record.base);
  for (const c of changeSets) countries[c.cc] = { ...countries[c.cc]!, changes: c.entry };
  const manifest: VersionManifest = {
    schema: MANIFEST_SCHEMA,
    version,
    publishedAt,
    ...body,
    countries,
    // the tiles are made of the countries' features: the version's name does not hash them again
    ...(tiles ? { tiles } : {}),
    previous: previous?.version ?? null,
    // a day begun before the record (issue 23) starts its record here
    first: previous?.first ?? version,
    pointers,
  };
  return { manifest, changeSets };
}

/**
 * What a version's name hashes: its content, and the name, `20260914T063000Z-<8 hex of its SHA-256>`. Where it stands
 * in the record (previous, first, pointers) is not content.
 */
function contentOf(input: PublishInput, built: Artifacts) {
  const countries = Object.fromEntries([...built.countries].map(([cc, a]) => [cc, a.entry]));
  const body = { date: input.date, tier: input.tier, sources: input.sources, countries, europe: built.europe };
  const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 8);
  return { countries, body, version: `${isoInstant(input.publishedAt).replace(/[-:]/g, "").slice(0, 15)}Z-${hash}` };
}

/** Today's pointer switched to this version, unless it already names a later day. */
async function switchToday(
  record: DayRecord,
  store: ObjectStore,
  key: string,
  body: Buffer,
  before: { etag?: string } | undefined,
  date: string,
): Promise<boolean> {
  if (await laterDayLive(record, store, key, date)) return false;
  // a conflict here is a later run of today or of the next day that switched it first: it stays theirs
  return (await swap(store, key, body, before)) !== "conflict";
}

/** A pointer written by compare-and-swap against what it was when the run began (or the publisher lease kept others out). */
async function swap(
  store: ObjectStore,
  key: string,
  body: Buffer,
  before: { etag?: string } | undefined,
): Promise<"written" | "conflict"> {
  const expected = before?.etag ? { etag: before.etag } : before ? undefined : { absent: true as const };
  const cas =
    store.putIfMatch && expected ? await store.putIfMatch(key, body, POINTER_HEADERS, expected) : "unsupported";
  if (cas === "conflict") return "conflict";
  // without conditional writes the store's publisher lease, confirmed just before, kept other runs out
  if (cas === "unsupported") await store.put(key, body, POINTER_HEADERS);
  return "written";
}

/** Today's pointer already names a later day (a late run of yesterday must not take it back). */
async function laterDayLive(record: DayRecord, store: ObjectStore, key: string, date: string): Promise<boolean> {
  const bytes = await store.get(key);
  if (!bytes) return false;
  const live = await record.manifest(parseVersioned(Pointer, bytes.toString("utf8"), key).version);
  return live !== undefined && live.date > date;
}

/** Per country that changed since `previous` (of the same day): its change set, as an object and a manifest entry. */
async function changesFrom(
  record: DayRecord,
  previous: VersionManifest | undefined,
  input: PublishInput,
  artifacts: ReadonlyMap<string, Artifact>,
  base: string,
): Promise<ChangeSetObject[]> {
  if (!previous) return [];
  const out: ChangeSetObject[] = [];
  for (const [cc, a] of artifacts) {
    if (previous.countries[cc]?.sha256 === a.entry.sha256) continue;
    const was = previous.countries[cc];
    const known = was && input.known?.get(cc);
    const change =
      known?.sha256 === was?.sha256 && known ? known.change : await textDiff(record, was ? previous : undefined, cc, a);
    const meta = { count: a.entry.count, tier: input.tier };
    const set = changeSetObject(base, { country: cc, day: input.date, from: previous.version, meta, ...change });
    const { added, changed, removed } = change;
    const entry = {
      from: previous.version,
      key: set.key,
      sha256: set.sha256,
      bytes: set.bytes,
      gzBytes: set.gz.length,
      added: added.length,
      changed: changed.length,
      removed: removed.length,
    };
    out.push({ cc, key: set.key, gz: set.gz, entry });
  }
  return out;
}

/** Distinct objects in a stable order (two countries with equal content share their objects). */
function objectsOf(artifacts: ReadonlyMap<string, Artifact>): Upload[] {
  const seen = new Map<string, Upload>();
  for (const a of artifacts.values()) {
    seen.set(a.entry.key, [a.entry.key, a.gz, DATA_HEADERS]);
    seen.set(a.entry.fragment, [a.entry.fragment, a.fragment, FRAGMENT_HEADERS]);
    const oa = a.entry.openair;
    if (oa) {
      seen.set(oa.key, [oa.key, a.openair.gz, OPENAIR_HEADERS]);
      seen.set(oa.fragment, [oa.fragment, a.openair.fragment, FRAGMENT_HEADERS]);
    }
  }
  return [...seen.values()].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The change of a country from `previous`'s collection to the artifact's, both inflated at once on zlib's threads. */
async function textDiff(
  record: DayRecord,
  previous: VersionManifest | undefined,
  cc: string,
  a: Artifact,
): Promise<Change> {
  const [before, after] = await Promise.all([
    previous ? record.collectionText(previous, cc) : undefined,
    gunzipAsync(a.gz()).then((b) => b.toString("utf8")),
  ]);
  return diffTexts(before, after);
}
