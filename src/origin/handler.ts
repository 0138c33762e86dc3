// The /v1 origin's request handler (docs/design.md §6): routing, bearer auth, the countries and scope parameters,
// conditional requests, gzip or identity, RFC 9457 problems, one access log line per request (never a token).
import type { IncomingMessage, ServerResponse } from "node:http";
import { createGunzip } from "node:zlib";
import type { VersionManifest } from "../model/manifest.js";
import { dayAfter } from "../model/time.js";
import type { Tier } from "../model/vocab.js";
import { type Answer, answer, type Form } from "./answer.js";
import { sendChanges } from "./changes.js";
import { EUROPE, parseCountries } from "./countries.js";
import type { ExplainView } from "./explain.js";
import {
  type AccessLine,
  acceptsGzip,
  DATA_CACHE,
  matches,
  PRIVATE_CACHE,
  STATUS_CACHE,
  send,
  sendAsset,
} from "./http.js";
import { PROBLEMS, type Problem } from "./problem.js";
import type { TierView } from "./published.js";
import { select } from "./selection.js";
import { loggedPath, sendTiles, tilesTarget } from "./tiles.js";
import { bearer, type TokenEntry, type TokenFile, verifyToken } from "./tokens.js";

export interface OriginDeps {
  views: { dynamic: TierView; static: TierView };
  /** The token file as last read. */
  tokens: () => TokenFile;
  /** The status document's bytes as last read, if any. */
  status: () => Buffer | undefined;
  /** The live version's explanations, for the map page's popup; `/explain.json` is not found without them. */
  explanations?: ExplainView;
  /** An object of the store (change sets for `/v1/data/changes`). */
  read?: (key: string) => Promise<Buffer | undefined>;
  /** The map page's files by path (`/`, `/app.js`, …), served to anyone; none when absent. */
  assets?: ReadonlyMap<string, { body: Buffer; type: string }>;
  /** One line per request. */
  log: (line: AccessLine) => void;
  /** A monotonic clock for the request's duration. */
  clock: () => number;
  /** The wall clock, epoch ms: `at` after it is refused. @default Date.now */
  wallClock?: () => number;
}

const DATA = "/v1/data/airspaces";
/** The same data as OpenAir for instruments (docs/design.md §8). */
const OPENAIR = "/v1/data/airspaces.openair";
/** The map page's compact form of the same data (src/origin/map-form.ts): summaries and quantised rings. */
const MAP = "/v1/data/airspaces.map";
/** What changed since a version the client holds (docs/design.md §8). */
const CHANGES = "/v1/data/changes";
const STATUS = "/v1/status/master-features";
/** The map page's list of what is published (codes and counts, like the status: no feature, no token needed). */
const PUBLISHED = "/published.json";
/** Why a feature has its state (`?id=`), for the map page's popup: a token holder's, like the data. */
const EXPLAIN = "/explain.json";
/** One feature of a version's country (`?countries=GB&id=`), for the map page's popup: a token holder's, like the data. */
const FEATURE = "/feature.json";
/** Liveness for a container's health check and a load balancer: 200 while a version is live, else 503. */
const HEALTH = "/healthz";
/** The paths always answered (the map page's files and `/explain.json` depend on what the origin was given). */
const KNOWN: ReadonlySet<string> = new Set([DATA, OPENAIR, MAP, CHANGES, STATUS, PUBLISHED, FEATURE, HEALTH]);
const MAX_TARGET = 2048;
/** CORS of the tiles (issue 60): a map on any site reads them, by ranges and with its bearer token. */
const TILES_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD",
  "Access-Control-Allow-Headers": "Authorization, Range, If-None-Match, If-Range",
  "Access-Control-Expose-Headers": "ETag, Content-Range, Accept-Ranges, Content-Length, X-Data-Version, X-Data-Day",
  "Access-Control-Max-Age": "86400",
};
const CONTENT_TYPES = {
  geojson: "application/geo+json",
  openair: "text/plain; charset=utf-8",
  map: "application/octet-stream",
  mapBoxes: "application/octet-stream",
} as const;

/**
 * What every request of a version asks of its manifest, worked out once per manifest instead of per request: its
 * published codes, sorted (the countries parameter is checked against them), and its Last-Modified date.
 */
const facts = new WeakMap<VersionManifest, { codes: readonly string[]; lastModified: string }>();

function factsOf(m: VersionManifest): { codes: readonly string[]; lastModified: string } {
  let f = facts.get(m);
  if (!f) {
    f = { codes: Object.keys(m.countries).sort(), lastModified: new Date(m.publishedAt).toUTCString() };
    facts.set(m, f);
  }
  return f;
}

