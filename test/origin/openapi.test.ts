// docs/openapi.yaml against the running origin: every answer's status is documented for its path and method,
// every documented header is sent and matches its schema, and every body validates against its schema (the
// FeatureCollection against the generated contract.schema.json the document references).
import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { currentManifest } from "../../src/publish/read-back.js";
import { statusOf } from "../../src/shadow/status.js";
import { LocalStore } from "../../src/store/local-store.js";
import { FIXTURES, ROOT } from "../helpers.js";
import { cli, DATE, type Published, publishSample, type Reply, type Running, request, serve } from "./harness.js";

type Json = Record<string, unknown>;
const DOCS = path.join(ROOT, "docs");
const doc = parse(readFileSync(path.join(DOCS, "openapi.yaml"), "utf8")) as Json;
const contract = JSON.parse(readFileSync(path.join(DOCS, "contract.schema.json"), "utf8")) as Json;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(contract, "contract.schema.json");

/** Follows `$ref`s inside the document; `contract.schema.json` stays a reference that ajv knows. */
function resolve<T = Json>(node: unknown): T {
  let n = node as Json;
  while (typeof n?.$ref === "string" && (n.$ref as string).startsWith("#/")) {
    n = (n.$ref as string)
      .slice(2)
      .split("/")
      .reduce<Json>((o, k) => o[k] as Json, doc);
  }
  return n as T;
}

/** Schemas with in-document references turned into self-contained ones for ajv. */
function schemaOf(node: unknown): Json {
  const s = resolve(node);
  if (s.$ref === "contract.schema.json") return { $ref: "contract.schema.json" };
  return JSON.parse(JSON.stringify(s), (_, v) =>
    v && typeof v === "object" && typeof v.$ref === "string" && v.$ref.startsWith("#/") ? resolve(v) : v,
  );
}

let pub: Published;
let origin: Running;
/** The day's first version (the later one of 14:00 is live) and tomorrow's. */
let first = "";
beforeAll(async () => {
  pub = await publishSample();
  first = (await currentManifest(new LocalStore(pub.store)))!.version;
  const again = (date: string, now: string) =>
    cli([
      "publish",
      "--airspaces",
      path.join(FIXTURES, "sample"),
      "--date",
      date,
      "--now",
      now,
      "--store",
      pub.store,
      "--tiles",
    ]);
  expect((await again(DATE, `${DATE}T14:00:00Z`)).code).toBe(0);
  expect((await again("2026-09-15", `${DATE}T15:30:00Z`)).code).toBe(0);
  const now = Date.parse("2026-09-14T10:05:00Z");
  const status = statusOf(
    {
      shadowManifestVersion: "20260914T100000Z-0123abcd",
      publishedAt: now,
      queue: { backlog: 0, unresolvedFailures: 0, deadLetters: 0 },
      bootstrap: { state: "complete", loaded: 1, total: 1 },
      parity: { checked: 1, mismatched: 0 },
    },
    now,
  );
  await new LocalStore(pub.store).put("v1/status/master-features.json", Buffer.from(JSON.stringify(status)));
  origin = await serve({ store: pub.store, tokens: pub.tokensFile });
});
afterAll(async () => origin?.close());

