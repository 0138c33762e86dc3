// Publish one version (DESIGN §5): upload the objects that are not there yet, then the version
// manifest, then flip the pointer. Until the pointer is written the previous version stays live and
// complete; a crash anywhere before leaves only unreferenced objects, and a re-run converges.
import { createHash } from "node:crypto";
import type { Feature } from "../model/contract.js";
import { MANIFEST_SCHEMA, type Pointer, type SourceEntry, type VersionManifest } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { Tier } from "../model/vocab.js";
import { type Artifact, buildArtifacts, tierPrefix } from "./artifacts.js";
import type { ObjectStore, PutOptions } from "./store.js";

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

export interface PublishInput {
  /** Features per home country, each list sorted by `_id`. */
  byCountry: ReadonlyMap<string, { features: readonly Feature[]; airspaceNotams: number }>;
  /** Distinct A/D NOTAMs over all countries (one NOTAM may touch several); the per-country sum when absent. */
  europeAirspaceNotams?: number;
  /** The UTC day described, `YYYY-MM-DD`. */
  date: string;
  /** Publication instant (the run's `now`), epoch ms: part of the version name. */
  publishedAt: number;
  sources: Record<string, SourceEntry>;
  tier: Tier;
}

export interface PublishResult {
  manifest: VersionManifest;
  pointer: Pointer;
  /** Keys written in this run (objects that already existed are not rewritten). */
  uploaded: string[];
  reused: string[];
}

export type PublishProgress = (event: {
  phase: "compress" | "upload" | "manifest" | "pointer";
  done?: number;
  total?: number;
}) => void;

export async function publishVersion(
  store: ObjectStore,
  input: PublishInput,
  progress: PublishProgress = () => {},
): Promise<PublishResult> {
  progress({ phase: "compress" });
  const artifacts = await buildArtifacts(input.byCountry, input.tier, input.europeAirspaceNotams);
  const countries = Object.fromEntries([...artifacts].map(([cc, a]) => [cc, a.entry]));
  const publishedAt = isoInstant(input.publishedAt);
  const body = { date: input.date, tier: input.tier, sources: input.sources, countries };
  const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 8);
  const version = `${publishedAt.replace(/[-:]/g, "").slice(0, 15)}Z-${hash}`;
  const manifest: VersionManifest = { schema: MANIFEST_SCHEMA, version, publishedAt, ...body };

  const uploads = objectsOf(artifacts);
  const uploaded: string[] = [];
  const reused: string[] = [];
  let done = 0;
  for (const [key, bytes, headers] of uploads) {
    if (await store.head(key)) reused.push(key);
    else {
      await store.put(key, bytes, headers);
      uploaded.push(key);
    }
    progress({ phase: "upload", done: ++done, total: uploads.length });
  }
  const base = tierPrefix(input.tier);
  const manifestKey = `${base}/versions/${version}.json`;
  progress({ phase: "manifest" });
  await store.put(manifestKey, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_HEADERS);
  uploaded.push(manifestKey);
  const pointer: Pointer = { schema: MANIFEST_SCHEMA, version, manifest: manifestKey, publishedAt };
  progress({ phase: "pointer" });
  await store.put(`${base}/current.json`, Buffer.from(`${JSON.stringify(pointer, null, 2)}\n`), POINTER_HEADERS);
  uploaded.push(`${base}/current.json`);
  return { manifest, pointer, uploaded, reused };
}

/** Distinct objects in a stable order (two countries with equal content share their objects). */
function objectsOf(artifacts: ReadonlyMap<string, Artifact>): Array<[string, Buffer, PutOptions]> {
  const seen = new Map<string, [string, Buffer, PutOptions]>();
  for (const a of artifacts.values()) {
    seen.set(a.entry.key, [a.entry.key, a.gz, DATA_HEADERS]);
    seen.set(a.entry.fragment, [a.entry.fragment, a.fragment, FRAGMENT_HEADERS]);
  }
  return [...seen.values()].sort(([a], [b]) => (a < b ? -1 : 1));
}
