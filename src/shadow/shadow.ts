// The shadow publication path (DESIGN §5): diff each feature's dynamic part against the previous shadow manifest,
// enqueue the changes in the journal, drain it with bounded concurrency into the master features' buckets,
// write the new shadow manifest, then the public diagnostics of bootstrap, parity and the queue.
import { createHash } from "node:crypto";
import PQueue from "p-queue";
import { z } from "zod";
import { type Feature, IsoInstant } from "../model/contract.js";
import { isRecord } from "../model/json.js";
import { parseVersioned } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { ObjectStore } from "../publish/store.js";
import { Journal, type QueueMessage } from "./journal.js";
import { ShadowState } from "./state.js";
import { STATUS_KEY, type StatusDocument, statusOf } from "./status.js";

export const SHADOW_MANIFEST_KEY = "internal/shadow/manifest.json";
/** Written once, when the first complete load ends: bootstrap never goes back to incomplete after it. */
export const BOOTSTRAP_KEY = "internal/shadow/bootstrap.json";
export const MASTER_PREFIX = "internal/master-features/";
const SCHEMA = 1;
const SHA256 = /^[0-9a-f]{64}$/;
const Sha256 = z.string().regex(SHA256);

export const ShadowManifest = z.strictObject({
  schema: z.literal(SCHEMA),
  /** The published version this shadow state follows. */
  version: z.string(),
  builtAt: IsoInstant,
  /** Feature id → SHA-256 of its dynamic part, as written to the master features' buckets. */
  features: z.record(z.string(), Sha256),
  /**
   * The published countries this state follows, each with its collection's SHA-256 and its features' ids; written
   * only when every feature was in step (no message waiting, no parity mismatch), so that a later run can take a
   * country whose collection has the same SHA-256 as followed without reading it (shadow/follow.ts).
   */
  countries: z.record(z.string(), z.strictObject({ sha256: Sha256, ids: z.array(z.string()) })).optional(),
});
export type ShadowManifest = z.infer<typeof ShadowManifest>;

const Bootstrap = z.strictObject({ schema: z.literal(SCHEMA), completedAt: IsoInstant, total: z.number().int() });

export interface ShadowOptions {
  /** The run's reference instant, epoch ms. */
  now: number;
  /** Publication instant of the version followed, epoch ms. */
  publishedAt: number;
  /** The published version (`X-Data-Version`) the shadow manifest records. */
  version: string;
  /** Writes in flight at once. @default 16 */
  concurrency?: number;
  /** Failed tries after which a message becomes a dead letter. @default 5 */
  maxAttempts?: number;
  /** Wait before the first retry of a message, ms; doubles with each retry. @default 100 */
  backoffMs?: number;
  /** Waits between retries (tests pass one that does not sleep). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Asked before each message is taken: true leaves it and the rest in the journal for the next run, so a run
   * ends before the next is due (the backlog and its age then show in the status). @default never
   */
  stopTaking?: () => boolean;
  /**
   * The shadow manifest as the caller read it (null: there is none), so that it is not read again; its `features`
   * are updated in place into the manifest written.
   */
  prior?: ShadowManifest | null;
  /** The master features' keys as the caller listed them, so that they are not listed again. */
  listed?: string[];
  /** Features known to be as the shadow state holds them (id → hash), not handed over in `features`. */
  carried?: ReadonlyMap<string, string>;
  /** The published countries `features` and `carried` make up, recorded in the manifest when all is in step. */
  followed?: ShadowManifest["countries"];
}

export interface ShadowResult {
  status: StatusDocument;
  /** Messages enqueued by this run. */
  enqueued: number;
  /** Messages handled (written or removed) by this run, older waiting ones included. */
  written: number;
  /** Messages that became dead letters in this run. */
  deadLettered: number;
}

const JSON_HEADERS = { contentType: "application/json", cacheControl: "no-store" };
/** Bucket writes in flight. */
const CONCURRENCY = 16;
const STATUS_HEADERS = { contentType: "application/json", cacheControl: "public, max-age=15" };

