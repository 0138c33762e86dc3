import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { BUCKETS, MASTER_PREFIX, masterKey, readMaster } from "../../src/shadow/buckets.js";
import { DEAD_PREFIX, JOURNAL_PREFIX, Journal } from "../../src/shadow/journal.js";
import {
  LEGACY_PART,
  PARTS_PREFIX,
  readParts,
  readShadowManifest,
  SHADOW_MANIFEST_KEY,
  ShadowManifest,
} from "../../src/shadow/manifest.js";
import { runShadow, type ShadowOptions } from "../../src/shadow/shadow.js";
import { STATUS_KEY, StatusDocument, type StatusInputs, statusOf } from "../../src/shadow/status.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import type { PutOptions } from "../../src/store/store.js";
import { feature } from "../publish/fixtures.js";
import { held, part } from "./held.js";

const T0 = Date.UTC(2026, 8, 14, 8, 0, 0);
const MIN = 60_000;
const VERSION = "20260914T080000Z-0123abcd";
const ERROR_TEXT = "disk on fire";

/** Records every put with its headers; puts to keys in `failing` throw. */
class FlakyStore extends MemoryStore {
  readonly failing = new Set<string>();
  readonly puts: { key: string; options: PutOptions | undefined }[] = [];
  readonly gets: string[] = [];
  override async get(key: string): Promise<Buffer | undefined> {
    this.gets.push(key);
    return super.get(key);
  }
  override async put(key: string, body: Buffer, options?: PutOptions): Promise<void> {
    this.puts.push({ key, options });
    if (this.failing.has(key)) throw new Error(`${ERROR_TEXT}: ${key}`);
    return super.put(key, body);
  }
  override async delete(key: string): Promise<void> {
    if (this.failing.has(key)) throw new Error(`${ERROR_TEXT}: ${key}`);
    return super.delete(key);
  }
}

const FEATURES = [feature("ed-r1", "DE", 8), feature("ed-r2", "DE", 9), feature("lf-r3", "FR", 2)];

/** A copy of `f` whose dynamic part differs. */
function changed(f: Feature): Feature {
  const c = structuredClone(f);
  c.properties.vendor.dynamicAirspaceMapping.airspaceActivationTimes = [
    { start: "2026-09-14T10:00:00Z", end: "2026-09-14T12:00:00Z" },
  ];
  return c;
}

const run = (store: MemoryStore, features: Feature[], now: number, extra: Partial<ShadowOptions> = {}) =>
  runShadow(store, features, { now, publishedAt: now, version: VERSION, sleep: async () => {}, ...extra });

async function storedStatus(store: MemoryStore): Promise<{ text: string; doc: StatusDocument }> {
  const text = (await store.get(STATUS_KEY))!.toString("utf8");
  return { text, doc: StatusDocument.parse(JSON.parse(text)) };
}

describe("readShadowManifest", () => {
  const H = "a".repeat(64);
  const head = {
    schema: 1,
    version: VERSION,
    builtAt: "2026-09-14T08:00:00Z",
    parts: { DE: { key: `${PARTS_PREFIX}DE.0123456789abcdef.json`, count: 1, collection: H } },
  };
  // the one manifest before the split
  const before = {
    schema: 1,
    version: VERSION,
    builtAt: "2026-09-14T08:00:00Z",
    features: { "ed-r1": H, "lf-r3": H },
    countries: { DE: { sha256: H, ids: ["ed-r1"] } },
  };
  const read = async (doc: unknown) => {
    const store = new MemoryStore();
    await store.put(SHADOW_MANIFEST_KEY, Buffer.from(JSON.stringify(doc)));
    return readShadowManifest(store);
  };

  it("reads a head as the schema does, and a manifest before the split as one part", async () => {
    expect(await read(head)).toEqual({ head: ShadowManifest.parse(head), inline: new Map() });
    expect(await read(before)).toEqual({
      head: { schema: 1, version: VERSION, builtAt: "2026-09-14T08:00:00Z", parts: {} },
      inline: new Map([[LEGACY_PART, before.features]]),
    });
  });

  it.each([
    ["a hash that is not a SHA-256", { ...before, features: { "ed-r1": "abc" } }, /features\.ed-r1/],
    ["features not an object", { ...before, features: [] }, /features: not an object/],
    ["no builtAt", { ...before, builtAt: undefined }, /builtAt/],
    ["a part outside the parts' folder", { ...head, parts: { DE: { key: "elsewhere.json", count: 1 } } }, /key/],
    [
      "a collection that is not a SHA-256",
      { ...head, parts: { DE: { ...head.parts.DE, collection: "x" } } },
      /collection/,
    ],
    ["an unknown field", { ...head, extra: 1 }, /extra/],
  ])("rejects %s", async (_, doc, message) => {
    await expect(read(doc)).rejects.toThrow(message);
  });

  it("says which part is missing or damaged", async () => {
    const store = new MemoryStore();
    const prior = { head: ShadowManifest.parse(head), inline: new Map() };
    await expect(readParts(store, prior)).rejects.toThrow(/DE\.0123456789abcdef\.json: .*does not hold it/);
    await store.put(head.parts.DE.key, Buffer.from(JSON.stringify({ schema: 1, features: { "ed-r1": "abc" } })));
    await expect(readParts(store, prior)).rejects.toThrow(/features\.ed-r1: not a SHA-256/);
    // a part carried unread is not read
    expect(await readParts(store, prior, new Set(["DE"]))).toEqual(new Map());
  });
});

