// The vector tiles of a day (issue 60, docs/tiles.md), to a token holder like the data:
//   /v1/tiles/{day}.pmtiles          the PMTiles archive, whole or by one byte range (206, Accept-Ranges, 416)
//   /v1/tiles/{day}.json             TileJSON 3.0.0 for MapLibre, its tile URLs naming the version
//   /v1/tiles/{day}/{z}/{x}/{y}.mvt  one tile (204 where the archive has none: an empty tile, not an error)
// `{day}` is today, tomorrow or YYYY-MM-DD; `version=` names one version of that day, whose bytes never change
// (immutable caching), else the day's live version answers (a minute's caching, like the data).
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import type { VersionManifest } from "../model/manifest.js";
import type { Archive } from "../tiles/read-back.js";
import { type AccessLine, acceptsGzip, DATA_CACHE, matches, PRIVATE_CACHE, send } from "./http.js";
import { problem } from "./problem.js";
import type { TierView } from "./published.js";
import { select } from "./selection.js";

const PATH =
  /^\/v1\/tiles\/(today|tomorrow|\d{4}-\d{2}-\d{2})(?:\.(pmtiles|json)|\/(\d{1,2})\/(\d{1,7})\/(\d{1,7})\.mvt)$/;
const IMMUTABLE = "public, max-age=31536000, immutable";
const PRIVATE_IMMUTABLE = "private, max-age=31536000, immutable";

export interface TilesTarget {
  day: string;
  form: "pmtiles" | "json" | "mvt";
  z?: number;
  x?: number;
  y?: number;
}

/** The tiles target of `path`, or undefined when it is none. */
export function tilesTarget(path: string): TilesTarget | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  if (m[2]) return { day: m[1]!, form: m[2] as "pmtiles" | "json" };
  return { day: m[1]!, form: "mvt", z: Number(m[3]), x: Number(m[4]), y: Number(m[5]) };
}

/** The access log's path: the form, not the day or tile (a log line names no place a pilot looked at). */
export const loggedPath = (t: TilesTarget) =>
  t.form === "mvt" ? "/v1/tiles/{day}/{z}/{x}/{y}.mvt" : `/v1/tiles/{day}.${t.form}`;

const bad = (slug: string, detail: string) => problem(400, slug, "Bad Request", detail);

