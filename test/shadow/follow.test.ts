// followPublished: a country whose collection the shadow state followed already is neither read nor hashed, and the
// outcome (master features, manifest, status) is the one a full run over every feature gives.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { MASTER_PREFIX, readMaster } from "../../src/shadow/buckets.js";
import { followPublished } from "../../src/shadow/follow.js";
import { PARTS_PREFIX, readShadowManifest, SHADOW_MANIFEST_KEY } from "../../src/shadow/manifest.js";
import { runShadow } from "../../src/shadow/shadow.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import type { PutOptions } from "../../src/store/store.js";
import { feature } from "../publish/fixtures.js";
import { held, part } from "./held.js";

const T0 = Date.UTC(2026, 8, 14, 8, 0, 0);
const MIN = 60_000;

class RecordingStore extends MemoryStore {
  readonly puts: string[] = [];
  readonly gets: string[] = [];
  override async get(key: string): Promise<Buffer | undefined> {
    this.gets.push(key);
    return super.get(key);
  }
  override async put(key: string, body: Buffer, _options?: PutOptions): Promise<void> {
    this.puts.push(key);
    return super.put(key, body);
  }
}

const DE = [feature("ed-r1", "DE", 8), feature("ed-r2", "DE", 9)];
const FR = [feature("lf-r3", "FR", 2)];

function changed(f: Feature): Feature {
  const c = structuredClone(f);
  c.properties.vendor.dynamicAirspaceMapping.airspaceActivationTimes = [
    { start: "2026-09-14T10:00:00Z", end: "2026-09-14T12:00:00Z" },
  ];
  return c;
}

/** A published version: each country's features under a stand-in SHA-256 (its content's name), reads counted. */
function published(countries: Record<string, { sha: string; features: Feature[] }>) {
  const reads: string[] = [];
  return {
    reads,
    sha256: new Map(Object.entries(countries).map(([cc, c]) => [cc, c.sha.repeat(64).slice(0, 64)])),
    read: async (cc: string) => {
      reads.push(cc);
      return countries[cc]!.features;
    },
  };
}

const options = (now: number, version: string) => ({ now, publishedAt: now, version, sleep: async () => {} });

