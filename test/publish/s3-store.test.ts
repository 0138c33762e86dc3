// S3Store against a real s3rver on loopback; faults come from a real HTTP proxy in front of it (s3-harness.ts).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import PQueue from "p-queue";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LocalStore } from "../../src/publish/local-store.js";
import { MemoryStore } from "../../src/publish/memory-store.js";
import { publishVersion } from "../../src/publish/publish.js";
import { currentManifest } from "../../src/publish/read-back.js";
import { S3Store, type S3StoreOptions } from "../../src/publish/s3-store.js";
import type { ObjectStore } from "../../src/publish/store.js";
import { tempDir } from "../helpers.js";
import { byCountry, DAY, feature } from "./fixtures.js";
import { CREDENTIALS, FaultProxy, REGION, rawClient, sha256, startS3rver } from "./s3-harness.js";

const BUCKET = "artifacts";
let s3: Awaited<ReturnType<typeof startS3rver>>;
let proxy: FaultProxy;
let raw: S3Client;
let prefix = "";
let n = 0;

beforeAll(async () => {
  s3 = await startS3rver(BUCKET);
  proxy = await new FaultProxy(s3.endpoint).start();
  raw = rawClient(s3.endpoint);
});
afterAll(async () => {
  raw?.destroy();
  await proxy?.close();
  await s3?.close();
});
beforeEach(() => {
  proxy.reset();
  prefix = `t${++n}`; // each test writes under its own prefix
});

const base = { region: REGION, credentials: CREDENTIALS };
const direct = (o: S3StoreOptions = {}) =>
  new S3Store(`s3://${BUCKET}/${prefix}`, { ...base, endpoint: s3.endpoint, ...o });
