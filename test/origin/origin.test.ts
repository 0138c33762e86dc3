// The /v1 origin as a real HTTP server on loopback over a published sample store: every answer decodes to the
// very bytes of the collection built by parsing and merging the per-country objects; the headers and every
// error of docs/design.md §6; hostile requests.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Count, FeatureCollection } from "../../src/model/contract.js";
import type { VersionManifest } from "../../src/model/manifest.js";
import { decodeMapForm, summaryOf } from "../../src/origin/map-form.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { currentManifest, readCollection } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { tempDir } from "../helpers.js";
import { cli, type Published, publishSample, type Running, request, serve } from "./harness.js";

const execFileAsync = promisify(execFile);
let pub: Published;
let origin: Running;
let manifest: VersionManifest;
const DATA = "/v1/data/airspaces";
const MAP = "/v1/data/airspaces.map";
const auth = (token = pub.dynamicToken) => ({ Authorization: `Bearer ${token}` });
const gz = { "Accept-Encoding": "gzip" };

beforeAll(async () => {
  pub = await publishSample();
  origin = await serve({ store: pub.store, tokens: pub.tokensFile, headersTimeoutMs: 500 });
  manifest = (await currentManifest(new LocalStore(pub.store)))!;
});
afterAll(async () => origin?.close());

/** The collection the origin must answer, built the slow way: parse each country's object and merge. */
async function merged(codes: string[], tier: "dynamic" | "static" = "dynamic"): Promise<string> {
  const store = new LocalStore(pub.store);
  const m = (await currentManifest(store, tier))!;
  const names = codes[0] === "EUROPE" ? Object.keys(m.countries).sort() : [...codes].sort();
  const collections = await Promise.all(names.map((cc) => readCollection(store, m.countries[cc]!.key)));
  const count: Count = { airspaces: 0, airspaceNotams: 0, graphicalNotams: 0, total: 0 };
  for (const fc of collections) for (const k of Object.keys(count) as (keyof Count)[]) count[k] += fc.meta.count[k];
  const meta = { count: codes[0] === "EUROPE" ? m.europe.count : count, tier };
  return JSON.stringify({ type: "FeatureCollection", features: collections.flatMap((fc) => fc.features), meta });
}