/** JSON with object keys sorted at every depth, so equal content always hashes equal (STYLE habit 10). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => stableJson(v ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of a feature's dynamic part (`properties.vendor.dynamicAirspaceMapping`). */
export function dynamicHash(feature: Feature): string {
  return createHash("sha256").update(stableJson(feature.properties.vendor.dynamicAirspaceMapping)).digest("hex");
}

/**
 * Master features live in `BUCKETS` objects, `internal/master-features/<bbbb>.json` by the id's SHA-256, each a map
 * of id → the feature's dynamic part with its version and hash: a first load of 49 000 features is a few hundred
 * writes, not one per feature (issue 24; DESIGN §5 names one object per feature, and allows batches), and a refresh
 * that changes a few features rewrites a few buckets of ~100 features each (parsing and writing a bucket again was a
 * third of a Europe-scale refresh's shadow step with 256 of them). The key has four hex digits: a store of the
 * buckets before, 64 `<bb>.json` or 256 `<bbb>.json`, is loaded again like one of an object per feature.
 */
export const BUCKETS = 512;
const BUCKET_KEY = /^internal\/master-features\/[0-9a-f]{4}\.json$/;
/**
 * Features taken from the journal before their buckets are written (then `stopTaking` is asked again): a first load
 * at Europe scale (~49 000) is one round, each bucket written once.
 */
const CHUNK = 60_000;

/** Master feature keys of an earlier layout (one object per feature, or 64 buckets): loaded again, then deleted. */
export const legacyKeys = (listed: readonly string[]) => listed.filter((k) => !BUCKET_KEY.test(k));

export const masterKey = (id: string) => {
  const b = createHash("sha256").update(id).digest().readUInt16BE(0) % BUCKETS;
  return `${MASTER_PREFIX}${b.toString(16).padStart(4, "0")}.json`;
};

/** A master feature as its bucket holds it. */
export type MasterFeature = { schema: number; id: string; version: string; hash: string } & Record<string, unknown>;

const masterEntry = (id: string, version: string, feature: Feature, hash: string): MasterFeature => ({
  schema: SCHEMA,
  id,
  version,
  hash,
  ...feature.properties.vendor.dynamicAirspaceMapping,
});

const Bucket = z.strictObject({
  schema: z.literal(SCHEMA),
  features: z.record(z.string(), z.custom<MasterFeature>()),
});

async function readBucket(store: ObjectStore, key: string): Promise<Record<string, MasterFeature>> {
  return (await readJson(store, Bucket, key))?.features ?? {};
}

/**
 * The shadow manifest, or undefined before the first. Its fields are checked with zod, its two records (one entry per
 * master feature, and the countries' ids) by shape: zod over their tens of thousands of entries took 450 ms of a
 * Europe-scale refresh's 6 s.
 */
export async function readShadowManifest(store: ObjectStore): Promise<ShadowManifest | undefined> {
  return readJson(store, ShadowManifestShape, SHADOW_MANIFEST_KEY);
}

/** ShadowManifest's own fields by its schema, its records by hand (the same rules). */
const ShadowManifestShape = z.unknown().transform((json, ctx): ShadowManifest => {
  const { features, countries, ...rest } = isRecord(json) ? json : {};
  const head = ShadowManifest.omit({ features: true, countries: true }).safeParse(rest);
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (!head.success) return fail(z.prettifyError(head.error));
  if (!isRecord(features)) return fail("features: not an object");
  // by key, not by Object.entries: one [id, hash] array per feature was half the check's time
  for (const id in features) {
    const h = features[id];
    if (typeof h !== "string" || !SHA256.test(h)) return fail(`features.${id}: not a SHA-256`);
  }
  if (countries !== undefined) {
    if (!isRecord(countries)) return fail("countries: not an object");
    for (const [cc, c] of Object.entries(countries)) {
      const { sha256, ids, ...other } = isRecord(c) ? c : { sha256: undefined, ids: undefined };
      const ok =
        typeof sha256 === "string" &&
        SHA256.test(sha256) &&
        Array.isArray(ids) &&
        ids.every((i) => typeof i === "string");
      if (!ok || Object.keys(other).length > 0) return fail(`countries.${cc}: not {sha256, ids}`);
    }
  }
  return {
    ...head.data,
    features: features as ShadowManifest["features"],
    ...(countries === undefined ? {} : { countries: countries as NonNullable<ShadowManifest["countries"]> }),
  };
});

