// The stage cache (issue 24), as the read stage uses it: what was read from an unchanged airspace source is taken from the store, the output is
// byte for byte what a full derivation gives, and code of another version never reads an entry.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { StageCache } from "../../src/publish/stage-cache.js";
import { forgetNormalised } from "../../src/read-stage.js";
import { LocalStore } from "../../src/store/local-store.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { FIXTURES, tempDir } from "../helpers.js";

const NOW = Date.parse("2026-08-22T11:15:00Z");
const INPUTS = ["gb_airspace_2026-06.yaml", "gb_service_2026-06.yaml"].map((name) => ({
  name,
  bytes: readFileSync(path.join(FIXTURES, "uk", name)),
  fetchedAt: NOW,
}));
const publish = (store: LocalStore, codeVersion?: string) =>
  publishDay(
    INPUTS,
    { day: utcDay("2026-08-22")!, now: NOW, sources: { notam: [], aup: [] } },
    { store, log: silentLogger, ...(codeVersion ? { codeVersion } : {}) },
  );

describe("the stage cache, read stage", () => {
  it("serves an unchanged source's reading from the store, the same bytes as reading it, never to other code", async () => {
    const plain = await publish(new LocalStore(tempDir()));
    const dir = tempDir();
    const store = new LocalStore(dir);
    const cold = await publish(store, "code-1");
    const entries = await store.list("internal/cache/airspace-read/");
    expect(entries).toHaveLength(2);
    const warm = await publish(store, "code-1");
    // the same content: the version's hash part is the same as without any cache
    expect(cold.version.slice(-8)).toBe(plain.version.slice(-8));
    expect(warm.version.slice(-8)).toBe(plain.version.slice(-8));

    // served, not derived: an entry changed in the store shows in what is published
    const airspaceEntry = entries.find((k) => {
      const v = JSON.parse(gunzipSync(readFileSync(path.join(dir, k))).toString("utf8"));
      return v.records.length > 100;
    })!;
    const value = JSON.parse(gunzipSync(readFileSync(path.join(dir, airspaceEntry))).toString("utf8"));
    value.records[0].name = "CACHED READING";
    await store.put(airspaceEntry, gzipSync(JSON.stringify(value)));
    // the whole run is reused while its inputs are the same: only without that entry is the reading read; and, as
    // in a new process, without the normalisation this one kept of the same sources
    for (const k of await store.list("internal/cache/day/")) await store.delete(k);
    forgetNormalised();
    await publish(store, "code-1");
    const names = (await readEurope(store, (await currentManifest(store))!)).features.map((f) => f.properties.name);
    expect(names).toContain("CACHED READING");

    // other code (another process) derives again, and keeps one entry per source
    forgetNormalised();
    await publish(store, "code-2");
    const again = (await readEurope(store, (await currentManifest(store))!)).features.map((f) => f.properties.name);
    expect(again).not.toContain("CACHED READING");
    const after = await store.list("internal/cache/airspace-read/");
    expect(after).toHaveLength(2);
    expect(after.filter((k) => entries.includes(k))).toEqual([]);
  }, 120_000);

  it("costs the cache, never the run, when the store refuses the cache's writes", async () => {
    class NoCacheWrites extends LocalStore {
      override async put(key: string, body: Buffer, options?: Parameters<LocalStore["put"]>[2]) {
        if (key.startsWith("internal/cache/")) throw new Error("injected");
        return super.put(key, body, options);
      }
    }
    const store = new NoCacheWrites(tempDir());
    const plain = await publish(new LocalStore(tempDir()));
    const r = await publish(store, "code-1");
    expect(r.version.slice(-8)).toBe(plain.version.slice(-8));
    expect(await store.list("internal/cache/")).toEqual([]);
  }, 120_000);

  it("derives again when an entry is cut", async () => {
    const dir = tempDir();
    const store = new LocalStore(dir);
    const first = await publish(store, "code-1");
    for (const k of await store.list("internal/cache/")) await store.put(k, Buffer.from("cut"));
    const second = await publish(store, "code-1");
    expect(second.version.slice(-8)).toBe(first.version.slice(-8));
  }, 120_000);
});

describe("the stage cache's writes, beside the run", () => {
  it("keeps the last of two entries put in one folder, the value as it was when put", async () => {
    const store = new MemoryStore();
    const cache = new StageCache(store, "code-1");
    const value = { n: 1 };
    cache.put("day/2026-08-22", "k1", value);
    value.n = 2; // a caller changing its value after: the entry holds what was put
    cache.put("day/2026-08-22", "k2", { n: 3 });
    cache.put("day/2026-08-23", "k3", { n: 4 });
    await cache.settled();
    expect(await store.list("internal/cache/day/")).toEqual([
      "internal/cache/day/2026-08-22/k2.json.gz",
      "internal/cache/day/2026-08-23/k3.json.gz",
    ]);
    expect(await cache.get("day/2026-08-22", "k2")).toEqual({ n: 3 });
    const first = new StageCache(new MemoryStore(), "code-1");
    first.put("f", "k1", value);
    value.n = 5;
    await first.settled();
    expect(await first.get("f", "k1")).toEqual({ n: 2 });
    expect(cache.counts.unwritten).toBe(0);
  });

  it("counts a write the store refuses, and settles all the same", async () => {
    class Refusing extends MemoryStore {
      override async put(): Promise<void> {
        throw new Error("injected");
      }
    }
    const cache = new StageCache(new Refusing(), "code-1");
    cache.put("a", "k1", { n: 1 });
    cache.put("a", "k2", { n: 2 });
    cache.put("b", "k3", { n: 3 });
    await cache.settled();
    expect(cache.counts.unwritten).toBe(3);
  });
});