describe("followPublished", () => {
  it("reads only the countries whose collection changed, with the outcome of a full run", async () => {
    const store = new RecordingStore();
    const first = published({ DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } });
    const r1 = await followPublished(store, first, options(T0, "v1"));
    expect(first.reads).toEqual(["DE", "FR"]);
    expect(r1).toMatchObject({ read: 2, enqueued: 3 });

    // nothing changed: no country read, no master feature written, parity still over all three
    const same = published({ DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } });
    store.puts.length = 0;
    store.gets.length = 0;
    const r2 = await followPublished(store, same, options(T0 + 15 * MIN, "v2"));
    expect(same.reads).toEqual([]);
    expect(r2).toMatchObject({ read: 0, enqueued: 0, written: 0 });
    expect(r2.status).toMatchObject({ status: "healthy", parity: { checked: 3, mismatched: 0 } });
    expect(store.puts.filter((k) => k.startsWith(MASTER_PREFIX))).toEqual([]);
    // the shadow manifest's head alone is read and written: the countries' parts are carried as they are
    expect([...store.gets, ...store.puts].filter((k) => k.startsWith(PARTS_PREFIX))).toEqual([]);
    expect(store.puts).toContain(SHADOW_MANIFEST_KEY);

    // DE changed: only DE read, its changed feature written; the same as a full run over both countries
    const de = [DE[0]!, changed(DE[1]!)];
    const next = published({ DE: { sha: "c", features: de }, FR: { sha: "b", features: FR } });
    const r3 = await followPublished(store, next, options(T0 + 30 * MIN, "v3"));
    expect(next.reads).toEqual(["DE"]);
    expect(r3).toMatchObject({ read: 1, enqueued: 1, written: 1 });
    const full = new MemoryStore();
    await runShadow(full, [...DE, ...FR], options(T0, "v1"));
    const fullRun = await runShadow(full, [...de, ...FR], options(T0 + 30 * MIN, "v3"));
    expect(r3.status).toEqual(fullRun.status);
    for (const id of ["ed-r1", "ed-r2", "lf-r3"])
      expect(await readMaster(store, id)).toEqual(await readMaster(full, id));
    expect(await held(store)).toEqual(await held(full));

    // FR no longer published: its feature removed without reading anything
    const gone = published({ DE: { sha: "c", features: de } });
    const r4 = await followPublished(store, gone, options(T0 + 45 * MIN, "v4"));
    expect(gone.reads).toEqual([]);
    expect(r4).toMatchObject({ read: 0, enqueued: 1 });
    expect(await readMaster(store, "lf-r3")).toBeUndefined();
    expect(r4.status.parity).toEqual({ state: "ok", checked: 2, mismatched: 0 });
  });

  it("carries nothing into master features of an earlier layout: every feature is loaded into the buckets", async () => {
    const store = new RecordingStore();
    const countries = { DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } };
    await followPublished(store, published(countries), options(T0, "v1"));
    // the manifest records the countries, but the master features are in 64 buckets as a run before left them
    const bucket64 = (id: string) =>
      `${MASTER_PREFIX}${(createHash("sha256").update(id).digest()[0]! % 64).toString(16).padStart(2, "0")}.json`;
    for (const key of await store.list(MASTER_PREFIX)) await store.delete(key);
    const legacy = [...new Set([...DE, ...FR].map((f) => bucket64(f.properties._id)))];
    for (const key of legacy) await store.put(key, Buffer.from("{}"));
    const again = published(countries);
    const r = await followPublished(store, again, options(T0 + 15 * MIN, "v2"));
    expect(again.reads).toEqual(["DE", "FR"]);
    expect(r).toMatchObject({ read: 2, enqueued: 3, written: 3 });
    for (const f of [...DE, ...FR]) expect(await readMaster(store, f.properties._id)).toBeDefined();
    expect((await store.list(MASTER_PREFIX)).filter((k) => legacy.includes(k))).toEqual([]);
    expect(r.status.parity).toEqual({ state: "ok", checked: 3, mismatched: 0 });
  });

  it("takes a changed country from its change set when it starts from the version followed", async () => {
    const store = new RecordingStore();
    await followPublished(
      store,
      published({ DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } }),
      options(T0, "v1"),
    );
    const added = feature("ed-r4", "DE", 11);
    const de = [changed(DE[0]!), DE[1]!, added];
    const withChange = (from: string) => ({
      ...published({ DE: { sha: "c", features: de }, FR: { sha: "b", features: FR } }),
      change: async (cc: string) =>
        cc === "DE" ? { from, added: [added], changed: [de[0]!], removed: [] } : undefined,
    });
    // a change set from another version than the one followed is not taken: DE is read
    const other = withChange("v0");
    const elsewhere = new RecordingStore();
    await followPublished(
      elsewhere,
      published({ DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } }),
      options(T0, "v1"),
    );
    expect(await followPublished(elsewhere, other, options(T0 + 15 * MIN, "v2"))).toMatchObject({
      read: 1,
      patched: 0,
    });
    expect(other.reads).toEqual(["DE"]);

    const next = withChange("v1");
    const r = await followPublished(store, next, options(T0 + 15 * MIN, "v2"));
    expect(next.reads).toEqual([]);
    expect(r).toMatchObject({ read: 0, patched: 1, enqueued: 2, written: 2 });
    const full = new MemoryStore();
    await runShadow(full, [...DE, ...FR], options(T0, "v1"));
    const fullRun = await runShadow(full, [...de, ...FR], options(T0 + 15 * MIN, "v2"));
    expect(r.status).toEqual(fullRun.status);
    expect(await held(store)).toEqual(await held(full));
    expect(Object.keys((await part(store, "DE"))!)).toEqual(["ed-r1", "ed-r2", "ed-r4"]);
    // and the next run, nothing changed, reads nothing
    const same = published({ DE: { sha: "c", features: de }, FR: { sha: "b", features: FR } });
    expect(await followPublished(store, same, options(T0 + 30 * MIN, "v3"))).toMatchObject({ read: 0, enqueued: 0 });
  });

  it("reads every country again while a message waits in the journal", async () => {
    const store = new RecordingStore();
    await followPublished(
      store,
      published({ DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } }),
      options(T0, "v1"),
    );
    // a run that stopped part-way: DE's change waits, so the manifest records no countries to carry
    const de = [DE[0]!, changed(DE[1]!)];
    const stopped = published({ DE: { sha: "c", features: de }, FR: { sha: "b", features: FR } });
    const r2 = await followPublished(store, stopped, { ...options(T0 + MIN, "v2"), stopTaking: () => true });
    expect(r2.status.queue.backlog).toBe(1);
    const again = published({ DE: { sha: "c", features: de }, FR: { sha: "b", features: FR } });
    const r3 = await followPublished(store, again, options(T0 + 2 * MIN, "v3"));
    expect(again.reads).toEqual(["DE", "FR"]);
    expect(r3).toMatchObject({ read: 2, written: 1 });
    expect(r3.status).toMatchObject({ status: "healthy", queue: { backlog: 0 } });
  });

  it("moves the one shadow manifest of a store before the split into parts, writing no master feature", async () => {
    const store = new RecordingStore();
    const countries = { DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } };
    await followPublished(store, published(countries), options(T0, "v1"));
    const hashes = await held(store);
    // the store as a run before the split left it: one manifest with every hash, no parts
    for (const key of await store.list(PARTS_PREFIX)) await store.delete(key);
    const H = "c".repeat(64);
    const before = { schema: 1, version: "v1", builtAt: "2026-09-14T08:00:00Z", features: hashes, countries: {} };
    await store.put(
      SHADOW_MANIFEST_KEY,
      Buffer.from(JSON.stringify({ ...before, countries: { DE: { sha256: H, ids: ["ed-r1", "ed-r2"] } } })),
    );
    store.puts.length = 0;
    const again = published(countries);
    const r = await followPublished(store, again, options(T0 + 15 * MIN, "v2"));
    // every country read once, its hashes found held: nothing enqueued, no master feature written
    expect(again.reads).toEqual(["DE", "FR"]);
    expect(r).toMatchObject({ read: 2, enqueued: 0, written: 0 });
    expect(store.puts.filter((k) => k.startsWith(MASTER_PREFIX))).toEqual([]);
    expect(await held(store)).toEqual(hashes);
    expect(Object.keys((await readShadowManifest(store))!.head.parts)).toEqual(["DE", "FR"]);
    // and the next run carries both
    const third = published(countries);
    expect(await followPublished(store, third, options(T0 + 30 * MIN, "v3"))).toMatchObject({ read: 0 });
  });

  it("deletes a part that a run failing before its head left, and the parts the head no longer names", async () => {
    const store = new RecordingStore();
    await followPublished(
      store,
      published({ DE: { sha: "a", features: DE }, FR: { sha: "b", features: FR } }),
      options(T0, "v1"),
    );
    const orphan = `${PARTS_PREFIX}DE.00000000deadbeef.json`;
    await store.put(orphan, Buffer.from("{}"));
    const de = [DE[0]!, changed(DE[1]!)];
    await followPublished(
      store,
      published({ DE: { sha: "c", features: de }, FR: { sha: "b", features: FR } }),
      options(T0 + MIN, "v2"),
    );
    const named = Object.values((await readShadowManifest(store))!.head.parts).map((p) => p.key);
    expect((await store.list(PARTS_PREFIX)).sort()).toEqual(named.sort());
    expect(named).toHaveLength(2);
  });

  it("keeps a collection that holds another country's feature in one part, carried unread beside that country's", async () => {
    const store = new RecordingStore();
    const other = feature("lf-r5", "FR", 4);
    // DE's collection holds an FR feature; FR's collection is FR's other feature
    const mixed = (de: Feature[]) =>
      published({ DE: { sha: de === DE ? "a" : "c", features: [...de, ...FR] }, FR: { sha: "b", features: [other] } });
    await followPublished(store, mixed(DE), options(T0, "v1"));
    const same = mixed(DE);
    expect(await followPublished(store, same, options(T0 + MIN, "v2"))).toMatchObject({ read: 0, enqueued: 0 });
    expect(same.reads).toEqual([]);
    // DE changes, FR is carried unread: FR's part keeps its feature, DE's holds the FR feature of its collection
    const de = [DE[0]!, changed(DE[1]!)];
    const next = mixed(de);
    const r = await followPublished(store, next, options(T0 + 2 * MIN, "v3"));
    expect(next.reads).toEqual(["DE"]);
    expect(r).toMatchObject({ read: 1, enqueued: 1 });
    expect(r.status.parity).toEqual({ state: "ok", checked: 4, mismatched: 0 });
    expect(Object.keys((await part(store, "DE"))!)).toEqual(["ed-r1", "ed-r2", "lf-r3"]);
    expect(Object.keys((await part(store, "FR"))!)).toEqual(["lf-r5"]);
    const full = new MemoryStore();
    await runShadow(full, [...de, ...FR, other], options(T0, "v3"));
    expect(await held(store)).toEqual(await held(full));
  });
});
