// The shadow publication path (DESIGN §5): diff each feature's dynamic part against the previous shadow manifest,
// enqueue the changes in the journal, drain it with bounded concurrency into the master features' buckets,
// write the new shadow manifest, then the public diagnostics of bootstrap, parity and the queue.
import { createHash } from "node:crypto";
import PQueue from "p-queue";
import { z } from "zod";
import { type Feature, IsoInstant } from "../model/contract.js";
import { parseVersioned } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { ObjectStore } from "../store/store.js";
import { Journal, type QueueMessage } from "./journal.js";
import { type PriorShadow, readParts, readShadowManifest, type ShadowPart, writeShadowManifest } from "./manifest.js";
import { ShadowState } from "./state.js";
import { STATUS_KEY, type StatusDocument, statusOf } from "./status.js";

/** Written once, when the first complete load ends: bootstrap never goes back to incomplete after it. */
export const BOOTSTRAP_KEY = "internal/shadow/bootstrap.json";
export const MASTER_PREFIX = "internal/master-features/";
const SCHEMA = 1;

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
  /** The shadow manifest as the caller read it (null: there is none), so that it is not read again. */
  prior?: PriorShadow | null;
  /** The master features' keys as the caller listed them, so that they are not listed again. */
  listed?: string[];
  /** Features known to be as the shadow state holds them (id → hash), not handed over in `features`. */
  carried?: ReadonlyMap<string, string>;
  /** The parts as the caller read them (all but `unread`'s), so that they are not read again. */
  parts?: Map<string, Record<string, string>>;
  /** Countries carried whole, every feature in step: their parts are neither read nor written again. */
  unread?: Record<string, ShadowPart>;
  /**
   * The part of each of `features`: the country whose published collection holds it (shadow/follow.ts), so that a
   * part is one collection's features. @default its `country`
   */
  partOf?: (f: Feature) => string;
  /** Each country's published collection SHA-256, recorded with its part when all is in step. */
  followed?: Record<string, string>;
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
  const unread = options.unread ?? {};
  if (legacy.length > 0 && ((options.carried?.size ?? 0) > 0 || Object.keys(unread).length > 0)) {
    throw new Error("runShadow: features carried into a store that holds master features in an earlier layout");
  }
  /** The buckets the store holds: one it does not is not read (a first load reads none). */
  const existing = new Set(listed);
  const prior = options.prior !== undefined ? (options.prior ?? undefined) : await readShadowManifest(store);
  // master features in an earlier layout are all loaded again: no hash is taken as held
  const parts =
    legacy.length > 0 ? new Map() : (options.parts ?? (await readParts(store, prior, new Set(Object.keys(unread)))));
  const unreadCount = Object.values(unread).reduce((n, p) => n + p.count, 0);
  const state = new ShadowState(
    features,
    dynamicHash,
    options.carried ?? new Map(),
    parts,
    unreadCount,
    options.partOf,
  );
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
  const failedLoad = dead.some((d) => !inStep(d.featureId) && state.held(d.featureId) === undefined);

  // a country's collection is recorded only when every feature is in step, so that a later run may carry it unread
  const allInStep = left.length === 0 && mismatched === 0;
  const followed = (label: string) => (allInStep ? options.followed?.[label] : undefined);
  const held = new Map([...state.parts()].map(([label, hashes]) => [label, { hashes, collection: followed(label) }]));
  const kept = Object.fromEntries(
    Object.entries(unread).map(([cc, { key, count, collection }]) => [
      cc,
      allInStep && collection ? { key, count, collection } : { key, count },
    ]),
  );
  const manifest = await writeShadowManifest(
    store,
    prior,
    { schema: SCHEMA, version, builtAt: isoInstant(now) },
    held,
    kept,
  );

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