/** One master feature as the store holds it, or undefined. */
export async function readMaster(store: ObjectStore, id: string): Promise<MasterFeature | undefined> {
  return (await readBucket(store, masterKey(id)))[id];
}

const byKey = ([a]: [string, ...unknown[]], [b]: [string, ...unknown[]]) => (a < b ? -1 : a > b ? 1 : 0);

async function readJson<T>(store: ObjectStore, schema: z.ZodType<T>, key: string): Promise<T | undefined> {
  const body = await store.get(key);
  return body && parseVersioned(schema, body.toString("utf8"), key);
}

export async function runShadow(
  store: ObjectStore,
  features: Feature[],
  options: ShadowOptions,
): Promise<ShadowResult> {
  const { now, version } = options;
  // a store written before the buckets holds one object per feature: load every feature into the buckets again,
  // then delete those objects (once the journal is drained)
  const listed = options.listed ?? (await store.list(MASTER_PREFIX));
  const legacy = legacyKeys(listed);
  if (legacy.length > 0 && (options.carried?.size ?? 0) > 0) {
    throw new Error("runShadow: features carried into a store that holds master features in an earlier layout");
  }
  /** The buckets the store holds: one it does not is not read (a first load reads none). */
  const existing = new Set(listed);
  const stored = (options.prior !== undefined ? options.prior : await readShadowManifest(store))?.features ?? {};
  const state = new ShadowState(features, dynamicHash, options.carried ?? new Map(), legacy.length > 0 ? {} : stored);
  const journal = new Journal(store, options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts });

  // diff: changed or new features, and features no longer published; skip what already waits in the journal
  const before = await journal.pending();
  const waiting = new Set(before.map((m) => `${m.featureId}\n${m.hash}`));
  // in id order (the changes sorted, not the union of every id, ~50 000 at Europe scale, on every run)
  const changes = state.changes().filter((c) => !waiting.has(`${c.featureId}\n${c.hash}`));
  changes.sort((a, b) => byKey([a.featureId], [b.featureId]));
  const enqueued = await journal.enqueue(changes, now, options.concurrency ?? CONCURRENCY);

  // drain: every waiting message, this run's and any a crashed run left, writes the feature as it is now
  let written = 0;
  let deadLettered = 0;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const backoffMs = options.backoffMs ?? 100;
  /** Each bucket's entries as the store holds them, read once per run. */
  const buckets = new Map<string, Record<string, MasterFeature>>();
  /**
   * Writes one bucket with the features of `groups` as they are now, then acknowledges their messages; a failed
   * write fails every message in it, retried with backoff until it succeeds or the messages are dead letters.
   */
  const writeBucket = async (key: string, groups: QueueMessage[][]) => {
    let pending = groups.map((ms) => ({ last: ms[ms.length - 1]!, rest: ms.slice(0, -1) }));
    for (;;) {
      try {
        const entries = { ...(buckets.get(key) ?? (existing.has(key) ? await readBucket(store, key) : {})) };
        for (const { last } of pending) {
          const id = last.featureId;
          // a carried feature is as the bucket holds it already
          const feature = state.feature(id);
          const hash = state.hash(id);
          if (feature && hash) entries[id] = masterEntry(id, version, feature, hash);
          else if (hash === undefined) delete entries[id];
        }
        const ids = Object.keys(entries).sort();
        if (ids.length === 0) await store.delete(key);
        else {
          const body = { schema: SCHEMA, features: Object.fromEntries(ids.map((id) => [id, entries[id]])) };
          await store.put(key, Buffer.from(`${JSON.stringify(body)}\n`), JSON_HEADERS);
        }
        buckets.set(key, entries);
      } catch {
        // the error is not kept: the attempt count is the diagnostic, and errors never reach the public document
        const still: typeof pending = [];
        for (const p of pending) {
          const r = await journal.fail(p.last);
          if (r.dead) deadLettered++;
          else still.push({ ...p, last: r.message });
        }
        if (still.length === 0) return;
        pending = still;
        await sleep(backoffMs * 2 ** (pending[0]!.last.attempts - 1));
        continue;
      }
      for (const { last, rest } of pending) {
        state.wrote(last.featureId);
        await journal.ack(last);
        written++;
        // several messages of one feature (a crashed run's and this run's) wrote the same thing, the feature now
        for (const m of rest) await journal.ack(m);
      }
      return;
    }
  };
  const byFeature = new Map<string, QueueMessage[]>();
  // what waits is what was read before the diff and what it enqueued (the journal is not read again), oldest first
  for (const m of [...before, ...enqueued]) {
    const list = byFeature.get(m.featureId);
    if (list) list.push(m);
    else byFeature.set(m.featureId, [m]);
  }
  // taken in order, a chunk at a time; each chunk's buckets written `concurrency` at a time
  const groups = [...byFeature.values()];
  const queue = new PQueue({ concurrency: options.concurrency ?? CONCURRENCY });
  let stopped = false;
  for (let i = 0; i < groups.length && !stopped; ) {
    const byBucket = new Map<string, QueueMessage[][]>();
    for (let n = 0; n < CHUNK && i < groups.length; n++) {
      if (options.stopTaking?.()) {
        stopped = true;
        break;
      }
      const g = groups[i++]!;
      const key = masterKey(g[0]!.featureId);
      const list = byBucket.get(key);
      if (list) list.push(g);
      else byBucket.set(key, [g]);
    }
    await Promise.all([...byBucket].map(([key, gs]) => queue.add(() => writeBucket(key, gs))));
  }

  // a dead letter is resolved once the feature it was about is in step again (a later message succeeded)
  const inStep = (id: string) => state.held(id) === state.hash(id);
  const dead = await journal.dead();
  const left = await journal.pending();
  const unresolvedFailures =
    dead.filter((d) => !inStep(d.featureId)).length + left.filter((m) => m.attempts > 0).length;
  // every feature published or held: each checked once
  const { checked, mismatched, loaded } = state.parity();

  const followed = left.length === 0 && mismatched === 0 && options.followed;
  const manifest: ShadowManifest = {
    schema: SCHEMA,
    version,
    builtAt: isoInstant(now),
    features: state.features(),
    ...(followed ? { countries: followed } : {}),
  };
  await store.put(SHADOW_MANIFEST_KEY, Buffer.from(`${JSON.stringify(manifest)}\n`), JSON_HEADERS);

  if (legacy.length > 0 && left.length === 0) {
    const deletes = new PQueue({ concurrency: options.concurrency ?? CONCURRENCY });
    await Promise.all(legacy.map((k) => deletes.add(() => store.delete(k))));
  }

  let bootstrapped = (await readJson(store, Bootstrap, BOOTSTRAP_KEY)) !== undefined;
  if (!bootstrapped && loaded === state.size && left.length === 0) {
    const marker = { schema: SCHEMA, completedAt: isoInstant(now), total: state.size };
    await store.put(BOOTSTRAP_KEY, Buffer.from(`${JSON.stringify(marker)}\n`), JSON_HEADERS);
    bootstrapped = true;
  }
  const failedLoad = dead.some((d) => !inStep(d.featureId) && state.held(d.featureId) === undefined);
  const loadState = bootstrapped ? "complete" : failedLoad ? "failed" : "incomplete";

  const oldest = left[0];
  const status = statusOf(
    {
      shadowManifestVersion: manifest.version,
      publishedAt: options.publishedAt,
      queue: {
        ...(oldest ? { oldestEnqueuedAt: Date.parse(oldest.enqueuedAt) } : {}),
        backlog: left.length,
        unresolvedFailures,
        deadLetters: dead.length,
      },
      bootstrap: { state: loadState, loaded, total: state.size },
      parity: { checked, mismatched },
    },
    now,
  );
  await store.put(STATUS_KEY, Buffer.from(`${JSON.stringify(status)}\n`), STATUS_HEADERS);
  return { status, enqueued: enqueued.length, written, deadLettered };
}