describe("runShadow", () => {
  it("bootstraps on the first run: every feature loaded once, status healthy and short-cached", async () => {
    const store = new FlakyStore();
    const r = await run(store, FEATURES, T0);
    expect(r.enqueued).toBe(3);
    expect(r.written).toBe(3);
    const { doc } = await storedStatus(store);
    expect(doc).toEqual(r.status);
    expect(doc.bootstrap).toEqual({ state: "complete", loaded: 3, total: 3 });
    expect(doc.parity).toEqual({ state: "ok", checked: 3, mismatched: 0 });
    expect(doc).toMatchObject({ status: "healthy", reasons: [], shadowManifestVersion: VERSION });
    // three features in three buckets (their ids' hashes differ), each readable by id
    expect(await store.list(MASTER_PREFIX)).toHaveLength(3);
    for (const f of FEATURES) expect((await readMaster(store, f.properties._id))?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.list(JOURNAL_PREFIX)).toEqual([]);
    expect(store.puts.find((p) => p.key === STATUS_KEY)?.options?.cacheControl).toBe("public, max-age=15");
    expect(Object.keys(await held(store))).toEqual(["ed-r1", "ed-r2", "lf-r3"]);
    // one part per country
    expect((await readShadowManifest(store))?.head.parts).toMatchObject({ DE: { count: 2 }, FR: { count: 1 } });
  });

  it("enqueues exactly one message when one feature's dynamic part changed, none when nothing did", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    store.puts.length = 0;
    const r = await run(store, [FEATURES[0]!, changed(FEATURES[1]!), FEATURES[2]!], T0 + 5 * MIN);
    expect(r.enqueued).toBe(1);
    const journalKeys = new Set(store.puts.filter((p) => p.key.startsWith(JOURNAL_PREFIX)).map((p) => p.key));
    expect(journalKeys.size).toBe(1);
    expect(store.puts.filter((p) => p.key.startsWith(MASTER_PREFIX)).map((p) => p.key)).toEqual([masterKey("ed-r2")]);
    expect(r.status.status).toBe("healthy");
    const again = await run(store, [FEATURES[0]!, changed(FEATURES[1]!), FEATURES[2]!], T0 + 10 * MIN);
    expect(again.enqueued).toBe(0);
  });

  it("keeps the parts the head names when writing the head fails; the next run goes on from them", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    const before = await held(store);
    const next = [FEATURES[0]!, changed(FEATURES[1]!), FEATURES[2]!];
    store.failing.add(SHADOW_MANIFEST_KEY);
    await expect(run(store, next, T0 + MIN)).rejects.toThrow(ERROR_TEXT);
    // the head before still names parts the store holds (the new DE part waits beside them, unnamed)
    expect(await held(store)).toEqual(before);
    store.failing.clear();
    const r = await run(store, next, T0 + 2 * MIN);
    expect(r.status).toMatchObject({ status: "healthy", parity: { checked: 3, mismatched: 0 } });
    const fresh = new FlakyStore();
    await run(fresh, next, T0);
    expect(await held(store)).toEqual(await held(fresh));
    expect(await store.list(PARTS_PREFIX)).toHaveLength(2);
  });

  it("moves a feature whose country changed into that country's part, its hash kept", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    const moved = structuredClone(FEATURES[2]!);
    moved.properties.country = "DE";
    const r = await run(store, [FEATURES[0]!, FEATURES[1]!, moved], T0 + MIN);
    // the dynamic part is the same: nothing to write, the hash moves between parts
    expect(r.enqueued).toBe(0);
    expect(Object.keys((await part(store, "DE"))!)).toEqual(["ed-r1", "ed-r2", "lf-r3"]);
    expect(await part(store, "FR")).toBeUndefined();
    expect(Object.keys((await readShadowManifest(store))!.head.parts)).toEqual(["DE"]);
  });

  it("removes a feature that is no longer published", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    const r = await run(store, FEATURES.slice(0, 2), T0 + MIN);
    expect(r.enqueued).toBe(1);
    expect(await readMaster(store, "lf-r3")).toBeUndefined();
    expect(await readMaster(store, "ed-r1")).toBeDefined();
    expect(r.status).toMatchObject({ status: "healthy", parity: { checked: 2, mismatched: 0 } });
  });

  it("retries a failing write with backoff, dead-letters it, and is healthy again once it succeeds", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    store.failing.add(masterKey("ed-r2"));
    const waits: number[] = [];
    const next = [FEATURES[0]!, changed(FEATURES[1]!), FEATURES[2]!];
    const sleep = async (ms: number) => void waits.push(ms);
    const r = await run(store, next, T0 + MIN, { maxAttempts: 3, sleep });
    expect(waits).toEqual([100, 200]);
    expect(r.deadLettered).toBe(1);
    expect(r.status.queue).toMatchObject({ deadLetters: 1, backlog: 0 });
    expect(r.status.queue.unresolvedFailures).toBeGreaterThanOrEqual(1);
    expect(r.status.status).toBe("degraded");
    expect(r.status.reasons).toContain("unresolvedFailures");
    expect(r.status.bootstrap.state).toBe("complete");
    const dead = await new Journal(store).dead();
    expect(dead.map((m) => [m.featureId, m.attempts])).toEqual([["ed-r2", 3]]);

    store.failing.clear();
    const healed = await run(store, next, T0 + 2 * MIN);
    expect(healed.enqueued).toBe(1);
    expect(healed.status).toMatchObject({ status: "healthy", reasons: [] });
    expect(healed.status.queue).toMatchObject({ unresolvedFailures: 0, deadLetters: 1 });
  });

  it("counts a feature no longer published, whose removal failed, as checked and out of step until removed", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    const gone = FEATURES[FEATURES.length - 1]!.properties._id;
    store.failing.add(masterKey(gone));
    const r = await run(store, FEATURES.slice(0, -1), T0 + MIN, { maxAttempts: 2 });
    expect(r).toMatchObject({ enqueued: 1, deadLettered: 1 });
    expect(r.status.parity).toEqual({ state: "degraded", checked: 3, mismatched: 1 });
    expect(r.status.bootstrap).toMatchObject({ loaded: 2, total: 2 });
    store.failing.clear();
    const healed = await run(store, FEATURES.slice(0, -1), T0 + 2 * MIN);
    expect(healed.status.parity).toEqual({ state: "ok", checked: 2, mismatched: 0 });
    expect(await readMaster(store, gone)).toBeUndefined();
  });

  it("a failing bucket fails every change in it, and only those; a later run writes them all", async () => {
    const neighbour = feature("ed-r1575", "DE", 7); // the same bucket as ed-r2 (the first two bytes of its SHA-256)
    expect(masterKey("ed-r1575")).toBe(masterKey("ed-r2"));
    const all = [...FEATURES, neighbour];
    const store = new FlakyStore();
    await run(store, all, T0);
    store.failing.add(masterKey("ed-r2"));
    const next = all.map(changed);
    const r = await run(store, next, T0 + MIN, { maxAttempts: 2 });
    expect(r.deadLettered).toBe(2);
    expect(r.written).toBe(2);
    expect((await new Journal(store).dead()).map((m) => m.featureId).sort()).toEqual(["ed-r1575", "ed-r2"]);
    expect(r.status.parity).toEqual({ state: "degraded", checked: 4, mismatched: 2 });
    store.failing.clear();
    const healed = await run(store, next, T0 + 2 * MIN);
    expect(healed.status.parity).toEqual({ state: "ok", checked: 4, mismatched: 0 });
    for (const f of next)
      expect((await readMaster(store, f.properties._id))?.airspaceActivationTimes).toEqual(
        f.properties.vendor.dynamicAirspaceMapping.airspaceActivationTimes,
      );
  });

  // as runs before left the master features: each feature in its own object, 64 buckets `<bb>.json` or 256 `<bbb>.json`
  const oneEach = (id: string) => `${MASTER_PREFIX}${id}.json`;
  const buckets = (n: number, digits: number) => (id: string) =>
    `${MASTER_PREFIX}${(createHash("sha256").update(id).digest()[0]! % n).toString(16).padStart(digits, "0")}.json`;
  it.each([
    ["one object per feature", oneEach],
    ["64 buckets", buckets(64, 2)],
    ["256 buckets", buckets(256, 3)],
  ])("moves a store written with %s into the buckets, then deletes those objects", async (_, keyOf) => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    // the shadow manifest as it was, the master features in the layout before
    for (const key of await store.list(MASTER_PREFIX)) await store.delete(key);
    const legacy = [...new Set(FEATURES.map((f) => keyOf(f.properties._id)))];
    for (const key of legacy) await store.put(key, Buffer.from("{}"));
    const r = await run(store, FEATURES, T0 + MIN);
    expect(r.enqueued).toBe(3);
    for (const f of FEATURES) expect(await readMaster(store, f.properties._id)).toBeDefined();
    expect((await store.list(MASTER_PREFIX)).filter((k) => legacy.includes(k))).toEqual([]);
    expect(r.status).toMatchObject({ status: "healthy", parity: { checked: 3, mismatched: 0 } });
    expect((await run(store, FEATURES, T0 + 2 * MIN)).enqueued).toBe(0);
  });

  it("reports a first load that dead-letters as a failed bootstrap, complete once it loads", async () => {
    const store = new FlakyStore();
    store.failing.add(masterKey("lf-r3"));
    const r = await run(store, FEATURES, T0, { maxAttempts: 2 });
    expect(r.status.bootstrap).toEqual({ state: "failed", loaded: 2, total: 3 });
    expect(r.status.reasons).toEqual(["bootstrap", "unresolvedFailures", "parity"]);
    store.failing.clear();
    const ok = await run(store, FEATURES, T0 + MIN);
    expect(ok.status.bootstrap).toEqual({ state: "complete", loaded: 3, total: 3 });
    expect(ok.status.status).toBe("healthy");
  });

  it("degrades on publication lag and recovers with a fresh publication", async () => {
    const store = new FlakyStore();
    const stale = await run(store, FEATURES, T0 + 31 * MIN, { publishedAt: T0 });
    expect(stale.status).toMatchObject({ status: "degraded", reasons: ["publishLag"], publishLagSeconds: 31 * 60 });
    const fresh = await run(store, FEATURES, T0 + 32 * MIN, { publishedAt: T0 + 31 * MIN });
    expect(fresh.status.status).toBe("healthy");
  });

  it("a run that stops taking messages leaves them waiting: parity, then queue age, degrade until a run drains them", async () => {
    const store = new FlakyStore();
    expect((await run(store, FEATURES, T0)).status.status).toBe("healthy");
    const next = [FEATURES[0]!, changed(FEATURES[1]!), FEATURES[2]!];
    const stopped = { stopTaking: () => true };
    const young = await run(store, next, T0 + MIN, stopped);
    expect(young.status).toMatchObject({ status: "degraded", reasons: ["parity"] });
    expect(young.status.queue).toMatchObject({ backlog: 1, oldestMessageAgeSeconds: 0 });
    const old = await run(store, next, T0 + 17 * MIN, stopped);
    expect(old.enqueued).toBe(0); // the waiting message is not enqueued twice
    expect(old.status).toMatchObject({ status: "degraded", reasons: ["queueAge", "parity"] });
    expect(old.status.queue.oldestMessageAgeSeconds).toBe(16 * 60);
    const drained = await run(store, next, T0 + 18 * MIN);
    expect(drained.written).toBe(1);
    expect(drained.status).toMatchObject({ status: "healthy", reasons: [], queue: { backlog: 0 } });
  });

  it("a backlog over 100 messages degrades; 100 does not; a full run clears it", async () => {
    const many = Array.from({ length: 101 }, (_, i) => feature(`ed-r${1000 + i}`, "DE", i % 50));
    const store = new FlakyStore();
    expect((await run(store, many, T0)).status.status).toBe("healthy");
    const stopped = { stopTaking: () => true };
    const hundred = await run(store, [...many.slice(0, 100).map(changed), many[100]!], T0 + MIN, stopped);
    expect(hundred.status.queue.backlog).toBe(100);
    expect(hundred.status.reasons).toEqual(["parity"]);
    const over = await run(store, many.map(changed), T0 + 2 * MIN, stopped);
    expect(over.status.queue.backlog).toBe(101);
    expect(over.status.reasons).toEqual(["backlog", "parity"]);
    let taken = 0;
    const some = await run(store, many.map(changed), T0 + 3 * MIN, { stopTaking: () => ++taken > 50 });
    expect(some.written).toBe(50);
    expect(some.status.queue.backlog).toBe(51);
    const all = await run(store, many.map(changed), T0 + 4 * MIN);
    expect(all.status).toMatchObject({ status: "healthy", queue: { backlog: 0 }, parity: { mismatched: 0 } });
  });

  it("never puts a feature id, a key or error text in the public document", async () => {
    const store = new FlakyStore();
    store.failing.add(masterKey("ed-r1"));
    await run(store, FEATURES, T0, { maxAttempts: 2 });
    const { text } = await storedStatus(store);
    const forbidden = [
      ...FEATURES.map((f) => f.properties._id),
      ...(await store.list("")).filter((k) => k !== STATUS_KEY),
      "internal/",
      MASTER_PREFIX,
      DEAD_PREFIX,
      ERROR_TEXT,
      "Error",
    ];
    for (const s of forbidden) expect(text).not.toContain(s);
  });
});

