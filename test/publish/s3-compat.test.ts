// The S3 store and publishing against two real S3-compatible servers on loopback, started here (docs/design.md §7):
// s3rver (npm; ignores conditional writes) and OpenStack Swift with its S3 API (Debian packages; refuses them
// with 501). Every object is read back and compared byte for byte; request counts come from a real HTTP proxy.
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import PQueue from "p-queue";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FaultProxy, REGION, rawClient, type S3Server, sha256, startS3rver } from "../../bench/s3-harness.js";
import { type PublishInput, publishVersion } from "../../src/publish/publish.js";
import { currentManifest, readCollection } from "../../src/publish/read-back.js";
import { collectGarbage } from "../../src/publish/retention.js";
import { LocalStore } from "../../src/store/local-store.js";
import { PUBLISHER_KEY, PublisherBusy, takePublisherLease } from "../../src/store/publisher-lease.js";
import { S3Store } from "../../src/store/s3-store.js";
import { tempDir } from "../helpers.js";
import { byCountry, DAY, feature } from "./fixtures.js";
import { startSwift } from "./swift-harness.js";

const BUCKET = "artifacts";
const SERVERS = { s3rver: startS3rver, swift: startSwift };

describe.each(Object.keys(SERVERS) as (keyof typeof SERVERS)[])("against %s", (name) => {
  let server: S3Server;
  let proxy: FaultProxy;
  let raw: S3Client;
  let prefix = "";
  let n = 0;

  beforeAll(async () => {
    server = await SERVERS[name](BUCKET);
    proxy = await new FaultProxy(server.endpoint, server.credentials).start();
    raw = rawClient(server.endpoint, server.credentials);
  }, 200_000);
  afterAll(async () => {
    raw?.destroy();
    await proxy?.close();
    await server?.close();
  });
  beforeEach(() => {
    proxy.reset();
    prefix = `t${++n}`; // each test writes under its own prefix
  });

  const store = (endpoint = server.endpoint) =>
    new S3Store(`s3://${BUCKET}/${prefix}`, { region: REGION, credentials: server.credentials, endpoint });
  const rawGet = async (key: string) => {
    const res = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${key}` }));
    return { res, body: Buffer.from(await res.Body!.transformToByteArray()) };
  };
  /** Keys of the PUTs the proxy saw, relative to the prefix. */
  const puts = () =>
    proxy.seen
      .filter((r) => r.method === "PUT")
      .map((r) => decodeURIComponent(new URL(r.url, "http://x").pathname).slice(`/${BUCKET}/${prefix}/`.length));

  it("round-trips binary, empty, 3 MB random and gzip bodies byte for byte, through the store and a plain client", async () => {
    const s = store();
    const bodies: Record<string, Buffer> = {
      "bin/all-bytes": Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)),
      "bin/empty": Buffer.alloc(0),
      "bin/random-3mb": randomBytes(3 * 1024 * 1024),
      "v1/objects/x.geojson.gz": gzipSync(JSON.stringify({ type: "FeatureCollection", features: [] })),
    };
    for (const [key, body] of Object.entries(bodies)) await s.put(key, body);
    for (const [key, body] of Object.entries(bodies)) {
      expect((await s.get(key))?.equals(body), key).toBe(true);
      expect((await rawGet(key)).body.equals(body), key).toBe(true);
      expect(await s.head(key)).toMatchObject({ size: body.length, etag: expect.stringMatching(/^".+"$/) });
    }
    expect(await s.list("")).toEqual(Object.keys(bodies).sort());
    expect(await s.list("bin/")).toEqual(["bin/all-bytes", "bin/empty", "bin/random-3mb"]);
    await s.delete("bin/empty");
    await s.delete("bin/never-was");
    expect(await s.get("bin/empty")).toBeUndefined();
    expect(await s.list("bin/")).toEqual(["bin/all-bytes", "bin/random-3mb"]);
  });

  it("keeps Content-Type, Content-Encoding and Cache-Control as object metadata", async () => {
    const opts = { contentType: "application/geo+json", contentEncoding: "gzip", cacheControl: "public, max-age=30" };
    await store().put("v1/a.gz", gzipSync("{}"), opts);
    const h = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${prefix}/v1/a.gz` }));
    expect({ contentType: h.ContentType, contentEncoding: h.ContentEncoding, cacheControl: h.CacheControl }).toEqual(
      opts,
    );
  });

  it("answers undefined for a missing object, but fails for a missing bucket", async () => {
    const s = store();
    expect(await s.get("nope")).toBeUndefined();
    expect(await s.head("nope")).toBeUndefined();
    expect(await s.list("nope/")).toEqual([]);
    const lost = new S3Store("s3://no-such-bucket/p", {
      region: REGION,
      credentials: server.credentials,
      endpoint: server.endpoint,
    });
    await expect(lost.get("k")).rejects.toMatchObject({ name: "StoreError", operation: "get", key: "k" });
  });

  it("keeps keys relative to the prefix", async () => {
    const s = new S3Store(`s3://${BUCKET}//${prefix}/deep//`, {
      region: REGION,
      credentials: server.credentials,
      endpoint: server.endpoint,
    });
    await s.put("k", Buffer.from("v"));
    const page = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${prefix}/` }));
    expect(page.Contents?.map((o) => o.Key)).toEqual([`${prefix}/deep/k`]);
    expect(await s.list("")).toEqual(["k"]);
  });

  it("lists more than one page of keys, following the continuation token", async () => {
    const s = store();
    const keys = Array.from({ length: 250 }, (_, i) => `many/${String(i).padStart(4, "0")}`);
    const queue = new PQueue({ concurrency: 16 });
    await queue.addAll(keys.map((k) => () => s.put(k, Buffer.from(k))));
    const paged = new S3Store(`s3://${BUCKET}/${prefix}`, {
      region: REGION,
      credentials: server.credentials,
      endpoint: proxy.endpoint,
      listPageSize: 100,
    });
    expect(await paged.list("many/")).toEqual(keys);
    const pages = proxy.seen.filter((r) => r.method === "GET" && r.url.includes("list-type=2"));
    expect(pages.map((r) => new URL(r.url, "http://x").searchParams.get("max-keys"))).toEqual(["100", "100", "100"]);
    // the server's own page (1000 keys) holds them all: one request
    proxy.reset();
    expect(await store(proxy.endpoint).list("many/")).toEqual(keys);
    expect(proxy.seen.filter((r) => r.method === "GET" && r.url.includes("list-type=2"))).toHaveLength(1);
  }, 60_000);

  it("finds out once that conditional writes are not honoured, and leaves nothing behind", async () => {
    const s = store(proxy.endpoint);
    expect(await s.putIfMatch("v1/current.json", Buffer.from("{}"), {}, { absent: true })).toBe("unsupported");
    expect(await s.putIfMatch("v1/current.json", Buffer.from("{}"), {}, { etag: '"x"' })).toBe("unsupported");
    const sent = proxy.seen.filter((r) => r.method === "PUT").map((r) => r.headers["if-none-match"]);
    // s3rver ignores the header (two writes of a new key both succeed); Swift answers the first with 501
    expect(sent).toEqual(name === "s3rver" ? ["*", "*"] : ["*"]);
    expect(await s.list("")).toEqual([]);
  });

  const input = (features = [feature("a1", "DE", 8), feature("b1", "FR", 2), feature("c1", "DE", 9)]) =>
    ({
      byCountry: byCountry(features),
      date: DAY.date,
      publishedAt: Date.parse("2026-09-14T06:20:00Z"),
      sources: {},
      tier: "dynamic",
    }) satisfies PublishInput;

  it("publishes what the local store gets, byte for byte, with the metadata of docs/design.md §5", async () => {
    const s = store();
    const local = new LocalStore(tempDir());
    const published = await publishVersion(s, input());
    await publishVersion(local, input());
    const keys = await local.list("");
    expect(await s.list("")).toEqual(keys);
    for (const key of keys) expect((await rawGet(key)).body.equals((await local.get(key))!), key).toBe(true);
    const manifest = (await currentManifest(s))!;
    expect(manifest).toEqual(published.manifest);
    for (const e of Object.values(manifest.countries)) {
      const { res, body } = await rawGet(e.key);
      expect(sha256(body)).toBe(e.sha256);
      expect([res.ContentEncoding, res.ContentType, res.CacheControl]).toEqual([
        "gzip",
        "application/geo+json",
        "public, max-age=31536000, immutable",
      ]);
    }
    expect((await rawGet("v1/current.json")).res.CacheControl).toBe("public, max-age=30");
    expect((await readCollection(s, manifest.countries.DE!.key)).features.map((f) => f.properties._id)).toEqual([
      "a1",
      "c1",
    ]);
  });

  it("a re-run with unchanged input writes only the pointers; one changed country only its objects", async () => {
    const first = await publishVersion(store(proxy.endpoint), input());
    proxy.reset();
    const again = await publishVersion(store(proxy.endpoint), input());
    expect(again.manifest.version).toBe(first.manifest.version);
    const bookkeeping = (k: string) => /probe/.test(k);
    const pointers = [`v1/days/${DAY.date}/current.json`, "v1/current.json"];
    expect(puts().filter((k) => !bookkeeping(k))).toEqual(pointers);

    proxy.reset();
    const changed = await publishVersion(
      store(proxy.endpoint),
      input([feature("a1", "DE", 8), feature("b1", "FR", 3), feature("c1", "DE", 9)]),
    );
    const { FR, DE } = changed.manifest.countries;
    expect(DE).toEqual(first.manifest.countries.DE);
    expect(FR!.key).not.toBe(first.manifest.countries.FR!.key);
    const written = puts().filter((k) => !bookkeeping(k));
    // (uploaded in parallel): the collection, its fragment, its OpenAir and fragment, FR's change set
    const objects = [FR!.key, FR!.fragment, FR!.openair!.key, FR!.openair!.fragment, FR!.changes!.key];
    expect(written.slice(0, 5).sort()).toEqual(objects.sort());
    expect(written.slice(5)).toEqual([`v1/versions/${changed.manifest.version}.json`, ...pointers]);
  });

  it("two publishers at once: the publisher lease lets one through; the live version is complete", async () => {
    /** A publication as publishRun makes it: under the store's publisher lease, which the pointer flip confirms. */
    const leased = async (features?: Parameters<typeof input>[0]) => {
      const lease = await takePublisherLease(store(), { who: "test", settleMs: 100 });
      try {
        return await publishVersion(store(), input(features), undefined, { lease });
      } finally {
        await lease.release();
      }
    };
    const results = await Promise.allSettled([leased(), leased([feature("z9", "AT", 1)])]);
    const won = results.filter((r) => r.status === "fulfilled").map((r) => r.value.manifest.version);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(PublisherBusy);
    }
    expect(won.length).toBeGreaterThan(0);
    const live = (await currentManifest(store()))!;
    expect(won).toContain(live.version);
    for (const e of Object.values(live.countries)) {
      expect(sha256((await rawGet(e.key)).body)).toBe(e.sha256);
      expect(sha256((await rawGet(e.fragment)).body)).toBe(e.fragmentSha256);
    }
    expect(await store().get(PUBLISHER_KEY)).toBeUndefined();
  });

  it("retention keeps an old day's record (its manifest, its first collection) and collects the rest", async () => {
    const s = store();
    const old = await publishVersion(s, {
      ...input(),
      date: "2026-09-01",
      publishedAt: Date.parse("2026-09-01T06:00:00Z"),
    });
    const fresh = await publishVersion(s, input([feature("n1", "DE", 1)]));
    const now = Date.parse("2026-09-14T07:00:00Z");
    expect((await collectGarbage(s, { now })).versionsDeleted).toBe(0);
    const swept = await collectGarbage(s, { now: now + 2 * 3_600_000 });
    const oldOnly = Object.values(old.manifest.countries).filter((e) => e.key !== fresh.manifest.countries.DE?.key);
    // the fragment and the OpenAir pair go; the collection stays, the first of its day
    expect(swept.objectsDeleted).toBe(oldOnly.length * 3);
    for (const e of oldOnly) {
      expect(await s.head(e.fragment)).toBeUndefined();
      expect(sha256((await s.get(e.key))!)).toBe(e.sha256);
    }
    expect(await s.head(`v1/versions/${old.manifest.version}.json`)).toBeDefined();
    const live = (await currentManifest(s))!;
    expect(live.version).toBe(fresh.manifest.version);
    for (const e of Object.values(live.countries)) expect(sha256((await s.get(e.key))!)).toBe(e.sha256);
    // past the record's age the day goes whole: manifest, collections, pointer
    const later = now + 30 * 86_400_000;
    await collectGarbage(s, { now: later, recordMs: 20 * 86_400_000 });
    await collectGarbage(s, { now: later + 2 * 3_600_000, recordMs: 20 * 86_400_000 });
    expect(await s.head(`v1/versions/${old.manifest.version}.json`)).toBeUndefined();
    expect(await s.head("v1/days/2026-09-01/current.json")).toBeUndefined();
    for (const e of oldOnly) expect(await s.head(e.key)).toBeUndefined();
  });
});