export async function sendTiles(
  view: TierView,
  t: TilesTarget,
  params: URLSearchParams,
  inQuery: boolean,
  wallNow: number,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): Promise<void> {
  if (view.tier !== "dynamic") {
    return send(
      res,
      problem(404, "no-tiles", "Not Found", "Vector tiles are published for the dynamic tier only."),
      line,
    );
  }
  if (params.has("day"))
    return send(res, bad("day-repeated", "The day is in the path: /v1/tiles/{day}.pmtiles."), line);
  const versions = params.getAll("version");
  if (versions.length > 1) return send(res, bad("version-repeated", "Give version once."), line);
  const picked = await pick(view, t.day, versions[0], params, wallNow);
  if ("problem" in picked) return send(res, picked.problem, line);
  const m = picked.manifest;
  const held = await view.tilesOf(m);
  if (!m.tiles || !held) {
    const why = m.tiles ? "its archive is no longer kept" : "it was published before vector tiles";
    return send(res, problem(404, "no-tiles", "Not Found", `Version ${m.version} has no vector tiles: ${why}.`), line);
  }
  const pinned = versions.length === 1;
  const cache = pinned ? (inQuery ? PRIVATE_IMMUTABLE : IMMUTABLE) : inQuery ? PRIVATE_CACHE : DATA_CACHE;
  res.setHeader("X-Data-Version", m.version);
  res.setHeader("X-Data-Day", m.date);
  res.setHeader("Last-Modified", new Date(m.publishedAt).toUTCString());
  res.setHeader("Cache-Control", cache);
  if (t.form === "pmtiles") return sendArchive(held.bytes, `"${m.tiles.sha256}"`, req, res, line);
  if (t.form === "json") return sendTileJson(m, held.archive, params, inQuery, req, res, line);
  const z = t.z!;
  const [x, y] = [t.x!, t.y!];
  if (z > 30 || x >= 2 ** z || y >= 2 ** z) {
    return send(res, bad("tile-outside", `Tile ${z}/${x}/${y} is not one of zoom ${z}'s.`), line);
  }
  const tile = z <= m.tiles.maxZoom ? await held.archive.raw(z, x, y) : undefined;
  res.setHeader("Vary", "Accept-Encoding");
  const etag = `"${m.tiles.sha256.slice(0, 16)}-${z}-${x}-${y}"`;
  res.setHeader("ETag", etag);
  if (matches(req.headers["if-none-match"], etag)) {
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader("Content-Type", "application/vnd.mapbox-vector-tile");
  if (!tile) {
    res.statusCode = 204;
    return void res.end();
  }
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  const body = gzip ? Buffer.from(tile) : gunzipSync(tile);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  line.encoding = gzip ? "gzip" : "identity";
  res.setHeader("Content-Length", body.length);
  line.bytes = body.length;
  res.end(req.method === "HEAD" ? undefined : body);
}

/** The version a tiles request names: `version=` (one of the day's), else what selection gives for the day. */
async function pick(
  view: TierView,
  day: string,
  version: string | undefined,
  params: URLSearchParams,
  wallNow: number,
): Promise<{ manifest: VersionManifest } | { problem: ReturnType<typeof problem> }> {
  const query = new URLSearchParams(params);
  query.set("day", day);
  if (version === undefined) return select(view, query, wallNow);
  if (!/^\d{8}T\d{6}Z-[0-9a-f]{8}$/.test(version)) {
    return { problem: bad("version-malformed", "version takes a version as X-Data-Version names it.") };
  }
  if (params.has("at")) return { problem: bad("version-and-at", "Give version or at, not both.") };
  const m = await view.record.manifest(version);
  const date = day === "today" ? view.current?.date : day === "tomorrow" ? undefined : day;
  if (!m || (date !== undefined && m.date !== date)) {
    return { problem: problem(404, "no-version", "Not Found", `No version ${version} of ${day} is kept.`) };
  }
  return { manifest: m };
}

/** The archive, whole (200) or the one byte range asked (206); a range past its end is 416 (RFC 9110 §14). */
function sendArchive(bytes: Buffer, etag: string, req: IncomingMessage, res: ServerResponse, line: AccessLine): void {
  res.setHeader("Content-Type", "application/vnd.pmtiles");
  res.setHeader("Accept-Ranges", "bytes");
  res.setHeader("ETag", etag);
  if (matches(req.headers["if-none-match"], etag)) {
    res.statusCode = 304;
    return void res.end();
  }
  const ifRange = req.headers["if-range"];
  const range = ifRange === undefined || String(ifRange).trim() === etag ? req.headers.range : undefined;
  const r = range === undefined ? undefined : parseRange(range, bytes.length);
  if (r === "unsatisfiable") {
    res.setHeader("Content-Range", `bytes */${bytes.length}`);
    send(
      res,
      problem(416, "range-not-satisfiable", "Range Not Satisfiable", `The archive has ${bytes.length} bytes.`),
      line,
    );
    return;
  }
  const [start, end] = r ?? [0, bytes.length - 1];
  if (r) {
    res.statusCode = 206;
    res.setHeader("Content-Range", `bytes ${start}-${end}/${bytes.length}`);
  }
  res.setHeader("Content-Length", end - start + 1);
  line.bytes = end - start + 1;
  res.end(req.method === "HEAD" ? undefined : bytes.subarray(start, end + 1));
}

/**
 * One `bytes=` range as [first, last] within `size`; undefined (the whole archive, as RFC 9110 lets a server answer)
 * for several ranges or a header that is no byte range; "unsatisfiable" for a range that starts past the end.
 */
export function parseRange(header: string, size: number): [number, number] | "unsatisfiable" | undefined {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return [Math.max(0, size - suffix), size - 1];
  }
  const first = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (first >= size) return "unsatisfiable";
  if (last < first) return undefined;
  return [first, last];
}

/** TileJSON 3.0.0: the version's tile URLs (immutable), its zooms, bounds and layers, for MapLibre's `url`. */
function sendTileJson(
  m: VersionManifest,
  archive: Archive,
  params: URLSearchParams,
  inQuery: boolean,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): void {
  const meta = (archive.metadata ?? {}) as Record<string, unknown>;
  const h = archive.header;
  const tiles = m.tiles!;
  const proto = String(req.headers["x-forwarded-proto"] ?? "http")
    .split(",")[0]!
    .trim();
  const host = req.headers["x-forwarded-host"] ?? req.headers.host ?? "localhost";
  // a token given in the URL goes on to the tiles (an app that cannot send headers); a header's never does
  const token = inQuery ? `&access_token=${encodeURIComponent(params.get("access_token") ?? "")}` : "";
  const url = `${proto}://${host}/v1/tiles/${m.date}/{z}/{x}/{y}.mvt?version=${m.version}${token}`;
  const doc = {
    tilejson: "3.0.0",
    name: meta.name,
    description: meta.description,
    attribution: meta.attribution,
    version: "1.0.0",
    scheme: "xyz",
    tiles: [url],
    minzoom: tiles.minZoom,
    maxzoom: tiles.maxZoom,
    bounds: [h.minLon, h.minLat, h.maxLon, h.maxLat],
    center: [h.centerLon, h.centerLat, h.centerZoom],
    vector_layers: meta.vector_layers,
    "x-data-version": m.version,
    "x-data-day": m.date,
  };
  const body = Buffer.from(`${JSON.stringify(doc)}\n`);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("ETag", etag);
  if (matches(req.headers["if-none-match"], etag)) {
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader("Content-Length", body.length);
  line.bytes = body.length;
  res.end(req.method === "HEAD" ? undefined : body);
}