describe("data answers", () => {
  it.each([["DE"], ["fr,DE"], ["AT,BE,CH,DE,FR"], ["EUROPE"], ["europe"]])(
    "countries=%s: one gzip member decoding to the merged collection, byte for byte",
    async (countries) => {
      const r = await request(origin.url, `${DATA}?countries=${countries}`, { ...auth(), ...gz });
      expect(r.status).toBe(200);
      expect(r.headers["content-encoding"]).toBe("gzip");
      expect(Number(r.headers["content-length"])).toBe(r.body.length);
      const want = await merged(countries.toUpperCase().split(","));
      expect(zlib.gunzipSync(r.body).toString("utf8")).toBe(want);
      // one member: inflating it uses every byte (a second member would be left over)
      const info = zlib.gunzipSync(r.body, { info: true }) as unknown as { engine: { bytesWritten: number } };
      expect(info.engine.bytesWritten).toBe(r.body.length);
      const file = path.join(tempDir("origin-gz-"), "a.geojson.gz");
      writeFileSync(file, r.body);
      expect(spawnSync("gzip", ["-t", file]).status).toBe(0);
      expect(execFileSync("gzip", ["-l", file], { encoding: "utf8" })).toContain(String(Buffer.byteLength(want)));
    },
  );

  it.each([["DE"], ["fr,DE"], ["EUROPE"]])(
    "countries=%s as the map form: one gzip member whose frames hold every feature of the collection, in order",
    async (countries) => {
      const r = await request(origin.url, `${MAP}?countries=${countries}`, { ...auth(), ...gz });
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/octet-stream");
      expect(r.headers["x-data-version"]).toBe(manifest.version);
      const info = zlib.gunzipSync(r.body, { info: true }) as unknown as { engine: { bytesWritten: number } };
      expect(info.engine.bytesWritten).toBe(r.body.length);
      const frames = decodeMapForm(zlib.gunzipSync(r.body));
      const want = JSON.parse(await merged(countries.toUpperCase().split(","))) as FeatureCollection;
      const got = frames.flatMap((f) => f.features);
      expect(got.map((f) => f.id)).toEqual(want.features.map((f) => f.properties._id));
      for (const [i, f] of want.features.entries()) {
        const { country, ...summary } = got[i]!;
        expect(summary).toEqual(summaryOf(f));
        expect(manifest.countries[country]).toBeDefined();
      }
      // the tag names the content: the same answer again is 304
      const again = await request(origin.url, `${MAP}?countries=${countries}`, {
        ...auth(),
        ...gz,
        "If-None-Match": String(r.headers.etag),
      });
      expect(again.status).toBe(304);
      const other = await request(origin.url, `${DATA}?countries=${countries}`, { ...auth(), ...gz });
      expect(other.headers.etag).not.toBe(r.headers.etag);
    },
  );

  it("answers the map form with each feature's box alone for shapes=boxes, and 400 for another shape", async () => {
    const full = decodeMapForm(
      zlib.gunzipSync((await request(origin.url, `${MAP}?countries=EUROPE`, { ...auth(), ...gz })).body),
    );
    const r = await request(origin.url, `${MAP}?countries=EUROPE&shapes=boxes`, { ...auth(), ...gz });
    expect(r.status).toBe(200);
    const boxes = decodeMapForm(zlib.gunzipSync(r.body));
    expect(boxes.flatMap((f) => f.features)).toEqual(full.flatMap((f) => f.features));
    for (const [k, frame] of boxes.entries()) {
      const whole = full[k]!.packed;
      // one ring of five points per feature, the box the whole rings have
      expect(frame.packed.featureEnds).toEqual(Uint32Array.from(frame.features, (_, i) => i + 1));
      expect(frame.packed.coords.length).toBe(10 * frame.features.length);
      for (let i = 0; i < 4 * frame.features.length; i++) expect(frame.packed.boxes[i]).toBeCloseTo(whole.boxes[i]!, 7);
    }
    expect(r.body.length).toBeLessThan(
      (await request(origin.url, `${MAP}?countries=EUROPE`, { ...auth(), ...gz })).body.length,
    );
    const tags = new Set([r.headers.etag, (await request(origin.url, `${MAP}?countries=EUROPE`, auth())).headers.etag]);
    expect(tags.size).toBe(2);
    for (const bad of [
      `${MAP}?countries=DE&shapes=rings`,
      `${MAP}?countries=DE&shapes=boxes&shapes=boxes`,
      `${DATA}?countries=DE&shapes=boxes`,
    ]) {
      const answer = await request(origin.url, bad, auth());
      expect(answer.status, bad).toBe(400);
      expect(JSON.parse(answer.body.toString("utf8")).type).toBe("urn:airspace-publisher:problem:bad-shapes");
    }
  });

  it("answers the map form to a token holder only, and decodes without gzip too", async () => {
    expect((await request(origin.url, `${MAP}?countries=DE`)).status).toBe(401);
    const plain = await request(origin.url, `${MAP}?countries=DE`, auth());
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(decodeMapForm(plain.body)[0]!.features.length).toBe(manifest.countries.DE!.count.total);
  });

  it("answers curl --compressed (exit 0) with the merged collection", async () => {
    const want = await merged(["DE", "FR"]);
    // (asynchronous: the server answers from this very process)
    const { stdout: out } = await execFileAsync(
      "curl",
      [
        "-sS",
        "--fail",
        "--compressed",
        "-H",
        `Authorization: Bearer ${pub.dynamicToken}`,
        `${origin.url}${DATA}?countries=DE,FR`,
      ],
      { encoding: "utf8" },
    );
    expect(out).toBe(want);
  });

  it("gives identity to a client that does not accept gzip (and to q=0), with its own ETag", async () => {
    for (const headers of [{}, { "Accept-Encoding": "gzip;q=0, identity" }, { "Accept-Encoding": "br" }]) {
      const r = await request(origin.url, `${DATA}?countries=CH,AT`, { ...auth(), ...headers });
      expect(r.status).toBe(200);
      expect(r.headers["content-encoding"]).toBeUndefined();
      expect(r.body.toString("utf8")).toBe(await merged(["AT", "CH"]));
      expect(Number(r.headers["content-length"])).toBe(r.body.length);
      expect(r.headers.etag).toMatch(/-identity"$/);
    }
    const star = await request(origin.url, `${DATA}?countries=AT`, { ...auth(), "Accept-Encoding": "*" });
    expect(star.headers["content-encoding"]).toBe("gzip");
  });

  it("sends the headers of docs/design.md §6, the same for HEAD without a body", async () => {
    const r = await request(origin.url, `${DATA}?countries=DE`, { ...auth(), ...gz });
    expect(r.headers).toMatchObject({
      "content-type": "application/geo+json",
      "x-data-version": manifest.version,
      "last-modified": new Date(manifest.publishedAt).toUTCString(),
      "cache-control": "public, max-age=60, stale-while-revalidate=600",
      vary: "Accept-Encoding",
    });
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const head = await request(origin.url, `${DATA}?countries=de`, { ...auth(), ...gz }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const h of ["etag", "content-length", "content-encoding", "x-data-version", "last-modified"]) {
      expect(head.headers[h], h).toBe(r.headers[h]);
    }
  });

  it("answers If-None-Match with 304: the tag itself, weak, in a list, or *; other tags get the body", async () => {
    const { headers } = await request(origin.url, `${DATA}?countries=FR,DE`, { ...auth(), ...gz });
    const etag = headers.etag!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const r = await request(origin.url, `${DATA}?countries=DE,FR`, { ...auth(), ...gz, "If-None-Match": inm });
      expect(r.status, inm).toBe(304);
      expect(r.body.length).toBe(0);
      expect(r.headers).toMatchObject({ etag, "x-data-version": manifest.version, vary: "Accept-Encoding" });
    }
    const other = await request(origin.url, `${DATA}?countries=DE`, { ...auth(), ...gz, "If-None-Match": etag });
    expect(other.status).toBe(200);
    const identity = await request(origin.url, `${DATA}?countries=DE,FR`, { ...auth(), "If-None-Match": etag });
    expect(identity.status).toBe(200); // another representation, another tag
  });

  it("serves the static tier to a static token: airspaces alone, meta.tier static", async () => {
    const r = await request(origin.url, `${DATA}?countries=DE&scope=static`, { ...auth(pub.staticToken), ...gz });
    expect(r.status).toBe(200);
    const text = zlib.gunzipSync(r.body).toString("utf8");
    expect(text).toBe(await merged(["DE"], "static"));
    expect(JSON.parse(text).meta.tier).toBe("static");
    const dynamic = await request(origin.url, `${DATA}?countries=DE&scope=dynamic`, { ...auth(pub.staticToken) });
    expect(dynamic.status).toBe(200);
  });

  it("answers /healthz without a token: 200 with the live version (a container's health check)", async () => {
    const r = await request(origin.url, "/healthz");
    expect(r.status).toBe(200);
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(r.body.toString())).toEqual({ status: "ok", version: manifest.version, date: manifest.date });
  });

  it("tells the map page what is published, without a token: the version, its day, counts per country", async () => {
    const r = await request(origin.url, "/published.json");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    const doc = JSON.parse(r.body.toString());
    const manifest = (await currentManifest(new LocalStore(pub.store)))!;
    expect(doc.version).toBe(manifest.version);
    expect(doc.date).toBe(manifest.date);
    expect(Object.keys(doc.countries)).toEqual(Object.keys(manifest.countries));
    expect(doc.countries.DE).toEqual(manifest.countries.DE!.count);
    // the sample is published with its tiles: the page draws them
    expect(manifest.tiles).toBeDefined();
    expect(doc.tiles).toBe(true);
    expect(r.body.toString()).not.toMatch(/objects\/|sha256|internal/);
  });

  it("tells a token holder why a feature has its state: explain's rule and because, never its evidence", async () => {
    const doc = (await readExplanations(new LocalStore(pub.store), manifest.version))!;
    const ids = Object.keys(doc.features);
    // one feature of each decision-table row the sample reaches
    const rows = [...new Map(ids.map((id) => [doc.features[id]!.rule, id])).values()];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const id of rows) {
      const r = await request(origin.url, `/explain.json?id=${encodeURIComponent(id)}`, auth());
      expect(r.status).toBe(200);
      expect(r.headers["cache-control"]).toBe("private, max-age=60");
      const e = doc.features[id]!;
      // the sources' names (paths, URLs) are in `evidence`, which stays inside
      expect(JSON.parse(r.body.toString())).toEqual({
        version: manifest.version,
        id,
        rule: e.rule,
        because: e.because,
        ...(e.conditionalOn ? { conditionalOn: e.conditionalOn } : {}),
      });
    }
  });

  it("gives a token holder one feature of a country as published, for the map page's popup", async () => {
    const store = new LocalStore(pub.store);
    for (const cc of ["DE", "FR"]) {
      const fc = await readCollection(store, manifest.countries[cc]!.key);
      expect(fc.features.length).toBeGreaterThan(2);
      for (const f of [fc.features[0]!, fc.features[1]!, fc.features.at(-1)!]) {
        const id = encodeURIComponent(f.properties._id);
        const r = await request(origin.url, `/feature.json?countries=${cc.toLowerCase()}&id=${id}`, auth());
        expect(r.status).toBe(200);
        expect(r.headers["content-type"]).toBe("application/geo+json");
        expect(r.headers["cache-control"]).toBe("private, max-age=60");
        expect(r.headers["x-data-version"]).toBe(manifest.version);
        expect(r.body.toString("utf8")).toBe(JSON.stringify(f));
      }
    }
  });

  it("serves the diagnostics every publish writes, without a token, short-cached", async () => {
    // every publish writes them (issue 16 §6)
    const written = await request(origin.url, "/v1/status/master-features");
    expect(written.status).toBe(200);
    expect(JSON.parse(written.body.toString())).toMatchObject({ bootstrap: { state: "complete" } });
    const doc = { status: "healthy" };
    await new LocalStore(pub.store).put("v1/status/master-features.json", Buffer.from(JSON.stringify(doc)));
    await origin.refresh();
    const r = await request(origin.url, "/v1/status/master-features");
    expect(r.status).toBe(200);
    expect(r.headers).toMatchObject({ "content-type": "application/json", "cache-control": "public, max-age=15" });
    expect(JSON.parse(r.body.toString())).toEqual(doc);
  });
});