const sleeps: number[] = [];
const viaProxy = (o: S3StoreOptions = {}) =>
  new S3Store(`s3://${BUCKET}/${prefix}/`, {
    ...base,
    endpoint: proxy.endpoint,
    backoff: { baseMs: 100, maxMs: 1000, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    ...o,
  });
const requests = (method: string, key = "") => proxy.seen.filter((r) => r.method === method && r.url.includes(key));
const rawHead = (key: string) => raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${key}` }));

describe("S3Store against s3rver", () => {
  it("round-trips binary, empty, 3 MB random and gzip bodies byte for byte, on the wire and on s3rver's disk", async () => {
    const store = direct();
    const bodies: Record<string, Buffer> = {
      "bin/all-bytes": Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)),
      "bin/empty": Buffer.alloc(0),
      "bin/random-3mb": randomBytes(3 * 1024 * 1024),
      "v1/objects/x.geojson.gz": gzipSync(JSON.stringify({ type: "FeatureCollection", features: [] })),
    };
    for (const [key, body] of Object.entries(bodies)) await store.put(key, body);
    for (const [key, body] of Object.entries(bodies)) {
      const got = await store.get(key);
      expect(got && sha256(got)).toBe(sha256(body));
      expect(got?.equals(body)).toBe(true);
      expect(await store.head(key)).toMatchObject({ size: body.length, etag: expect.stringMatching(/^".+"$/) });
      // What s3rver stored is the body itself, not aws-chunked framing around it.
      const disk = path.join(s3.dir, BUCKET, prefix, `${key}._S3rver_object`);
      expect(readFileSync(disk).equals(body)).toBe(true);
    }
    expect(await store.list("")).toEqual(Object.keys(bodies).sort());
    expect(await store.list("bin/")).toEqual(["bin/all-bytes", "bin/empty", "bin/random-3mb"]);
    await store.delete("bin/empty");
    await store.delete("bin/never-was");
    expect(await store.get("bin/empty")).toBeUndefined();
    expect(await store.list("bin/")).toEqual(["bin/all-bytes", "bin/random-3mb"]);
  });

  it("sets Content-Type, Content-Encoding and Cache-Control as object metadata", async () => {
    const opts = { contentType: "application/geo+json", contentEncoding: "gzip", cacheControl: "public, max-age=30" };
    await direct().put("v1/a.gz", gzipSync("{}"), opts);
    const h = await rawHead("v1/a.gz");
    expect({ contentType: h.ContentType, contentEncoding: h.ContentEncoding, cacheControl: h.CacheControl }).toEqual(
      opts,
    );
  });

  it("answers undefined for a missing object, but fails for a missing bucket", async () => {
    const store = direct();
    expect(await store.get("nope")).toBeUndefined();
    expect(await store.head("nope")).toBeUndefined();
    expect(await store.list("nope/")).toEqual([]);
    const lost = new S3Store("s3://no-such-bucket/p", { ...base, endpoint: s3.endpoint });
    await expect(lost.get("k")).rejects.toMatchObject({ name: "StoreError", operation: "get", key: "k" });
  });

  it("keeps keys relative to the prefix and refuses a URL that is not s3://bucket", async () => {
    const store = new S3Store(`s3://${BUCKET}//${prefix}/deep//`, { ...base, endpoint: s3.endpoint });
    expect(store.url).toBe(`s3://${BUCKET}/${prefix}/deep`);
    await store.put("k", Buffer.from("v"));
    const page = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${prefix}/` }));
    expect(page.Contents?.map((o) => o.Key)).toEqual([`${prefix}/deep/k`]);
    expect(await store.list("")).toEqual(["k"]);
    expect(() => new S3Store("https://bucket/x")).toThrow(/expected s3:\/\/bucket\[\/prefix\], received "https/);
  });

  it("lists more than one page (s3rver pages at 1000 keys like S3)", async () => {
    const store = direct();
    const keys = Array.from({ length: 1100 }, (_, i) => `many/${String(i).padStart(4, "0")}`);
    const queue = new PQueue({ concurrency: 16 });
    await queue.addAll(keys.map((k) => () => store.put(k, Buffer.from(k))));
    const listed = await viaProxy().list("many/");
    expect(listed).toEqual(keys);
    expect(requests("GET", "list-type=2")).toHaveLength(2);
  });
});

describe("S3Store retries", () => {
  beforeEach(() => {
    sleeps.length = 0;
  });

  it("retries 503 twice with full-jitter backoff, then writes", async () => {
    proxy.faults.push({ kind: "status", status: 503, code: "ServiceUnavailable" });
    proxy.faults.push({ kind: "status", status: 503, code: "SlowDown" });
    const store = viaProxy();
    await store.put("k", Buffer.from("body"));
    expect(requests("PUT").map((r) => r.fault)).toEqual(["status", "status", undefined]);
    expect(sleeps).toEqual([50, 100]); // random 0.5 × min(1000, 100·2ⁿ)
    expect((await store.get("k"))?.toString()).toBe("body");
  });

  it("retries 429, 500 and a dropped connection on a read", async () => {
    await direct().put("k", Buffer.from("payload"));
    proxy.faults.push({ kind: "status", status: 429, code: "SlowDown" }, { kind: "status", status: 500, code: "X" });
    proxy.faults.push({ kind: "drop" });
    expect((await viaProxy().get("k"))?.toString()).toBe("payload");
    expect(requests("GET").map((r) => r.fault)).toEqual(["status", "status", "drop", undefined]);
  });

  it("gives up after maxAttempts with a StoreError whose cause is the last failure", async () => {
    proxy.faults.push(...Array.from({ length: 9 }, () => ({ kind: "status", status: 503, code: "SlowDown" }) as const));
    const err = await viaProxy({ maxAttempts: 3 })
      .head("k")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "StoreError", operation: "head", cause: { $metadata: { httpStatusCode: 503 } } });
    expect(requests("HEAD")).toHaveLength(3);
  });

  it("does not retry a refusal (403)", async () => {
    proxy.faults.push({ kind: "status", status: 403, code: "AccessDenied" });
    await expect(viaProxy().put("k", Buffer.from("x"))).rejects.toMatchObject({ cause: { name: "AccessDenied" } });
    expect(requests("PUT")).toHaveLength(1);
  });

  it("times out a slow try and retries it; the timeout covers a body that stalls", async () => {
    await direct().put("k", randomBytes(64 * 1024));
    const want = await direct().get("k");
    proxy.faults.push({ kind: "delay", ms: 600 }, { kind: "stall-body", ms: 600 });
    const got = await viaProxy({ timeoutMs: 200 }).get("k");
    expect(got?.equals(want!)).toBe(true);
    expect(requests("GET").map((r) => r.fault)).toEqual(["delay", "stall-body", undefined]);
  });

  it("ends in a StoreError caused by a TimeoutError when every try is too slow", async () => {
    proxy.faults.push({ kind: "delay", ms: 500 }, { kind: "delay", ms: 500 });
    const err = await viaProxy({ timeoutMs: 100, maxAttempts: 2 })
      .get("k")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "StoreError", cause: { name: "TimeoutError", cause: { name: "AbortError" } } });
    expect(requests("GET")).toHaveLength(2);
  });
});

describe("conditional writes (the pointer's compare-and-swap)", () => {
  it("s3rver ignores If-None-Match: the probe finds out once, and nothing is written", async () => {
    const store = viaProxy();
    const r = await store.putIfMatch("v1/current.json", Buffer.from("{}"), {}, { absent: true });
    expect(r).toBe("unsupported");
    expect(requests("PUT").map((p) => p.headers["if-none-match"])).toEqual(["*", "*"]);
    expect(await store.putIfMatch("v1/current.json", Buffer.from("{}"), {}, { etag: '"x"' })).toBe("unsupported");
    expect(requests("PUT")).toHaveLength(2); // probed once per store
    expect(await store.list("")).toEqual([]); // neither the pointer nor the probe object is left
  });

  it("where the server honours the headers: written, then conflict on a stale expectation", async () => {
    proxy.honourConditions = true;
    const store = viaProxy();
    const key = "v1/current.json";
    expect(await store.putIfMatch(key, Buffer.from("one"), {}, { absent: true })).toBe("written");
    expect(await store.putIfMatch(key, Buffer.from("two"), {}, { absent: true })).toBe("conflict");
    const { etag } = (await store.head(key))!;
    expect(await store.putIfMatch(key, Buffer.from("two"), {}, { etag: etag! })).toBe("written");
    expect(await store.putIfMatch(key, Buffer.from("three"), {}, { etag: etag! })).toBe("conflict");
    expect((await store.get(key))?.toString()).toBe("two");
    const sent = requests("PUT", "current.json").map((p) => p.headers["if-match"] ?? p.headers["if-none-match"]);
    expect(sent).toEqual(["*", "*", etag, etag]);
  });

  for (const [name, make] of [
    ["LocalStore", () => new LocalStore(tempDir())],
    ["MemoryStore", () => new MemoryStore()],
  ] as const) {
    it(`${name}: compares content-hash ETags; of 20 racing writers exactly one wins`, async () => {
      const store: ObjectStore = make();
      const put = store.putIfMatch!.bind(store);
      expect(await put("p", Buffer.from("one"), {}, { absent: true })).toBe("written");
      expect(await put("p", Buffer.from("two"), {}, { absent: true })).toBe("conflict");
      const { etag } = (await store.head("p"))!;
      const race = await Promise.all(
        Array.from({ length: 20 }, (_, i) => put("p", Buffer.from(`w${i}`), {}, { etag: etag! })),
      );
      expect(race.filter((r) => r === "written")).toHaveLength(1);
      expect(await put("p", Buffer.from("late"), {}, { etag: etag! })).toBe("conflict");
      await expect(put("p", Buffer.from("x"), {}, {})).rejects.toThrow(/exactly one of `etag` or `absent: true`/);
    });
  }
});

describe("publishVersion into S3Store", () => {
  it("publishes what the local store gets, byte for byte, and reads back", async () => {
    const input = {
      byCountry: byCountry([feature("a1", "DE", 8), feature("b1", "FR", 2), feature("c1", "DE", 9)]),
      date: DAY.date,
      publishedAt: Date.parse("2026-09-14T06:20:00Z"),
      sources: {},
      tier: "dynamic" as const,
    };
    const store = direct();
    const local = new LocalStore(tempDir());
    const published = await publishVersion(store, input);
    await publishVersion(local, input);
    const keys = await local.list("");
    expect(await store.list("")).toEqual(keys);
    for (const key of keys) expect((await store.get(key))?.equals((await local.get(key))!), key).toBe(true);
    const manifest = await currentManifest(store);
    expect(manifest).toEqual(published.manifest);
    for (const e of Object.values(manifest!.countries)) {
      expect(sha256((await store.get(e.key))!)).toBe(e.sha256);
      const res = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${e.key}` }));
      expect([res.ContentEncoding, res.ContentType]).toEqual(["gzip", "application/geo+json"]);
      expect(Buffer.from(await res.Body!.transformToByteArray()).equals((await local.get(e.key))!)).toBe(true);
    }
  });
});