export function createHandler(deps: OriginDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = deps.clock();
    const line: AccessLine = { method: req.method ?? "", path: "", status: 0, bytes: 0, ms: 0 };
    let finished = false;
    res.once("finish", () => {
      finished = true;
    });
    // `close` comes once for every response: after `finish` when the answer went out whole, alone when the
    // connection ended first (the client left, or the answer failed midway), where `finish` never comes
    res.once("close", () => {
      line.status = res.statusCode;
      line.ms = deps.clock() - started;
      if (!finished) line.aborted = true;
      deps.log(line);
    });
    handle(deps, req, res, line).catch(() => {
      // nothing of the error reaches the client: the store or a fragment failed under this request
      if (!res.headersSent)
        send(res, PROBLEMS.unavailable("The data store could not be read; try again shortly."), line);
      else res.destroy();
    });
  };
}

/** Routing: the target's path, the method, the public answers, then the token and the token holders' answers. */
async function handle(deps: OriginDeps, req: IncomingMessage, res: ServerResponse, line: AccessLine): Promise<void> {
  const target = req.url ?? "";
  if (target.length > MAX_TARGET) return send(res, PROBLEMS.uriTooLong(), line);
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  const asset = deps.assets?.get(path);
  const tiles = tilesTarget(path);
  const known =
    asset !== undefined ||
    tiles !== undefined ||
    KNOWN.has(path) ||
    (path === EXPLAIN && deps.explanations !== undefined);
  line.path = tiles ? loggedPath(tiles) : known ? path : "(other)";
  if (!known) return send(res, PROBLEMS.notFound(), line);
  // the tiles are read by web maps on other sites (a bearer token, no cookie: any origin may ask)
  if (tiles) {
    for (const [k, v] of Object.entries(TILES_CORS)) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.statusCode = 204;
      return void res.end();
    }
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    return send(res, PROBLEMS.method(), line);
  }
  if (path === HEALTH) return sendHealth(deps, req, res, line);
  if (path === STATUS) return sendStatus(deps, req, res, line);
  if (path === PUBLISHED) return sendPublished(deps, req, res, line);
  if (asset) return sendAsset(asset, req, res, line);

  const params = new URLSearchParams(q < 0 ? "" : target.slice(q + 1));
  const auth = authorize(deps, req, params, res, line);
  if (!auth) return;
  if (path === EXPLAIN) return sendExplanation(deps, deps.explanations!, params, req, res, line);
  if (path === FEATURE) return sendFeature(deps, params, req, res, line);
  if (tiles) {
    const tier = tierOf(auth.token, params, res, line);
    if (!tier) return;
    const now = (deps.wallClock ?? Date.now)();
    return sendTiles(deps.views[tier], tiles, params, auth.inQuery, now, req, res, line);
  }
  return sendData(deps, path, params, auth, req, res, line);
}

/** The tier `scope=` asks for, when the token may read it; else the problem is sent and undefined returned. */
function tierOf(token: TokenEntry, params: URLSearchParams, res: ServerResponse, line: AccessLine): Tier | undefined {
  const scopes = params.getAll("scope");
  line.scope = scopes.join(",").slice(0, 20);
  if (scopes.length > 1 || (scopes[0] !== undefined && scopes[0] !== "dynamic" && scopes[0] !== "static")) {
    send(res, PROBLEMS.badScope(), line);
    return undefined;
  }
  const tier = scopes[0] === "static" ? "static" : "dynamic";
  if (!allowed(token, tier)) {
    send(res, PROBLEMS.forbidden(), line);
    return undefined;
  }
  return tier;
}

/**
 * A data endpoint (GeoJSON, OpenAir, the map form, changes) to a token holder: the scope it may read, the version
 * the request selects and its countries.
 */
