// fetchSource against a real HTTP server on 127.0.0.1 (random port): each route plays one way a download fails.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SourceConfig } from "../../src/fetch/config.js";
import { fetchSource, SourceFetchError } from "../../src/fetch/fetch-source.js";
import { readNotamSource } from "../../src/notam/read.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { FAA_DATE, GEOJSON, LINES, NEWER, startServer, state } from "./feed-server.js";

const T0 = Date.parse("2026-09-14T06:15:00Z");
const MIN = 60_000;

let base = "";
let closedPort = 0;
let stop = async () => {};
beforeAll(async () => {
  ({ base, closedPort, stop } = await startServer());
});
afterAll(() => stop());
beforeEach(() => {
  state.feed = { body: GEOJSON, etag: '"v1"' };
  state.seen.length = 0;
});

/** A MemoryStore that records its writes. */
class RecordingStore extends MemoryStore {
  readonly puts: string[] = [];
  override async put(key: string, body: Buffer): Promise<void> {
    this.puts.push(key);
    await super.put(key, body);
  }
  async snapshot(): Promise<Record<string, string>> {
    const keys = await this.list("");
    return Object.fromEntries(await Promise.all(keys.map(async (k) => [k, (await this.get(k))!.toString("hex")])));
  }
}

const source = (path: string, extra: Partial<SourceConfig> = {}): SourceConfig => ({
  name: "notam-feed",
  kind: "notam",
  url: `${base}${path}`,
  timeoutMs: 2_000,
  maxBytes: 1024 * 1024,
  maxAgeMinutes: 120,
  ...extra,
});
const run = (store: MemoryStore, path: string, now: number, extra: Partial<SourceConfig> = {}) =>
  fetchSource(source(path, extra), { fetch, store, now });
const meta = async (store: MemoryStore) =>
  JSON.parse((await store.get("internal/sources/notam-feed/meta.json"))!.toString("utf8"));

describe("fetchSource: good answers", () => {
  it("stores a 200 as the last good copy: body, then meta with the validators", async () => {
    const store = new RecordingStore();
    const got = await run(store, "/feed.geojson", T0);
    expect(got).toEqual({
      name: "notam-feed",
      kind: "notam",
      bytes: GEOJSON,
      fetchedAt: T0,
      stale: false,
      from: "network",
    });
    expect(store.puts).toEqual(["internal/sources/notam-feed/body", "internal/sources/notam-feed/meta.json"]);
    expect((await store.get("internal/sources/notam-feed/body"))!.equals(GEOJSON)).toBe(true);
    expect(await meta(store)).toEqual({
      schema: 1,
      fetchedAt: "2026-09-14T06:15:00.000Z",
      etag: '"v1"',
      sha256: createHash("sha256").update(GEOJSON).digest("hex"),
      bytes: GEOJSON.length,
    });
  });

  it("asks conditionally; a 304 reuses the copy with a fresh fetchedAt and rewrites only the meta", async () => {
    const store = new RecordingStore();
    await run(store, "/feed.geojson", T0);
    store.puts.length = 0;
    const got = await run(store, "/feed.geojson", T0 + 15 * MIN);
    expect(state.seen.at(-1)?.["if-none-match"]).toBe('"v1"');
    expect(got).toMatchObject({ from: "notModified", fetchedAt: T0 + 15 * MIN, stale: false });
    expect(got.bytes.equals(GEOJSON)).toBe(true);
    expect(store.puts).toEqual(["internal/sources/notam-feed/meta.json"]);
    expect((await meta(store)).fetchedAt).toBe("2026-09-14T06:30:00.000Z");
  });

  it("replaces the body when the content changes, and only the meta when a new ETag names the same bytes", async () => {
    const store = new RecordingStore();
    await run(store, "/feed.geojson", T0);
    state.feed = { body: NEWER, etag: '"v2"' };
    store.puts.length = 0;
    expect((await run(store, "/feed.geojson", T0 + MIN)).bytes.equals(NEWER)).toBe(true);
    expect(store.puts).toEqual(["internal/sources/notam-feed/body", "internal/sources/notam-feed/meta.json"]);
    state.feed = { body: NEWER, etag: '"v3"' };
    store.puts.length = 0;
    expect(await run(store, "/feed.geojson", T0 + 2 * MIN)).toMatchObject({ from: "network", stale: false });
    expect(store.puts).toEqual(["internal/sources/notam-feed/meta.json"]);
    expect(await meta(store)).toMatchObject({ etag: '"v3"', bytes: NEWER.length });
  });

  it("sends the configured headers and asks for the wire bytes", async () => {
    await run(new MemoryStore(), "/feed.geojson", T0, { headers: { Authorization: "Bearer t0k" } });
    expect(state.seen.at(-1)).toMatchObject({ authorization: "Bearer t0k", "accept-encoding": "identity" });
  });

  it("takes JSON lines that a feed labels application/json", async () => {
    expect((await run(new MemoryStore(), "/lines", T0)).bytes.equals(LINES)).toBe(true);
  });

  it("calls a copy an HTTP cache has held longer than maxAgeMinutes stale", async () => {
    state.feed = { ...state.feed, age: 3 * 3600 };
    const got = await run(new MemoryStore(), "/feed.geojson", T0);
    expect(got).toMatchObject({ from: "network", fetchedAt: T0 - 3 * 3600_000, stale: true });
    expect(got.reason).toBe("age: the copy is 180 min old, more than maxAgeMinutes 120");
  });
});

