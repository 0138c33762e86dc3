// The pointer and version manifest (docs/design.md §5). Public and read back by later runs and the origin:
// validated on read, and a `schema` we do not know is refused (STYLE habit 13).
import { z } from "zod";
import { Count, type Feature, IsoInstant } from "./contract.js";
import { TIERS } from "./vocab.js";

export const MANIFEST_SCHEMA = 1;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const Decided = z.strictObject({ evidence: z.number().int().min(0), default: z.number().int().min(0) });
export type Decided = z.infer<typeof Decided>;

export const CountryEntry = z.strictObject({
  /** `v1/objects/<sha256>.geojson.gz`: the whole FeatureCollection, one gzip member. */
  key: z.string(),
  /** `v1/objects/<sha256>.deflate`: the features alone, comma-joined, raw deflate ending in a sync flush. */
  fragment: z.string(),
  /** SHA-256 of the gzip object's bytes (its key). */
  sha256: Sha256,
  /** Uncompressed bytes of the FeatureCollection. */
  bytes: z.number().int().min(0),
  /** Bytes of the gzip object. */
  gzBytes: z.number().int().min(0),
  /** SHA-256 of the fragment's bytes (its key). */
  fragmentSha256: Sha256,
  /** Uncompressed bytes of the fragment. */
  fragmentBytes: z.number().int().min(0),
  /** CRC-32 of the uncompressed fragment, for joining fragments into one gzip member. */
  fragmentCrc32: z.number().int().min(0),
  /**
   * The digest the collection's features must have (issue 51, src/client/digest.ts): SHA-256 over the SHA-256s of its
   * features in groups of 128, so a client checks what it holds after a change set. Absent in manifests before it.
   */
  featuresSha256: Sha256.optional(),
  count: Count,
  /**
   * How its airspaces' answers were decided (issue 50 §5): by evidence (AIP hours, a NOTAM, the AUP, validity, a
   * permanent kind) or by default (rules `other`, `hoursUnknown`, `conditionalUnknown`: nothing says when it is active).
   * Absent in the internal tier and in manifests written before it.
   */
  decided: Decided.optional(),
  /**
   * docs/design.md §8: the change from the previous version of the same day (`from`), when this country changed; a gzip
   * ChangeSet under `v1/changes/<day>/<sha256>.json.gz`. Absent when the country is as it was (same `sha256`).
   */
  changes: z
    .strictObject({
      from: z.string(),
      key: z.string(),
      sha256: Sha256,
      bytes: z.number().int().min(0),
      gzBytes: z.number().int().min(0),
      added: z.number().int().min(0),
      changed: z.number().int().min(0),
      removed: z.number().int().min(0),
    })
    .optional(),
  /** docs/design.md §8: the country's OpenAir for instruments, a gzip object and its raw-deflate fragment (for joins). */
  openair: z
    .strictObject({
      key: z.string(),
      fragment: z.string(),
      sha256: Sha256,
      fragmentSha256: Sha256,
      fragmentBytes: z.number().int().min(0),
      fragmentCrc32: z.number().int().min(0),
      gzBytes: z.number().int().min(0),
      blocks: z.number().int().min(0),
    })
    .optional(),
});
export type CountryEntry = z.infer<typeof CountryEntry>;

/** EUROPE: not an object of its own but the join of the named countries' fragments (docs/design.md §6), described. */
export const EuropeEntry = z.strictObject({
  /** The countries whose fragments, joined in this order with commas, are EUROPE's features (empty ones left out). */
  parts: z.array(z.string().regex(/^[A-Z]{2}$/)),
  /** SHA-256 of the joined gzip member, as `joinMember` builds it. */
  sha256: Sha256,
  /** Uncompressed bytes of the FeatureCollection. */
  bytes: z.number().int().min(0),
  /** Bytes of the joined gzip member. */
  gzBytes: z.number().int().min(0),
  count: Count,
});
export type EuropeEntry = z.infer<typeof EuropeEntry>;

/**
 * Issue 60: the version's vector tiles, one PMTiles v3 archive of every feature of EUROPE (src/tiles), under
 * `v1/objects/<sha256>.pmtiles`. Absent in the static tier and in manifests written before it.
 */