async function sendData(
  deps: OriginDeps,
  path: string,
  params: URLSearchParams,
  auth: { token: TokenEntry; inQuery: boolean },
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): Promise<void> {
  const tier = tierOf(auth.token, params, res, line);
  if (!tier) return;
  const view = deps.views[tier];
  if (path === CHANGES && params.has("at")) return send(res, PROBLEMS.changesAt(), line);
  const selected = await select(view, params, (deps.wallClock ?? Date.now)());
  if ("problem" in selected) return send(res, selected.problem, line);
  const manifest = selected.manifest;
  const parsed = parseCountries(params.getAll("countries"), factsOf(manifest).codes);
  if ("problem" in parsed) return send(res, parsed.problem, line);
  line.countries = parsed.codes.join(",");
  // a token in the URL (instruments send no headers) must not be kept by a shared cache (RFC 6750 §2.3)
  const cache = auth.inQuery ? PRIVATE_CACHE : DATA_CACHE;
  if (path === CHANGES) {
    const read = (key: string) => deps.read?.(key) ?? Promise.resolve(undefined);
    return sendChanges(read, view, manifest, parsed.codes, params, req, res, line, cache);
  }
  const shapes = params.getAll("shapes");
  if (shapes.length > 0 && (path !== MAP || shapes.length > 1 || shapes[0] !== "boxes"))
    return send(res, PROBLEMS.badShapes(), line);
  const form = path === OPENAIR ? "openair" : path === MAP ? (shapes.length > 0 ? "mapBoxes" : "map") : "geojson";
  const body = await answer(view, manifest, parsed.codes, form);
  sendAnswer(body, manifest, parsed.codes, form, cache, req, res, line);
}

/** A data answer: its headers, 304 to a client that holds it, else the body in gzip or inflated. */
function sendAnswer(
  body: Answer,
  manifest: VersionManifest,
  codes: readonly string[],
  form: Form,
  cache: string,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): void {
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  const etag = gzip ? body.etag : `${body.etag.slice(0, -1)}-identity"`;
  line.encoding = gzip ? "gzip" : "identity";
  res.setHeader("Content-Type", CONTENT_TYPES[form]);
  if (form === "openair") {
    const name = `airspaces-${codes.join("-")}-${manifest.date}.openair`;
    res.setHeader("Content-Disposition", `attachment; filename="${name}"`);
  }
  res.setHeader("ETag", etag);
  res.setHeader("X-Data-Version", manifest.version);
  res.setHeader("X-Data-Day", manifest.date);
  // one country's collection: the digest its features must have, for a client to check what it holds (issue 51)
  const digest = form === "geojson" && codes.length === 1 ? manifest.countries[codes[0]!]?.featuresSha256 : undefined;
  if (digest) res.setHeader("X-Features-SHA256", digest);
  res.setHeader("Last-Modified", factsOf(manifest).lastModified);
  res.setHeader("Cache-Control", cache);
  res.setHeader("Vary", "Accept-Encoding");
  if (matches(req.headers["if-none-match"], etag)) {
    res.statusCode = 304;
    return void res.end();
  }
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", gzip ? body.gzBytes : body.bytes);
  line.bytes = gzip ? body.gzBytes : body.bytes;
  if (req.method === "HEAD") return void res.end();
  if (!gzip) return void sendInflated(body.pieces, res);
  res.cork();
  for (const p of body.pieces) res.write(p);
  res.end();
  res.uncork();
}

/**
 * The gzip member inflated, for a client that refuses gzip. The last bytes go out with `end()`: a client holding
 * every byte of Content-Length may close at once, and an answer not ended by then never finishes.
 */
function sendInflated(pieces: readonly Buffer[], res: ServerResponse): void {
  const gunzip = createGunzip();
  let held: Buffer | undefined;
  gunzip.on("data", (chunk: Buffer) => {
    if (held && !res.write(held)) {
      gunzip.pause();
      res.once("drain", () => gunzip.resume());
    }
    held = chunk;
  });
  gunzip.once("end", () => res.end(held));
  gunzip.once("error", () => res.destroy());
  res.once("close", () => gunzip.destroy());
  for (const p of pieces) gunzip.write(p);
  gunzip.end();
}

/**
 * The request's token when it is valid: from `Authorization: Bearer`, or (instruments cannot send headers) from one
 * `access_token` query parameter (RFC 6750 §2.3), never both. Otherwise a 401 (or 400) is sent and undefined
 * returned. The token itself is never logged: the access line names its id.
 */
function authorize(
  deps: OriginDeps,
  req: IncomingMessage,
  params: URLSearchParams,
  res: ServerResponse,
  line: AccessLine,
): { token: TokenEntry; inQuery: boolean } | undefined {
  const inQuery = params.getAll("access_token");
  if (inQuery.length > 0 && (inQuery.length > 1 || req.headers.authorization !== undefined)) {
    send(res, PROBLEMS.twoTokens(), line);
    return undefined;
  }
  const auth = inQuery.length === 1 ? bearer(`Bearer ${inQuery[0]}`) : bearer(req.headers.authorization);
  const token = "token" in auth ? verifyToken(deps.tokens(), auth.token) : undefined;
  if (!token) {
    res.setHeader("WWW-Authenticate", `Bearer realm="airspaces"${"token" in auth ? ', error="invalid_token"' : ""}`);
    send(res, PROBLEMS.unauthorized("missing" in auth ? auth.missing : "The token is not valid."), line);
    return undefined;
  }
  line.token = token.id;
  return { token, inQuery: inQuery.length === 1 };
}