const failures: [string, string, Partial<SourceConfig>, RegExp][] = [
  ["a 500", "/error", {}, /^http: HTTP 500 Internal Server Error$/],
  ["no answer in time", "/slow-headers", { timeoutMs: 300 }, /^timeout: no whole answer within 300 ms$/],
  ["a body that stalls", "/slow-body", { timeoutMs: 300 }, /^timeout: /],
  ["a body cut short", "/truncated", {}, /^incomplete: the body broke off after 16 bytes/],
  ["a body over maxBytes", "/big", {}, /^too-large: more than maxBytes 1048576 bytes; stopped reading$/],
  ["a Content-Length over maxBytes", "/big-declared", {}, /^too-large: .*\(Content-Length 10485760\)$/],
  ["a gzip that does not gunzip", "/broken.gz", {}, /^gzip: does not gunzip \(unexpected end of file\)$/],
  ["an openAIP export without its closing ]}", "/cut.geojson", {}, /^json: ends with 2 brackets still open$/],
  ["an empty body", "/empty", {}, /^empty: /],
  ["JSON that does not parse", "/bad.json", {}, /^json: does not parse \(/],
];

describe("fetchSource: failures", () => {
  it.each(failures)(
    "falls back to the last good copy on %s, stale, with its own fetchedAt",
    async (_, path, extra, why) => {
      const store = new RecordingStore();
      await run(store, "/feed.geojson", T0);
      const before = await store.snapshot();
      store.puts.length = 0;
      const got = await run(store, path, T0 + 30 * MIN, extra);
      expect(got).toMatchObject({ from: "lastGood", stale: true, fetchedAt: T0 });
      expect(got.bytes.equals(GEOJSON)).toBe(true);
      expect(got.reason).toMatch(why);
      expect(store.puts).toEqual([]);
      expect(await store.snapshot()).toEqual(before);
    },
  );

  it("stops reading an oversized body instead of buffering it", async () => {
    await expect(run(new MemoryStore(), "/big", T0)).rejects.toThrow(SourceFetchError);
    expect(state.bigWritten).toBeLessThan(32 * 1024 * 1024);
  });

  it("falls back on a network error", async () => {
    const store = new MemoryStore();
    await run(store, "/feed.geojson", T0);
    const got = await fetchSource(
      { ...source("/"), url: `http://127.0.0.1:${closedPort}/` },
      { fetch, store, now: T0 },
    );
    expect(got).toMatchObject({ from: "lastGood", stale: true });
    expect(got.reason).toMatch(/^network: the request failed \(fetch failed: .*ECONNREFUSED/);
  });

  it.each(failures)("throws on %s when there is no last good copy, and writes nothing", async (_, path, extra, why) => {
    const store = new MemoryStore();
    const error = await run(store, path, T0, extra).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SourceFetchError);
    expect((error as SourceFetchError).reason).toMatch(new RegExp(why.source.replace(/\$$/, "")));
    expect((error as Error).message).toMatch(/^source "notam-feed": .*no last good copy to fall back on$/);
    expect(await store.list("")).toEqual([]);
  });

  it("does not serve a body its meta does not name (a crash between the two writes)", async () => {
    const store = new MemoryStore();
    await run(store, "/feed.geojson", T0);
    await store.put("internal/sources/notam-feed/body", Buffer.from(GEOJSON).fill(0x20, 10, 20));
    await expect(run(store, "/error", T0)).rejects.toThrow(/HTTP 500.*is not the body its meta names/);
    // a 304 for a damaged copy: asked again without validators, and the whole body stored afresh
    const got = await run(store, "/feed.geojson", T0 + MIN);
    expect(got.from).toBe("network");
    expect(state.seen.at(-1)?.["if-none-match"]).toBeUndefined();
    expect((await store.get("internal/sources/notam-feed/body"))!.equals(GEOJSON)).toBe(true);
  });

  it("ignores a cache meta of a schema it does not know", async () => {
    const store = new MemoryStore();
    await run(store, "/feed.geojson", T0);
    await store.put(
      "internal/sources/notam-feed/meta.json",
      Buffer.from(JSON.stringify({ ...(await meta(store)), schema: 9 })),
    );
    await expect(run(store, "/error", T0)).rejects.toThrow(/schema 9 is not supported/);
  });
});

describe("fetchSource: the FAA NOTAM API's pages (paging: faa)", () => {
  const faa = { paging: "faa" as const, headers: { client_id: "id-1", client_secret: "secret-1" } };
  beforeEach(() => {
    state.faaQueries.length = 0;
    state.faaPage2 = "ok";
  });

  it("fetches every page with the client headers and joins them into one answer the NOTAM reader takes", async () => {
    const store = new MemoryStore();
    const got = await run(store, "/notamapi/v1/notams?icaoLocation=LFFF&pageSize=2", T0, faa);
    expect(state.faaQueries).toEqual([
      "icaoLocation=LFFF&pageSize=2&pageNum=1",
      "icaoLocation=LFFF&pageSize=2&pageNum=2",
    ]);
    expect(got).toMatchObject({ from: "network", stale: false, lastModified: Date.parse(FAA_DATE) });
    const read = readNotamSource(got.bytes, "faa");
    expect(read.format).toBe("faa-json");
    expect(read.notams.map((n) => `${n.nof}-${n.id}`)).toEqual(["LFFA-R0380/26", "EDDZ-B0051/26", "LOWW-A0216/26"]);
    // the joined answer is the last good copy
    const again = await run(store, "/notamapi/v1/notams?icaoLocation=LFFF&pageSize=2", T0 + MIN, faa);
    expect(again.bytes.equals(got.bytes)).toBe(true);
  });

  it("refuses the whole answer when a page fails or breaks off, and falls back to the last good copy", async () => {
    const store = new MemoryStore();
    const good = await run(store, "/notamapi/v1/notams", T0, faa);
    for (const fault of ["500", "cut"] as const) {
      state.faaPage2 = fault;
      const got = await fetchSource(source("/notamapi/v1/notams", faa), {
        fetch,
        store,
        now: T0 + MIN,
        retry: { attempts: 1 },
      });
      expect(got.from).toBe("lastGood");
      expect(got.stale).toBe(true);
      expect(got.reason).toMatch(fault === "500" ? /HTTP 503.*page 2/ : /page 2/);
      expect(got.bytes.equals(good.bytes)).toBe(true);
    }
  });

  it("without the client headers the API's 401 fails the source, naming it", async () => {
    await expect(run(new MemoryStore(), "/notamapi/v1/notams", T0, { paging: "faa" })).rejects.toThrow(
      /source "notam-feed": http: HTTP 401.*page 1/,
    );
  });
});
