// The master features' buckets (docs/design.md §5): which bucket holds a feature, what a bucket holds, and the drain that
// writes the journal's waiting messages into them with bounded concurrency.
import { createHash } from "node:crypto";
import PQueue from "p-queue";
import { z } from "zod";
import type { Feature } from "../model/contract.js";
import { parseVersioned } from "../model/manifest.js";
import type { ObjectStore } from "../store/store.js";
import type { Journal, QueueMessage } from "./journal.js";
import type { ShadowState } from "./state.js";

export const MASTER_PREFIX = "internal/master-features/";
const SCHEMA = 1;
const JSON_HEADERS = { contentType: "application/json", cacheControl: "no-store" };

/**
 * Master features live in `BUCKETS` objects, `internal/master-features/<bbbb>.json` by the id's SHA-256, each a map
 * of id → the feature's dynamic part with its version and hash: a first load of 49 000 features is a few hundred
 * writes, not one per feature (issue 24; docs/design.md §5 names one object per feature, and allows batches), and a refresh
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
  const body = await store.get(key);
  return (body && parseVersioned(Bucket, body.toString("utf8"), key))?.features ?? {};
}

/** One master feature as the store holds it, or undefined. */
export async function readMaster(store: ObjectStore, id: string): Promise<MasterFeature | undefined> {
  return (await readBucket(store, masterKey(id)))[id];
}

/** What draining the journal writes with. */
export interface Drain {
  store: ObjectStore;
  journal: Journal;
  state: ShadowState;
  /** The published version each entry records. */
  version: string;
  /** The buckets the store holds: one it does not is not read (a first load reads none). */
  existing: ReadonlySet<string>;
  /** Bucket writes in flight at once. */
  concurrency: number;
  /** Wait before the first retry of a bucket, ms; doubles with each retry. */
  backoffMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Asked before each feature is taken: true leaves it and the rest in the journal. */
  stopTaking?: (() => boolean) | undefined;
}

/** One drain's counts, and each bucket's entries as the store holds them, read once per run. */
interface Progress {
  buckets: Map<string, Record<string, MasterFeature>>;
  written: number;
  deadLettered: number;
}

/** A feature's waiting messages: the last one decides, the rest are acknowledged with it. */
interface Pending {
  last: QueueMessage;
  rest: QueueMessage[];
}

/**
 * Writes every feature of `waiting` (oldest first) as it is now into its bucket: taken in order, a chunk at a time,
 * each chunk's buckets written `concurrency` at a time; several messages of one feature are written once.
 */
export async function drainJournal(waiting: readonly QueueMessage[], d: Drain): Promise<Progress> {
  const progress: Progress = { buckets: new Map(), written: 0, deadLettered: 0 };
  const byFeature = new Map<string, QueueMessage[]>();
  for (const m of waiting) {
    const list = byFeature.get(m.featureId);
    if (list) list.push(m);
    else byFeature.set(m.featureId, [m]);
  }
  const groups = [...byFeature.values()];
  const queue = new PQueue({ concurrency: d.concurrency });
  let stopped = false;
  for (let i = 0; i < groups.length && !stopped; ) {
    const byBucket = new Map<string, QueueMessage[][]>();
    for (let n = 0; n < CHUNK && i < groups.length; n++) {
      if (d.stopTaking?.()) {
        stopped = true;
        break;
      }
      const g = groups[i++]!;
      const key = masterKey(g[0]!.featureId);
      const list = byBucket.get(key);
      if (list) list.push(g);
      else byBucket.set(key, [g]);
    }
    await Promise.all([...byBucket].map(([key, gs]) => queue.add(() => writeBucket(d, progress, key, gs))));
  }
  return progress;
}

/**
 * Writes one bucket with the features of `groups` as they are now, then acknowledges their messages; a failed
 * write fails every message in it, retried with backoff until it succeeds or the messages are dead letters.
 */
async function writeBucket(d: Drain, progress: Progress, key: string, groups: QueueMessage[][]): Promise<void> {
  let pending: Pending[] = groups.map((ms) => ({ last: ms[ms.length - 1]!, rest: ms.slice(0, -1) }));
  for (;;) {
    try {
      await putBucket(d, progress, key, pending);
    } catch {
      // the error is not kept: the attempt count is the diagnostic, and errors never reach the public document
      const still: Pending[] = [];
      for (const p of pending) {
        const r = await d.journal.fail(p.last);
        if (r.dead) progress.deadLettered++;
        else still.push({ ...p, last: r.message });
      }
      if (still.length === 0) return;
      pending = still;
      await d.sleep(d.backoffMs * 2 ** (pending[0]!.last.attempts - 1));
      continue;
    }
    for (const { last, rest } of pending) {
      d.state.wrote(last.featureId);
      await d.journal.ack(last);
      progress.written++;
      // several messages of one feature (a crashed run's and this run's) wrote the same thing, the feature now
      for (const m of rest) await d.journal.ack(m);
    }
    return;
  }
}

/** Puts the bucket with `pending`'s features as they are now (deletes it when none is left); throws when the store does. */
async function putBucket(d: Drain, progress: Progress, key: string, pending: readonly Pending[]): Promise<void> {
  const { store, state } = d;
  const entries = { ...(progress.buckets.get(key) ?? (d.existing.has(key) ? await readBucket(store, key) : {})) };
  for (const { last } of pending) {
    const id = last.featureId;
    // a carried feature is as the bucket holds it already
    const feature = state.feature(id);
    const hash = state.hash(id);
    if (feature && hash) entries[id] = masterEntry(id, d.version, feature, hash);
    else if (hash === undefined) delete entries[id];
  }
  const ids = Object.keys(entries).sort();
  if (ids.length === 0) await store.delete(key);
  else {
    const body = { schema: SCHEMA, features: Object.fromEntries(ids.map((id) => [id, entries[id]])) };
    await store.put(key, Buffer.from(`${JSON.stringify(body)}\n`), JSON_HEADERS);
  }
  progress.buckets.set(key, entries);
}
