// The shadow publication path (docs/design.md §5): diff each feature's dynamic part against the previous shadow manifest,
// enqueue the changes in the journal, drain it with bounded concurrency into the master features' buckets,
// write the new shadow manifest, then the public diagnostics of bootstrap, parity and the queue.
import { createHash } from "node:crypto";
import PQueue from "p-queue";
import { z } from "zod";
import { type Feature, IsoInstant } from "../model/contract.js";
import { parseVersioned } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { ObjectStore } from "../store/store.js";
import { drainJournal, legacyKeys, MASTER_PREFIX } from "./buckets.js";
import { Journal } from "./journal.js";
import { type PriorShadow, readParts, readShadowManifest, type ShadowPart, writeShadowManifest } from "./manifest.js";
import { ShadowState } from "./state.js";
import { STATUS_KEY, type StatusDocument, statusOf } from "./status.js";

/** Written once, when the first complete load ends: bootstrap never goes back to incomplete after it. */
export const BOOTSTRAP_KEY = "internal/shadow/bootstrap.json";
const SCHEMA = 1;

// the buckets' names, as follow.ts, the tests and the benchmarks import them

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
  const concurrency = options.concurrency ?? CONCURRENCY;
  const { legacy, unread, existing, prior, state } = await openState(store, features, options);
  const journal = new Journal(store, options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts });
  const { before, enqueued } = await enqueueChanges(journal, state, now, concurrency);

  // drain: every waiting message, this run's and any a crashed run left, writes the feature as it is now; what waits
  // is what was read before the diff and what it enqueued (the journal is not read again), oldest first
  const { written, deadLettered } = await drainJournal([...before, ...enqueued], {
    store,
    journal,
    state,
    version,
    existing,
    concurrency,
    backoffMs: options.backoffMs ?? 100,
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    stopTaking: options.stopTaking,
  });

  const { dead, left, unresolvedFailures, failedLoad } = await queueOutcome(journal, state);
  // every feature published or held: each checked once
  const { checked, mismatched, loaded } = state.parity();
  const allInStep = left.length === 0 && mismatched === 0;
  const manifest = await recordManifest(store, state, prior, unread, allInStep, options);

  if (legacy.length > 0 && left.length === 0) {
    const deletes = new PQueue({ concurrency });
    await Promise.all(legacy.map((k) => deletes.add(() => store.delete(k))));
  }
  const bootstrapped = await markBootstrap(store, state.size, loaded === state.size && left.length === 0, now);
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

/** What the run starts from: the store's layout, the prior shadow manifest and its parts, the features against them. */
async function openState(store: ObjectStore, features: Feature[], options: ShadowOptions) {
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
  return { legacy, unread, existing, prior, state };
}

/** Diff: enqueues changed or new features, and features no longer published, but for what already waits. */
async function enqueueChanges(journal: Journal, state: ShadowState, now: number, concurrency: number) {
  const before = await journal.pending();
  const waiting = new Set(before.map((m) => `${m.featureId}\n${m.hash}`));
  // in id order (the changes sorted, not the union of every id, ~50 000 at Europe scale, on every run)
  const changes = state.changes().filter((c) => !waiting.has(`${c.featureId}\n${c.hash}`));
  changes.sort((a, b) => byKey([a.featureId], [b.featureId]));
  const enqueued = await journal.enqueue(changes, now, concurrency);
  return { before, enqueued };
}

/** The journal once drained: what is left, the dead letters, and those not resolved since. */
async function queueOutcome(journal: Journal, state: ShadowState) {
  // a dead letter is resolved once the feature it was about is in step again (a later message succeeded)
  const inStep = (id: string) => state.held(id) === state.hash(id);
  const dead = await journal.dead();
  const left = await journal.pending();
  const unresolvedFailures =
    dead.filter((d) => !inStep(d.featureId)).length + left.filter((m) => m.attempts > 0).length;
  const failedLoad = dead.some((d) => !inStep(d.featureId) && state.held(d.featureId) === undefined);
  return { dead, left, unresolvedFailures, failedLoad };
}

/**
 * Writes the shadow manifest: the parts held, and those carried unread. A country's collection is recorded only when
 * every feature is in step, so that a later run may carry it unread.
 */
async function recordManifest(
  store: ObjectStore,
  state: ShadowState,
  prior: PriorShadow | undefined,
  unread: Record<string, ShadowPart>,
  allInStep: boolean,
  options: ShadowOptions,
) {
  const followed = (label: string) => (allInStep ? options.followed?.[label] : undefined);
  const held = new Map([...state.parts()].map(([label, hashes]) => [label, { hashes, collection: followed(label) }]));
  const kept = Object.fromEntries(
    Object.entries(unread).map(([cc, { key, count, collection }]) => [
      cc,
      allInStep && collection ? { key, count, collection } : { key, count },
    ]),
  );
  return writeShadowManifest(
    store,
    prior,
    { schema: SCHEMA, version: options.version, builtAt: isoInstant(options.now) },
    held,
    kept,
  );
}

/** Whether the first complete load has ended: the marker is written the first time `complete` is true. */
async function markBootstrap(store: ObjectStore, total: number, complete: boolean, now: number): Promise<boolean> {
  if ((await readJson(store, Bootstrap, BOOTSTRAP_KEY)) !== undefined) return true;
  if (!complete) return false;
  const marker = { schema: SCHEMA, completedAt: isoInstant(now), total };
  await store.put(BOOTSTRAP_KEY, Buffer.from(`${JSON.stringify(marker)}\n`), JSON_HEADERS);
  return true;
}
