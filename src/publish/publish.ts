// Publish one version (DESIGN §5): upload the objects that are not there yet, then the version
// manifest, then flip the pointer. Until the pointer is written the previous version stays live and
// complete; a crash anywhere before leaves only unreferenced objects, and a re-run converges.
import { createHash } from "node:crypto";
import PQueue from "p-queue";
import type { Feature } from "../model/contract.js";
import { MANIFEST_SCHEMA, type Pointer, type SourceEntry, type VersionManifest } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { Tier } from "../model/vocab.js";
import { type Artifact, buildArtifacts, tierPrefix } from "./artifacts.js";
import { acquireLease } from "./lease.js";
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

/** Another run switched the pointer while this one was publishing: nothing of this run is live. */
export class PublishConflict extends Error {
  override readonly name = "PublishConflict";
}

/** Uploads in flight at once: enough to hide request latency, few enough for small stores. */
const UPLOAD_CONCURRENCY = 8;

export async function publishVersion(
  store: ObjectStore,
  input: PublishInput,
  progress: PublishProgress = () => {},
  /** `clock` is the wall clock the lease expires by (the run's reference instant when not given). */
  options: { owner?: string; clock?: () => number } = {},
): Promise<PublishResult> {
  const base = tierPrefix(input.tier);
  const pointerKey = `${base}/current.json`;
  // the pointer as it was when this run began: the flip is a compare-and-swap against it
  const before = await store.head(pointerKey);
  const lease = await acquireLease(store, base, {
    clock: options.clock ?? (() => input.publishedAt),
    ...(options.owner ? { owner: options.owner } : {}),
  });
  try {
    return await publishUnderLease(store, input, progress, pointerKey, before);
  } finally {
    await lease?.release();
  }
}

async function publishUnderLease(
  store: ObjectStore,
  input: PublishInput,
  progress: PublishProgress,
  pointerKey: string,
  before: { etag?: string } | undefined,
): Promise<PublishResult> {
  progress({ phase: "compress" });
  const { countries: artifacts, europe } = await buildArtifacts(
    input.byCountry,
    input.tier,
    input.europeAirspaceNotams,
  );
  const countries = Object.fromEntries([...artifacts].map(([cc, a]) => [cc, a.entry]));
  const publishedAt = isoInstant(input.publishedAt);
  const body = { date: input.date, tier: input.tier, sources: input.sources, countries, europe };
  const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 8);
  const version = `${publishedAt.replace(/[-:]/g, "").slice(0, 15)}Z-${hash}`;
  const manifest: VersionManifest = { schema: MANIFEST_SCHEMA, version, publishedAt, ...body };

  const uploads = objectsOf(artifacts);
  const uploaded: string[] = [];
  const reused: string[] = [];
  let done = 0;
  const queue = new PQueue({ concurrency: UPLOAD_CONCURRENCY });
  await Promise.all(
    uploads.map(([key, bytes, headers]) =>
      queue.add(async () => {
        if (await store.head(key)) reused.push(key);
        else {
          await store.put(key, bytes, headers);
          uploaded.push(key);
        }
        progress({ phase: "upload", done: ++done, total: uploads.length });
      }),
    ),
  );
  uploaded.sort();
  reused.sort();
  const base = tierPrefix(input.tier);
  const manifestKey = `${base}/versions/${version}.json`;
  progress({ phase: "manifest" });
  // the version names its content: a manifest already there (an unchanged re-run) holds these very bytes
  if (await store.head(manifestKey)) reused.push(manifestKey);
  else {
    await store.put(manifestKey, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_HEADERS);
    uploaded.push(manifestKey);
  }
  const pointer: Pointer = { schema: MANIFEST_SCHEMA, version, manifest: manifestKey, publishedAt };
  progress({ phase: "pointer" });
  const body2 = Buffer.from(`${JSON.stringify(pointer, null, 2)}\n`);
  const expected = before?.etag ? { etag: before.etag } : before ? undefined : { absent: true as const };
  const cas =
    store.putIfMatch && expected ? await store.putIfMatch(pointerKey, body2, POINTER_HEADERS, expected) : "unsupported";
  if (cas === "conflict") {
    throw new PublishConflict(
      `another run switched ${pointerKey} while this one published ${version}; nothing was switched`,
    );
  }
  // without conditional writes the lease (acquireLease) kept other runs out
  if (cas === "unsupported") await store.put(pointerKey, body2, POINTER_HEADERS);
  uploaded.push(pointerKey);
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