interface Case {
  name: string;
  target: string;
  headers?: Record<string, string>;
  method?: string;
  status: number;
  type: string;
  detail?: RegExp;
}

const PROBLEM_CASES = (): Case[] => [
  { name: "countries missing", target: DATA, status: 400, type: "countries-missing", detail: /AT,BE,CH,DE,FR,EUROPE/ },
  { name: "countries malformed", target: `${DATA}?countries=D1`, status: 400, type: "countries-malformed" },
  {
    name: "countries unknown",
    target: `${DATA}?countries=DE,XX`,
    status: 400,
    type: "countries-unknown",
    detail: /XX/,
  },
  { name: "countries repeated", target: `${DATA}?countries=DE&countries=FR`, status: 400, type: "countries-repeated" },
  { name: "EUROPE with others", target: `${DATA}?countries=EUROPE,DE`, status: 400, type: "countries-malformed" },
  { name: "bad scope", target: `${DATA}?countries=DE&scope=admin`, status: 400, type: "bad-scope" },
  { name: "scope repeated", target: `${DATA}?countries=DE&scope=dynamic&scope=static`, status: 400, type: "bad-scope" },
  { name: "no token", target: `${DATA}?countries=DE`, headers: {}, status: 401, type: "unauthorized" },
  {
    name: "wrong token",
    target: `${DATA}?countries=DE`,
    headers: auth("asp_wrong"),
    status: 401,
    type: "unauthorized",
  },
  {
    name: "not Bearer",
    target: `${DATA}?countries=DE`,
    headers: { Authorization: "Basic eDp5" },
    status: 401,
    type: "unauthorized",
  },
  {
    name: "static scope without the right",
    target: `${DATA}?countries=DE&scope=static`,
    status: 403,
    type: "forbidden-scope",
  },
  { name: "unknown path", target: "/v1/data/airspace", status: 404, type: "not-found" },
  { name: "trailing slash", target: `${DATA}/?countries=DE`, status: 404, type: "not-found" },
  { name: "dot segments", target: "/v1/data/../data/airspaces?countries=DE", status: 404, type: "not-found" },
  { name: "encoded slash", target: "/v1/data%2Fairspaces?countries=DE", status: 404, type: "not-found" },
  { name: "a file beside the page", target: "/package.json", status: 404, type: "not-found" },
  { name: "POST", target: `${DATA}?countries=DE`, method: "POST", status: 405, type: "method-not-allowed" },
  {
    name: "DELETE on status",
    target: "/v1/status/master-features",
    method: "DELETE",
    status: 405,
    type: "method-not-allowed",
  },
  { name: "explain without an id", target: "/explain.json", status: 400, type: "bad-id" },
  { name: "feature without an id", target: "/feature.json?countries=DE", status: 400, type: "bad-id" },
  { name: "feature of EUROPE", target: "/feature.json?countries=EUROPE&id=x", status: 400, type: "one-country" },
  { name: "feature of two countries", target: "/feature.json?countries=DE,FR&id=x", status: 400, type: "one-country" },
  { name: "feature of no country", target: "/feature.json?id=x", status: 400, type: "countries-missing" },
  { name: "feature of no such id", target: "/feature.json?countries=DE&id=nope", status: 404, type: "no-feature" },
  {
    name: "feature without a token",
    target: "/feature.json?countries=DE&id=x",
    headers: {},
    status: 401,
    type: "unauthorized",
  },
  { name: "explain with two ids", target: "/explain.json?id=a&id=b", status: 400, type: "bad-id" },
  { name: "explain of no feature", target: "/explain.json?id=no-such-feature", status: 404, type: "no-explanation" },
  { name: "explain without a token", target: "/explain.json?id=x", headers: {}, status: 401, type: "unauthorized" },
  { name: "long target", target: `${DATA}?countries=DE&x=${"a".repeat(3000)}`, status: 414, type: "uri-too-long" },
];