/** Checks one real answer against the document; returns what was checked, for the test to assert on. */
function conforms(pathName: string, method: string, r: Reply): { headers: string[]; body: boolean } {
  const op = resolve((resolve(doc.paths) as Json)[pathName]) as Json;
  const operation = op[method.toLowerCase()] as Json;
  expect(operation, `${method} ${pathName} is documented`).toBeDefined();
  const response = resolve((operation.responses as Json)[String(r.status)]);
  expect(response, `${method} ${pathName} → ${r.status} is documented`).toBeDefined();
  const checked: string[] = [];
  for (const [name, h] of Object.entries((response.headers ?? {}) as Json)) {
    const value = r.headers[name.toLowerCase()];
    if (name === "Content-Encoding" && value === undefined) continue; // identity answers
    if ((resolve(h) as Json).required === false && value === undefined) continue; // sent only where it applies
    expect(value, `${r.status} sends ${name}`).toBeDefined();
    const schema = schemaOf((resolve(h) as Json).schema);
    const v = schema.type === "integer" ? Number(value) : value;
    expect(ajv.validate(schema, v), `${name}: ${String(value)} ${ajv.errorsText()}`).toBe(true);
    checked.push(name);
  }
  const content = response.content as Json | undefined;
  if (!content || method === "HEAD" || r.status === 304) return { headers: checked, body: false };
  const type = String(r.headers["content-type"]);
  expect(Object.keys(content), `${r.status} content type`).toContain(type);
  const body = r.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(r.body) : r.body;
  const schema = schemaOf((content[type] as Json).schema);
  const value = /json/.test(type) ? JSON.parse(body.toString("utf8")) : body.toString("utf8");
  expect(ajv.validate(schema, value), ajv.errorsText()).toBe(true);
  return { headers: checked, body: true };
}