/** The one id a popup's request names and the dynamic version it shows (explain and feature alike), or the problem. */
async function popupTarget(
  deps: OriginDeps,
  params: URLSearchParams,
  path: string,
): Promise<{ id: string; m: VersionManifest } | { problem: Problem }> {
  const ids = params.getAll("id");
  const id = ids[0];
  if (ids.length !== 1 || !id || id.length > 200) return { problem: PROBLEMS.badId(path) };
  // the version the map page shows: today by default, tomorrow or a past instant when it asks
  const selected = await select(deps.views.dynamic, params, (deps.wallClock ?? Date.now)());
  return "problem" in selected ? selected : { id, m: selected.manifest };
}

/** `{version, id, rule, because}` of one feature of the live dynamic version. */
async function sendExplanation(
  deps: OriginDeps,
  explanations: ExplainView,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): Promise<void> {
  const asked = await popupTarget(deps, params, EXPLAIN);
  if ("problem" in asked) return send(res, asked.problem, line);
  const { id, m } = asked;
  const why = await explanations.of(m.version, id);
  if (!why) return send(res, PROBLEMS.noExplanation(m.version), line);
  const body = Buffer.from(`${JSON.stringify(why)}\n`);
  sendAsset({ body, type: "application/json", cache: "private, max-age=60" }, req, res, line);
}

/** One feature of a country of the dynamic version the page shows, as published. */
async function sendFeature(
  deps: OriginDeps,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): Promise<void> {
  const asked = await popupTarget(deps, params, FEATURE);
  if ("problem" in asked) return send(res, asked.problem, line);
  const { id, m } = asked;
  const parsed = parseCountries(params.getAll("countries"), factsOf(m).codes);
  if ("problem" in parsed) return send(res, parsed.problem, line);
  const [cc] = parsed.codes;
  if (parsed.codes.length !== 1 || !cc || cc === EUROPE) return send(res, PROBLEMS.oneCountry(), line);
  line.countries = cc;
  const text = await deps.views.dynamic.featureText(m, cc, id);
  if (text === undefined) return send(res, PROBLEMS.noFeature(m.version, cc), line);
  res.setHeader("X-Data-Version", m.version);
  sendAsset({ body: Buffer.from(text), type: "application/geo+json", cache: "private, max-age=60" }, req, res, line);
}

function sendHealth(deps: OriginDeps, req: IncomingMessage, res: ServerResponse, line: AccessLine): void {
  const m = deps.views.dynamic.current;
  if (!m) return void send(res, PROBLEMS.unavailable("Nothing is published yet."), line);
  const body = Buffer.from(`${JSON.stringify({ status: "ok", version: m.version, date: m.date })}\n`);
  sendAsset({ body, type: "application/json", cache: "no-store" }, req, res, line);
}

function sendStatus(deps: OriginDeps, req: IncomingMessage, res: ServerResponse, line: AccessLine): void {
  const doc = deps.status();
  if (!doc) return void send(res, PROBLEMS.unavailable("No diagnostics are published yet."), line);
  sendAsset({ body: doc, type: "application/json", cache: STATUS_CACHE }, req, res, line);
}

/**
 * `{version, date, publishedAt, countries: {GB: {airspaces, graphicalNotams, total}}, tiles, tomorrow?: {…the same}}`: the
 * live version of today, and of tomorrow once it is published (docs/design.md §8).
 */
async function sendPublished(
  deps: OriginDeps,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): Promise<void> {
  const view = deps.views.dynamic;
  const m = view.current;
  if (!m) return void send(res, PROBLEMS.unavailable("Nothing is published yet."), line);
  const about = (v: VersionManifest) => ({
    version: v.version,
    date: v.date,
    publishedAt: v.publishedAt,
    countries: Object.fromEntries(Object.entries(v.countries).map(([cc, c]) => [cc, c.count])),
    // whether the version has vector tiles: the map page draws them where it does (docs/tiles.md)
    tiles: v.tiles !== undefined,
  });
  const next = await view.head(dayAfter(m.date), (deps.wallClock ?? Date.now)()).catch(() => undefined);
  const doc = { ...about(m), ...(next ? { tomorrow: about(next) } : {}) };
  sendAsset(
    { body: Buffer.from(`${JSON.stringify(doc)}\n`), type: "application/json", cache: STATUS_CACHE },
    req,
    res,
    line,
  );
}

const allowed = (token: TokenEntry, tier: "dynamic" | "static") => token.scopes.includes(tier);