describe("errors are RFC 9457 problems, without internals", () => {
  it.each(PROBLEM_CASES().map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const r = await request(origin.url, c.target, c.headers ?? auth(), c.method ?? "GET");
    expect(r.status).toBe(c.status);
    expect(r.headers["content-type"]).toBe("application/problem+json");
    expect(r.headers["cache-control"]).toBe("no-store");
    const body = JSON.parse(r.body.toString("utf8"));
    expect(Object.keys(body).sort()).toEqual(["detail", "status", "title", "type"]);
    expect(body).toMatchObject({ status: c.status, type: `urn:airspace-publisher:problem:${c.type}` });
    if (c.detail) expect(body.detail).toMatch(c.detail);
    expect(r.body.toString()).not.toMatch(/\bat \S+:\d+|Error|\/tmp|node_modules|\.ts\b|\.js\b/);
    if (c.status === 401) expect(r.headers["www-authenticate"]).toMatch(/^Bearer realm="airspaces"/);
    if (c.status === 405) expect(r.headers.allow).toBe("GET, HEAD");
  });

  it("answers 503 while nothing is published", async () => {
    const empty = await serve({ store: tempDir("origin-empty-"), tokens: pub.tokensFile });
    try {
      const r = await request(empty.url, `${DATA}?countries=DE`, auth());
      expect(r.status).toBe(503);
      expect(JSON.parse(r.body.toString()).detail).toBe("Nothing is published yet.");
      const none = await request(empty.url, "/v1/status/master-features");
      expect(none.status).toBe(503);
      expect(JSON.parse(none.body.toString()).detail).toBe("No diagnostics are published yet.");
    } finally {
      await empty.close();
    }
  });

  it("answers 431 to headers over 8 KiB and 400 to a request that is not HTTP", async () => {
    const big = await request(origin.url, `${DATA}?countries=DE`, { ...auth(), "X-Big": "x".repeat(9000) });
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body.toString()).type).toBe("urn:airspace-publisher:problem:headers-too-large");
    const many = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, "yyyyyyyyyyyyyyyyyyyy"]));
    expect((await request(origin.url, `${DATA}?countries=DE`, { ...auth(), ...many })).status).toBe(431);
    const garbage = await raw(origin.url, "HELLO\r\n\r\n");
    expect(garbage).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*"type":"urn:airspace-publisher:problem:bad-request"/,
    );
  });

  it("cuts off a client that sends its head too slowly (408), and keeps serving others meanwhile", async () => {
    const socket = net.connect(Number(new URL(origin.url).port), "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    let got = "";
    socket.on("data", (d) => {
      got += d.toString();
    });
    socket.write("GET /v1/data/airspaces?countries=DE HTTP/1.1\r\nHost: x\r\n");
    const closed = new Promise((r) => socket.once("close", r));
    const timer = setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 100);
    const other = await request(origin.url, `${DATA}?countries=DE`, { ...auth(), ...gz });
    expect(other.status).toBe(200);
    await closed;
    clearInterval(timer);
    expect(got).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it("logs one line per request, with the token's id and never the token", async () => {
    const before = origin.log().length;
    await request(origin.url, `${DATA}?countries=DE`, { ...auth(), ...gz });
    await request(origin.url, `${DATA}?countries=DE`, auth("asp_secret-wrong"));
    const lines = origin
      .log()
      .slice(before)
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: "GET", path: DATA, countries: "DE", status: 200, encoding: "gzip" });
    expect(lines[0].token).toMatch(/^tok_[0-9a-f]{12}$/);
    expect(lines[1]).toMatchObject({ status: 401 });
    expect(lines[1].token).toBeUndefined();
    const all = origin.log().join("\n");
    for (const secret of [pub.dynamicToken, pub.staticToken, "asp_secret-wrong"]) expect(all).not.toContain(secret);
  });
});

describe("tokens come from the file only", () => {
  it("a revoked token is refused once the file is re-read; a new one works", async () => {
    const made = await cli(["tokens", "create", "--tokens", pub.tokensFile, "--scope", "dynamic", "--name", "temp"]);
    const token = made.out.trim();
    await origin.refresh();
    expect((await request(origin.url, `${DATA}?countries=DE`, auth(token))).status).toBe(200);
    const id = (await cli(["tokens", "list", "--tokens", pub.tokensFile])).out
      .split("\n")
      .find((l) => l.endsWith("\ttemp"))!
      .split("\t")[0]!;
    expect((await cli(["tokens", "revoke", "--tokens", pub.tokensFile, "--id", id])).code).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    await origin.refresh();
    expect((await request(origin.url, `${DATA}?countries=DE`, auth(token))).status).toBe(401);
  });
});

/** Sends bytes on a fresh connection and collects the answer until the server closes it. */
function raw(base: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () => socket.write(text));
    let got = "";
    socket.on("data", (d) => {
      got += d.toString();
    });
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
  });
}