describe("docs/openapi.yaml", () => {
  it("is OpenAPI 3.1 and references the generated contract schema", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const collection = resolve(((resolve(doc.components) as Json).responses as Json).Collection) as Json;
    expect(((collection.content as Json)["application/geo+json"] as Json).schema).toEqual({
      $ref: "contract.schema.json",
    });
    expect(Object.keys(doc.paths as Json).sort()).toEqual([
      "/healthz",
      "/published.json",
      "/v1/data/airspaces",
      "/v1/data/airspaces.map",
      "/v1/data/airspaces.openair",
      "/v1/data/changes",
      "/v1/status/master-features",
      "/v1/tiles/{day}.json",
      "/v1/tiles/{day}.pmtiles",
      "/v1/tiles/{day}/{z}/{x}/{y}.mvt",
    ]);
  });

  const P = "/v1/tiles/{day}.pmtiles";
  const J = "/v1/tiles/{day}.json";
  const T = "/v1/tiles/{day}/{z}/{x}/{y}.mvt";
  const tileCases: [string, string, string, Record<string, string>][] = [
    ["GET", P, `/v1/tiles/${DATE}.pmtiles`, {}],
    ["GET", P, "/v1/tiles/today.pmtiles", { Range: "bytes=0-126" }],
    ["GET", P, `/v1/tiles/${DATE}.pmtiles`, { Range: "bytes=99999999-" }],
    ["HEAD", P, "/v1/tiles/tomorrow.pmtiles", {}],
    ["GET", P, "/v1/tiles/2020-01-01.pmtiles", {}],
    ["GET", P, `/v1/tiles/${DATE}.pmtiles?version=x`, {}],
    ["GET", P, `/v1/tiles/${DATE}.pmtiles?scope=static`, {}],
    ["POST", P, `/v1/tiles/${DATE}.pmtiles`, {}],
    ["GET", J, `/v1/tiles/${DATE}.json`, {}],
    ["GET", J, "/v1/tiles/tomorrow.json", {}],
    ["GET", T, `/v1/tiles/${DATE}/9/268/178.mvt`, { "Accept-Encoding": "gzip" }],
    ["GET", T, `/v1/tiles/${DATE}/9/0/0.mvt`, {}],
    ["GET", T, `/v1/tiles/${DATE}/1/5/0.mvt`, {}],
  ];
  it.each(tileCases)("%s %s as %s conforms", async (method, p, target, headers) => {
    const r = await request(origin.url, target, { Authorization: `Bearer ${pub.dynamicToken}`, ...headers }, method);
    const checked = conforms(p, method, r);
    if (method === "GET" && r.status !== 204) expect(checked.body).toBe(true);
    expect(r.status).toBeLessThan(500);
  });
  it("answers the tiles without a token 401, as the document says", async () => {
    const r = await request(origin.url, `/v1/tiles/${DATE}.pmtiles`);
    expect(r.status).toBe(401);
    conforms(P, "GET", r);
  });

  const D = "/v1/data/airspaces";
  const O = "/v1/data/airspaces.openair";
  const C = "/v1/data/changes";
  const M = "/v1/data/airspaces.map";
  const bearer = (p: Published) => ({ Authorization: `Bearer ${p.dynamicToken}`, "Accept-Encoding": "gzip" });
  const cases: [string, string, string | (() => string), (p: Published) => Record<string, string>][] = [
    ["GET", D, "?countries=DE&day=tomorrow", bearer],
    ["GET", D, "?countries=DE&day=2026-09-14&at=2026-09-14T12:00:00Z", bearer],
    ["GET", D, "?countries=DE&day=2020-01-01", bearer],
    ["GET", D, "?countries=DE&day=yesterday", bearer],
    ["GET", D, "?countries=DE&at=2999-01-01T00:00:00Z", bearer],
    ["GET", D, "?countries=DE&at=14:10", bearer],
    ["GET", D, "?countries=DE&at=2020-01-01T00:00:00Z", bearer],
    ["HEAD", D, "?countries=DE&day=2020-01-01", bearer],
    ["GET", O, "?countries=DE", bearer],
    ["GET", O, "?countries=FR&day=tomorrow", (p) => ({ "Accept-Encoding": "gzip", "X-Token-In": p.dynamicToken })],
    ["HEAD", O, "?countries=AT", bearer],
    ["GET", O, "?countries=QQ", bearer],
    ["GET", O, "?countries=DE", () => ({})],
    ["POST", O, "?countries=DE", bearer],
    ["GET", M, "?countries=EUROPE", bearer],
    ["GET", M, "?countries=EUROPE&shapes=boxes", bearer],
    ["GET", M, "?countries=DE&shapes=rings", bearer],
    ["GET", M, "?countries=DE&day=tomorrow", (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["HEAD", M, "?countries=FR", bearer],
    ["GET", M, "?countries=QQ", bearer],
    ["GET", M, "?countries=DE", () => ({})],
    ["PUT", M, "?countries=DE", bearer],
    ["GET", C, () => `?countries=DE,FR&since=${first}`, bearer],
    ["GET", C, () => `?countries=EUROPE&since=${first}`, (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["HEAD", C, () => `?countries=DE&since=${first}`, bearer],
    ["GET", C, "?countries=DE&since=yesterday", bearer],
    ["GET", C, "?countries=DE&since=20200101T000000Z-00000000", bearer],
    ["GET", C, () => `?countries=DE&since=${first}&at=2026-09-14T12:00:00Z`, bearer],
    ["GET", C, () => `?countries=DE&since=${first}&day=2020-01-01`, bearer],
    ["GET", C, () => `?countries=DE&since=${first}`, () => ({})],
    ["DELETE", C, "?countries=DE", bearer],
    ["GET", "/published.json", "", () => ({})],
    ["GET", "/healthz", "", () => ({})],
    ["POST", "/healthz", "", () => ({})],
    ["PATCH", "/published.json", "", () => ({})],
    ["GET", D, "?countries=DE,FR", (p) => ({ Authorization: `Bearer ${p.dynamicToken}`, "Accept-Encoding": "gzip" })],
    ["GET", D, "?countries=EUROPE", (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["HEAD", D, "?countries=AT", (p) => ({ Authorization: `Bearer ${p.dynamicToken}`, "Accept-Encoding": "gzip" })],
    ["GET", D, "?countries=DE&scope=static", (p) => ({ Authorization: `Bearer ${p.staticToken}` })],
    ["GET", D, "?countries=QQ", (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["GET", D, "?countries=DE&scope=x", (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["GET", D, "?countries=DE", () => ({})],
    ["GET", D, "?countries=DE&scope=static", (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["POST", D, "?countries=DE", (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["GET", D, `?countries=DE&pad=${"x".repeat(2100)}`, (p) => ({ Authorization: `Bearer ${p.dynamicToken}` })],
    ["GET", "/v1/status/master-features", "", () => ({})],
    ["HEAD", "/v1/status/master-features", "", () => ({})],
    ["PUT", "/v1/status/master-features", "", () => ({})],
  ];

  it.each(cases)("%s %s%s conforms", async (method, p, q, headers) => {
    const query = typeof q === "string" ? q : q();
    // a token "in" the query: the instrument's way (access_token)
    const { "X-Token-In": inQuery, ...sent } = headers(pub);
    const target = inQuery ? `${p}${query}&access_token=${inQuery}` : `${p}${query}`;
    const r = await request(origin.url, target, sent, method);
    const checked = conforms(p, method, r);
    if (r.status === 200 && p === D)
      expect(checked.headers).toEqual(expect.arrayContaining(["ETag", "X-Data-Version"]));
    if (method === "GET" && r.status !== 304) expect(checked.body).toBe(true);
    if (inQuery) expect(r.headers["cache-control"]).toBe("private, max-age=60");
  });

  it("answers every new bad input with its own problem, never a 500", async () => {
    const statusOf = async (target: string) =>
      JSON.parse((await request(origin.url, target, bearer(pub))).body.toString("utf8")) as Json;
    const slugs = [];
    for (const target of [
      `${D}?countries=DE&day=yesterday`,
      `${D}?countries=DE&day=today&day=tomorrow`,
      `${D}?countries=DE&at=2999-01-01T00:00:00Z`,
      `${D}?countries=DE&at=14:10`,
      `${D}?countries=DE&at=2020-01-01T00:00:00Z`,
      `${D}?countries=DE&day=2020-01-01`,
      `${C}?countries=DE&since=yesterday`,
      `${C}?countries=DE`,
      `${C}?countries=DE&since=20200101T000000Z-00000000`,
      `${C}?countries=DE&since=${first}&at=2026-09-14T12:00:00Z`,
    ]) {
      const p = await statusOf(target);
      slugs.push(`${p.status} ${String(p.type).split(":").pop()}`);
    }
    expect(slugs).toEqual([
      "400 day-malformed",
      "400 day-repeated",
      "400 at-future",
      "400 at-malformed",
      "404 nothing-live-then",
      "404 day-not-published",
      "400 since-malformed",
      "400 since-malformed",
      "410 since-gone",
      "400 changes-at",
    ]);
  });

  it("documents the changes' 304 and the client's loop", async () => {
    const live = (await currentManifest(new LocalStore(pub.store)))!.version;
    expect(live).not.toBe(first);
    const r = await request(origin.url, `${C}?countries=DE&since=${live}`, bearer(pub));
    expect(r.status).toBe(304);
    expect(conforms(C, "GET", r).headers).toEqual(["X-Data-Version", "Cache-Control", "Vary"]);
    const changes = await request(origin.url, `${C}?countries=EUROPE&since=${first}`, { ...bearer(pub) });
    expect(changes.status).toBe(200);
    const body = JSON.parse(zlib.gunzipSync(changes.body).toString("utf8")) as Json;
    expect([body.from, body.to, body.day]).toEqual([first, live, DATE]);
    expect(Object.keys(body.countries as Json).length).toBeGreaterThan(1);
    const tomorrow = await request(origin.url, `${O}?countries=FR&day=tomorrow`, bearer(pub));
    expect([tomorrow.status, tomorrow.headers["content-disposition"]]).toEqual([
      200,
      'attachment; filename="airspaces-FR-2026-09-15.openair"',
    ]);
    const loop = String(((resolve(doc.paths) as Json)[C] as Json & { get: Json }).get.description);
    expect(loop).toMatch(/current\.json/);
    expect(loop).toMatch(/since=/);
  });

  it("documents the 304 answer", async () => {
    const auth = { Authorization: `Bearer ${pub.dynamicToken}`, "Accept-Encoding": "gzip" };
    const first = await request(origin.url, `${D}?countries=CH`, auth);
    const again = await request(origin.url, `${D}?countries=CH`, { ...auth, "If-None-Match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(conforms(D, "GET", again).headers).toEqual(["ETag", "X-Data-Version", "Cache-Control", "Vary"]);
  });
});
