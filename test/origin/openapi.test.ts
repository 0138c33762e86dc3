// docs/openapi.yaml against the running origin: every answer's status is documented for its path and method,
// every documented header is sent and matches its schema, and every body validates against its schema (the
// FeatureCollection against the generated contract.schema.json the document references).
import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { LocalStore } from "../../src/publish/local-store.js";
import { statusOf } from "../../src/shadow/status.js";
import { ROOT } from "../helpers.js";
import { type Published, publishSample, type Reply, type Running, request, serve } from "./harness.js";

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
beforeAll(async () => {
  pub = await publishSample();
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
  expect(ajv.validate(schema, JSON.parse(body.toString("utf8"))), ajv.errorsText()).toBe(true);
  return { headers: checked, body: true };
}

describe("docs/openapi.yaml", () => {
  it("is OpenAPI 3.1 and references the generated contract schema", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const collection = resolve(((resolve(doc.components) as Json).responses as Json).Collection) as Json;
    expect(((collection.content as Json)["application/geo+json"] as Json).schema).toEqual({
      $ref: "contract.schema.json",
    });
    expect(Object.keys(doc.paths as Json).sort()).toEqual(["/v1/data/airspaces", "/v1/status/master-features"]);
  });

  const D = "/v1/data/airspaces";
  const cases: [string, string, string, (p: Published) => Record<string, string>][] = [
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

  it.each(cases)("%s %s%s conforms", async (method, p, query, headers) => {
    const r = await request(origin.url, `${p}${query}`, headers(pub), method);
    const checked = conforms(p, method, r);
    if (r.status === 200 && p === D)
      expect(checked.headers).toEqual(expect.arrayContaining(["ETag", "X-Data-Version"]));
    if (method === "GET" && r.status !== 304) expect(checked.body).toBe(true);
  });

  it("documents the 304 answer", async () => {
    const auth = { Authorization: `Bearer ${pub.dynamicToken}`, "Accept-Encoding": "gzip" };
    const first = await request(origin.url, `${D}?countries=CH`, auth);
    const again = await request(origin.url, `${D}?countries=CH`, { ...auth, "If-None-Match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(conforms(D, "GET", again).headers).toEqual(["ETag", "X-Data-Version", "Cache-Control", "Vary"]);
  });
});
