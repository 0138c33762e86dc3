// S3Store's retries, timeouts and conditional writes, against a real s3rver on loopback through a real HTTP proxy
// that injects faults or honours the conditional headers (s3-harness.ts). What every server must do: s3-compat.test.ts.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CREDENTIALS, FaultProxy, REGION, startS3rver } from "../../bench/s3-harness.js";
import { LocalStore } from "../../src/store/local-store.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { S3Store, type S3StoreOptions } from "../../src/store/s3-store.js";
import type { ObjectStore } from "../../src/store/store.js";
import { tempDir } from "../helpers.js";

const BUCKET = "artifacts";
let s3: Awaited<ReturnType<typeof startS3rver>>;
let proxy: FaultProxy;
let prefix = "";
let n = 0;

beforeAll(async () => {
  s3 = await startS3rver(BUCKET);
  proxy = await new FaultProxy(s3.endpoint).start();
});
afterAll(async () => {
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

describe("S3Store on s3rver", () => {
  it("stores the body itself, not aws-chunked framing around it", async () => {
    const body = randomBytes(256 * 1024);
    await direct().put("v1/objects/x.deflate", body);
    const disk = path.join(s3.dir, BUCKET, prefix, "v1/objects/x.deflate._S3rver_object");
    expect(readFileSync(disk).equals(body)).toBe(true);
  });

  it("refuses a URL that is not s3://bucket", () => {
    expect(() => new S3Store("https://bucket/x")).toThrow(/expected s3:\/\/bucket\[\/prefix\], received "https/);
    expect(new S3Store(`s3://${BUCKET}//a/deep//`).url).toBe(`s3://${BUCKET}/a/deep`);
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
    // timeouts long enough that each try reaches the proxy on a busy two-core machine (it shares this event loop):
    // with 100 ms a try could be aborted before the proxy saw it (issue 59)
    proxy.faults.push({ kind: "delay", ms: 2400 }, { kind: "stall-body", ms: 2400 });
    const got = await viaProxy({ timeoutMs: 800 }).get("k");
    expect(got?.equals(want!)).toBe(true);
    expect(requests("GET").map((r) => r.fault)).toEqual(["delay", "stall-body", undefined]);
  });

  it("ends in a StoreError caused by a TimeoutError when every try is too slow", async () => {
    proxy.faults.push({ kind: "delay", ms: 2400 }, { kind: "delay", ms: 2400 });
    const err = await viaProxy({ timeoutMs: 800, maxAttempts: 2 })
      .get("k")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "StoreError", cause: { name: "TimeoutError", cause: { name: "AbortError" } } });
    expect(requests("GET")).toHaveLength(2);
  });
});

describe("conditional writes (the pointer's compare-and-swap)", () => {
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
