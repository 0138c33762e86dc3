import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { Pointer, parseVersioned, VersionManifest } from "../../src/model/manifest.js";
import { publishVersion } from "../../src/publish/publish.js";
import { readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import type { ObjectStore } from "../../src/store/store.js";
import { tempDir } from "../helpers.js";
import { byCountry, DAY, feature } from "./fixtures.js";

const input = (features = [feature("a1", "DE", 8), feature("b1", "FR", 2)]) => ({
  byCountry: byCountry(features),
  date: DAY.date,
  publishedAt: Date.parse("2026-09-14T06:20:00Z"),
  sources: {},
  tier: "dynamic" as const,
});

/** A LocalStore that records the order of writes and can fail on a chosen key. */
class RecordingStore extends LocalStore {
  readonly puts: string[] = [];
  constructor(
    root: string,
    private readonly failOn?: RegExp,
  ) {
    super(root);
  }
  override async put(key: string, body: Buffer): Promise<void> {
    if (this.failOn?.test(key)) throw new Error(`injected failure on ${key}`);
    this.puts.push(key);
    await super.put(key, body);
  }
}

describe("publishVersion", () => {
  it("writes objects, then the manifest, then the day's pointer and today's; the manifest's hashes are the objects'", async () => {
    const dir = tempDir();
    const store = new RecordingStore(dir);
    const r = await publishVersion(store, input());
    expect(store.puts.at(-1)).toBe("v1/current.json");
    expect(store.puts.at(-2)).toBe(`v1/days/${DAY.date}/current.json`);
    expect(store.puts.at(-3)).toBe(r.pointer.manifest);
    expect(r.manifest).toMatchObject({ previous: null, first: r.manifest.version });
    expect(r.manifest.pointers).toEqual([`v1/days/${DAY.date}/current.json`, "v1/current.json"]);
    expect(r.manifest.version).toMatch(/^20260914T062000Z-[0-9a-f]{8}$/);
    const pointer = parseVersioned(Pointer, readFileSync(path.join(dir, "v1/current.json"), "utf8"), "pointer");
    const manifest = parseVersioned(
      VersionManifest,
      readFileSync(path.join(dir, pointer.manifest), "utf8"),
      "manifest",
    );
    expect(Object.keys(manifest.countries).sort()).toEqual(["DE", "FR"]);
    expect(manifest.europe).toMatchObject({ parts: ["DE", "FR"], count: { total: 2 } });
    const europe = await readEurope(store, manifest);
    expect(europe.features.map((f) => f.properties._id).sort()).toEqual(["a1", "b1"]);
    for (const e of Object.values(manifest.countries)) {
      const gz = readFileSync(path.join(dir, e.key));
      expect(e.key).toBe(`v1/objects/${e.sha256}.geojson.gz`);
      expect(createHashHex(gz)).toBe(e.sha256);
      expect(createHashHex(readFileSync(path.join(dir, e.fragment)))).toBe(e.fragmentSha256);
      expect(JSON.parse(zlib.gunzipSync(gz).toString()).meta.count).toEqual(e.count);
    }
  });

  it("leaves the previous version live when a run fails before the pointer", async () => {
    const dir = tempDir();
    const first = await publishVersion(new LocalStore(dir), input());
    const failing = new RecordingStore(dir, /^v1\/versions\//);
    await expect(publishVersion(failing, input([feature("a1", "DE", 8)]))).rejects.toThrow(/injected failure/);
    const pointer = JSON.parse(readFileSync(path.join(dir, "v1/current.json"), "utf8"));
    expect(pointer.version).toBe(first.manifest.version);
  });

  it("re-uploads nothing that exists, and a re-run converges to the same version", async () => {
    const dir = tempDir();
    const one = await publishVersion(new LocalStore(dir), input());
    const store = new RecordingStore(dir);
    const two = await publishVersion(store, input());
    expect(two.manifest).toEqual(one.manifest);
    expect(two.reused.length).toBe(one.uploaded.length - 2); // all but the two pointers, the manifest included
    // (the lease probe writes and deletes a throwaway object; the store supports conditional writes)
    expect(store.puts.filter((k) => !k.includes("lease-probe"))).toEqual([
      `v1/days/${DAY.date}/current.json`,
      "v1/current.json",
    ]);
  });

  it("refuses a manifest of an unknown schema", () => {
    expect(() => parseVersioned(Pointer, JSON.stringify({ schema: 2, version: "x" }), "pointer")).toThrow(/schema 2/);
  });

  it("the local store refuses keys that leave its folder", async () => {
    const store: ObjectStore = new LocalStore(tempDir());
    await expect(store.put("../escape", Buffer.from("x"))).rejects.toMatchObject({
      operation: "put",
      cause: { message: 'invalid key "../escape"' },
    });
  });
});

function createHashHex(b: Buffer): string {
  return createHash("sha256").update(b).digest("hex");
}

describe("concurrent publishers", () => {
  it("the day's pointer flip is a compare-and-swap: a run that started before another's flip switches nothing", async () => {
    const dir = tempDir();
    const { PublishConflict } = await import("../../src/publish/publish.js");
    await publishVersion(new LocalStore(dir), input());
    // run B's store lets run A publish completely just before B flips the pointer
    class Interleaving extends LocalStore {
      override async putIfMatch(...args: Parameters<LocalStore["putIfMatch"]>) {
        if (args[0] === `v1/days/${DAY.date}/current.json`) {
          await publishVersion(new LocalStore(dir), { ...input(), publishedAt: Date.parse("2026-09-14T06:30:00Z") });
        }
        return super.putIfMatch(...args);
      }
    }
    const late = { ...input([feature("a9", "DE", 8)]), publishedAt: Date.parse("2026-09-14T06:40:00Z") };
    await expect(publishVersion(new Interleaving(dir), late)).rejects.toBeInstanceOf(PublishConflict);
    const pointer = JSON.parse(readFileSync(path.join(dir, "v1/current.json"), "utf8"));
    expect(pointer.version.startsWith("20260914T063000Z")).toBe(true);
  });

  it("without conditional writes, a run whose publisher lease was taken over switches nothing", async () => {
    const { MemoryStore } = await import("../../src/store/memory-store.js");
    const { PUBLISHER_KEY, PublisherBusy, takePublisherLease } = await import("../../src/store/publisher-lease.js");
    const store = new MemoryStore();
    // a store that ignores conditions, as s3rver does
    const plain = Object.assign(Object.create(Object.getPrototypeOf(store)), store, { putIfMatch: undefined });
    const first = await publishVersion(plain, input());
    const lease = await takePublisherLease(plain, { who: "a", settleMs: 1 });
    // another publisher took the store over (this one stalled past its lease's expiry)
    const other = { owner: "b", who: "publish on host-b, pid 9", expires: Date.now() + 120_000 };
    await plain.put(PUBLISHER_KEY, Buffer.from(JSON.stringify(other)));
    const late = publishVersion(plain, input([feature("a9", "DE", 8)]), undefined, { lease });
    await expect(late).rejects.toBeInstanceOf(PublisherBusy);
    await expect(late).rejects.toThrow(/taken over \(publish on host-b, pid 9\); nothing was switched/);
    const pointer = JSON.parse(String(await plain.get("v1/current.json")));
    expect(pointer.version).toBe(first.manifest.version);
    await lease.release();
    expect(JSON.parse(String(await plain.get(PUBLISHER_KEY))).owner).toBe("b");
  });
});