describe("the journal in batches", () => {
  const many = Array.from({ length: 2500 }, (_, i) => feature(`ed-r${10_000 + i}`, "DE", i % 50));

  it("writes a first load of 2 500 features as 3 journal objects and one write per bucket, and leaves no journal", async () => {
    const store = new FlakyStore();
    const r = await run(store, many, T0);
    expect(r).toMatchObject({ enqueued: 2500, written: 2500 });
    const journalPuts = store.puts.filter((p) => p.key.startsWith(JOURNAL_PREFIX)).map((p) => p.key);
    expect(journalPuts).toEqual([1000, 2000, 2500].map((n) => `${JOURNAL_PREFIX}${String(n).padStart(12, "0")}.json`));
    expect(await store.list(JOURNAL_PREFIX)).toEqual([]);
    // the master features: one object per bucket holding a feature, written once, holding every feature as published
    const buckets = await store.list(MASTER_PREFIX);
    expect(buckets).toEqual([...new Set(many.map((f) => masterKey(f.properties._id)))].sort());
    expect(buckets.length).toBeGreaterThan(BUCKETS * 0.95);
    expect(store.puts.filter((p) => p.key.startsWith(MASTER_PREFIX))).toHaveLength(buckets.length);
    // none is read: the listing showed none there
    expect(store.gets.filter((k) => k.startsWith(MASTER_PREFIX))).toEqual([]);
    let held = 0;
    for (const key of buckets)
      held += Object.keys(JSON.parse((await store.get(key))!.toString("utf8")).features).length;
    expect(held).toBe(2500);
    const one = many[1234]!;
    expect(await readMaster(store, one.properties._id)).toMatchObject({
      id: one.properties._id,
      version: VERSION,
      ...one.properties.vendor.dynamicAirspaceMapping,
    });
  });

  it("a run stopped part-way rewrites its batches with what still waits; the next run drains exactly that", async () => {
    const store = new FlakyStore();
    let taken = 0;
    const part = await run(store, many, T0, { stopTaking: () => ++taken > 1500, concurrency: 1 });
    expect(part.written).toBe(1500);
    expect(part.status.queue.backlog).toBe(1000);
    // the first batch went whole; the second holds its last 500, the third is untouched
    const left = await store.list(JOURNAL_PREFIX);
    expect(left).toHaveLength(2);
    const second = JSON.parse((await store.get(left[0]!))!.toString("utf8"));
    expect(second.messages).toHaveLength(500);
    store.puts.length = 0;
    const rest = await run(store, many, T0 + MIN);
    expect(rest).toMatchObject({ enqueued: 0, written: 1000 });
    expect(store.puts.filter((p) => p.key.startsWith(MASTER_PREFIX)).length).toBeLessThanOrEqual(BUCKETS);
    for (const f of many) expect(await readMaster(store, f.properties._id)).toBeDefined();
    expect(rest.status).toMatchObject({ status: "healthy", bootstrap: { state: "complete", loaded: 2500 } });
  });

  it("drains a message a run before batches left as its own object", async () => {
    const store = new FlakyStore();
    await run(store, FEATURES, T0);
    const next = changed(FEATURES[1]!);
    const message = {
      schema: 1,
      seq: 7,
      enqueuedAt: "2026-09-14T08:00:00Z",
      featureId: "ed-r2",
      hash: "0".repeat(64),
      attempts: 0,
    };
    await store.put(`${JOURNAL_PREFIX}000000000007.json`, Buffer.from(JSON.stringify(message)));
    const r = await run(store, [FEATURES[0]!, next, FEATURES[2]!], T0 + MIN);
    expect(r.written).toBe(1); // the old message and this run's change of ed-r2: one write
    expect(await store.list(JOURNAL_PREFIX)).toEqual([]);
    expect((await readMaster(store, "ed-r2"))?.airspaceActivationTimes).toEqual(
      next.properties.vendor.dynamicAirspaceMapping.airspaceActivationTimes,
    );
  });
});