export const TilesEntry = z.strictObject({
  key: z.string(),
  sha256: Sha256,
  /** Bytes of the archive. */
  bytes: z.number().int().min(0),
  /** Tiles addressed, and the bytes of their data (each tile gzip-compressed). */
  tiles: z.number().int().min(0),
  tileBytes: z.number().int().min(0),
  /** The largest tile's bytes. */
  largestTile: z.number().int().min(0),
  minZoom: z.number().int().min(0),
  maxZoom: z.number().int().min(0),
  features: z.number().int().min(0),
  /**
   * The tiles whose bytes differ from those of the day's previous version (`from`), new ones included: what a refresh
   * rewrote. Absent for a day's first version.
   */
  rewritten: z
    .strictObject({ from: z.string(), tiles: z.number().int().min(0), bytes: z.number().int().min(0) })
    .optional(),
});
export type TilesEntry = z.infer<typeof TilesEntry>;

export const SourceEntry = z.looseObject({
  fetchedAt: IsoInstant,
  /** The day or instant the source describes, when it says. */
  effective: IsoInstant.nullable(),
  stale: z.boolean(),
  kind: z.enum(["airspace", "notam", "aup"]),
  /** SHA-256 of the source bytes. */
  sha256: Sha256,
  records: z.number().int().min(0),
  /** NOTAM and AUP sources: the as-of time freshness is measured from (null: unknown, hence stale), and its origin. */
  asOf: IsoInstant.nullable().optional(),
  asOfFrom: z.enum(["content", "declared", "http", "none"]).optional(),
  /** NOTAM and AUP sources: the FIRs the source briefs (`*`: every FIR, an operator's assumption). */
  coverage: z.array(z.string()).optional(),
  /** NOTAM and AUP sources: fresh, stale or empty at the run's `now`, and why not fresh. */
  standing: z.enum(["fresh", "stale", "empty"]).optional(),
  reason: z.string().optional(),
});
export type SourceEntry = z.infer<typeof SourceEntry>;

export const VersionManifest = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.string().regex(/^\d{8}T\d{6}Z-[0-9a-f]{8}$/),
  date: z.iso.date(),
  publishedAt: IsoInstant,
  tier: z.enum(["dynamic", "static"]),
  sources: z.record(z.string(), SourceEntry),
  countries: z.record(z.string().regex(/^[A-Z]{2}$/), CountryEntry),
  europe: EuropeEntry,
  tiles: TilesEntry.optional(),
  /**
   * The record (docs/design.md §8), written by versions since issue 23: the version before this one of the same day (null:
   * the day's first), the day's first version (whose collections, with the change sets, rebuild every version of
   * the day), when the run switched it live (its `now`, the record's clock) and the pointers it was switched into.
   */
  previous: z.string().nullable().optional(),
  first: z.string().optional(),
  liveFrom: IsoInstant.optional(),
  pointers: z.array(z.string()).optional(),
});
export type VersionManifest = z.infer<typeof VersionManifest>;

/** docs/design.md §8: what changed in one country from version `from` of the day; applied to `from`'s collection it gives
 * this version's (feature order aside: collections are sorted by `_id`). `meta` is the collection's new meta. */
export const ChangeSet = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  country: z.string().regex(/^[A-Z]{2}$/),
  day: z.iso.date(),
  from: z.string(),
  meta: z.strictObject({ count: Count, tier: z.enum(TIERS) }),
  /** Features as published (validated when published; not parsed again here). */
  added: z.array(z.custom<Feature>()),
  changed: z.array(z.custom<Feature>()),
  removed: z.array(z.string()),
});
export type ChangeSet = z.infer<typeof ChangeSet>;

export const Pointer = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.string(),
  manifest: z.string(),
  publishedAt: IsoInstant,
});
export type Pointer = z.infer<typeof Pointer>;

/** Reads a JSON document of a known schema version; says which version it met when it refuses. */
export function parseVersioned<T>(schema: z.ZodType<T>, text: string, what: string): T {
  const json: unknown = JSON.parse(text);
  const version = typeof json === "object" && json !== null && "schema" in json ? json.schema : undefined;
  if (version !== MANIFEST_SCHEMA) {
    throw new Error(`${what}: schema ${JSON.stringify(version)} is not supported (expected ${MANIFEST_SCHEMA})`);
  }
  return schema.parse(json);
}