describe("statusOf (docs/contract.md §3)", () => {
  const healthy: StatusInputs = {
    shadowManifestVersion: VERSION,
    publishedAt: T0,
    queue: { oldestEnqueuedAt: T0, backlog: 0, unresolvedFailures: 0, deadLetters: 0 },
    bootstrap: { state: "complete", loaded: 3, total: 3 },
    parity: { checked: 3, mismatched: 0 },
  };
  const now = T0 + 10 * MIN;
  const cases: [string, (i: StatusInputs) => StatusInputs, number][] = [
    ["publishLag", (i) => ({ ...i, publishedAt: now - 30 * MIN - 1000 }), 0],
    ["queueAge", (i) => ({ ...i, queue: { ...i.queue, oldestEnqueuedAt: now - 15 * MIN - 1000 } }), 0],
    ["backlog", (i) => ({ ...i, queue: { ...i.queue, backlog: 101 } }), 0],
    ["bootstrap", (i) => ({ ...i, bootstrap: { state: "incomplete", loaded: 2, total: 3 } }), 0],
    ["bootstrap", (i) => ({ ...i, bootstrap: { state: "failed", loaded: 2, total: 3 } }), 1],
    ["unresolvedFailures", (i) => ({ ...i, queue: { ...i.queue, unresolvedFailures: 1, deadLetters: 1 } }), 0],
    ["parity", (i) => ({ ...i, parity: { checked: 3, mismatched: 1 } }), 0],
  ];

  it.each(cases)("%s: healthy → degraded → healthy (case %#)", (reason, degrade) => {
    expect(statusOf(healthy, now)).toMatchObject({ status: "healthy", reasons: [] });
    const degraded = statusOf(degrade(healthy), now);
    expect(degraded).toMatchObject({ status: "degraded", reasons: [reason] });
    expect(StatusDocument.parse(degraded)).toEqual(degraded);
    expect(statusOf(healthy, now)).toMatchObject({ status: "healthy", reasons: [] });
  });

  it("stays healthy exactly at the thresholds", () => {
    const edge: StatusInputs = {
      ...healthy,
      publishedAt: now - 30 * MIN,
      queue: { ...healthy.queue, oldestEnqueuedAt: now - 15 * MIN, backlog: 100 },
    };
    expect(statusOf(edge, now)).toMatchObject({ status: "healthy", publishLagSeconds: 1800 });
  });

  it("reports an empty queue as age 0", () => {
    const { oldestEnqueuedAt: _, ...queue } = healthy.queue;
    expect(statusOf({ ...healthy, queue }, now).queue.oldestMessageAgeSeconds).toBe(0);
  });
});

describe("Journal", () => {
  it("counts failures, dead-letters at maxAttempts and keeps sequence numbers rising", async () => {
    const store = new MemoryStore();
    const j = new Journal(store, { maxAttempts: 2 });
    const [m] = await j.enqueue([{ featureId: "x", hash: null }], T0);
    const once = await j.fail(m!);
    expect(once).toMatchObject({ dead: false, message: { attempts: 1 } });
    expect(await j.fail(once.message)).toMatchObject({ dead: true });
    expect(await j.pending()).toEqual([]);
    const [n] = await j.enqueue([{ featureId: "y", hash: null }], T0);
    expect(n!.seq).toBe(2);
    await j.ack(n!);
    expect(await j.pending()).toEqual([]);
    expect((await j.dead()).map((d) => d.seq)).toEqual([1]);
    expect(() => new Journal(store, { maxAttempts: 0 })).toThrow(/maxAttempts/);
  });
});
