// The vector tiles at the origin (issue 60): the PMTiles archive by byte ranges, TileJSON for MapLibre and single
// tiles, under the data endpoint's token and scope rules. The sample is published for real and served on loopback.
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRange } from "../../src/origin/tiles.js";
import { openArchive } from "../../src/tiles/read-back.js";
import { DATE, type Published, publishSample, type Running, request, serve } from "./harness.js";

let pub: Published;
let origin: Running;
const auth = (token = pub.dynamicToken) => ({ authorization: `Bearer ${token}` });
const ARCHIVE = `/v1/tiles/${DATE}.pmtiles`;

beforeAll(async () => {
  pub = await publishSample();
  origin = await serve({ store: pub.store, tokens: pub.tokensFile });
}, 90_000);
afterAll(async () => origin?.close());

/** The whole archive as the origin gives it. */
async function whole(): Promise<Buffer> {
  const r = await request(origin.url, ARCHIVE, auth());
  expect(r.status).toBe(200);
  return r.body;
}

describe("/v1/tiles/{day}.pmtiles", () => {
  it("answers a range for the header, the root directory and a tile with exactly those bytes (206)", async () => {
    const all = await whole();
    const header = await request(origin.url, ARCHIVE, { ...auth(), range: "bytes=0-126" });
    expect(header.status).toBe(206);
    expect(header.headers["accept-ranges"]).toBe("bytes");
    expect(header.headers["content-range"]).toBe(`bytes 0-126/${all.length}`);
    expect(header.body).toEqual(all.subarray(0, 127));
    expect(header.body.subarray(0, 7).toString()).toBe("PMTiles");
    const a = await openArchive(all);
    const { rootDirectoryOffset: at, rootDirectoryLength: n } = a.header;
    const dir = await request(origin.url, ARCHIVE, { ...auth(), range: `bytes=${at}-${at + n - 1}` });
    expect(dir.body).toEqual(all.subarray(at, at + n));
    // a tile's bytes, found by the reader over ranges the origin answers
    const ranged = await openArchive(async (offset, length) => {
      const r = await request(origin.url, ARCHIVE, { ...auth(), range: `bytes=${offset}-${offset + length - 1}` });
      expect(r.status).toBe(206);
      return r.body;
    });
    const [z, x, y] = [9, 268, 178]; // Munich
    const tile = await ranged.raw(z, x, y);
    expect(tile).toBeDefined();
    expect(Buffer.from(tile!)).toEqual(Buffer.from((await a.raw(z, x, y))!));
    expect(new VectorTile(new PbfReader(gunzipSync(tile!))).layers.airspace!.length).toBeGreaterThan(0);
  });

  it("names the archive by its SHA-256: 304 to a client that holds it, and If-Range keeps a range to that one", async () => {
    const r = await request(origin.url, ARCHIVE, auth());
    const etag = r.headers.etag!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(r.headers["content-type"]).toBe("application/vnd.pmtiles");
    expect((await request(origin.url, ARCHIVE, { ...auth(), "if-none-match": etag })).status).toBe(304);
    const kept = await request(origin.url, ARCHIVE, { ...auth(), range: "bytes=0-9", "if-range": etag });
    expect(kept.status).toBe(206);
    const other = await request(origin.url, ARCHIVE, { ...auth(), range: "bytes=0-9", "if-range": '"other"' });
    expect(other.status).toBe(200);
    expect(other.body.length).toBe(r.body.length);
  });

  it("refuses a range past its end (416, the size named) and answers several ranges whole", async () => {
    const size = (await whole()).length;
    const past = await request(origin.url, ARCHIVE, { ...auth(), range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${size}`);
    const two = await request(origin.url, ARCHIVE, { ...auth(), range: "bytes=0-1,5-6" });
    expect(two.status).toBe(200);
    expect(parseRange("bytes=-10", 100)).toEqual([90, 99]);
    expect(parseRange("bytes=10-", 100)).toEqual([10, 99]);
    expect(parseRange("bytes=10-5000", 100)).toEqual([10, 99]);
    expect(parseRange("bytes=-0", 100)).toBe("unsatisfiable");
    expect(parseRange("lines=1-2", 100)).toBeUndefined();
  });

  it("is a token holder's, like the data: 401 without one, 403 for a scope the token lacks, 404 for static", async () => {
    expect((await request(origin.url, ARCHIVE)).status).toBe(401);
    expect((await request(origin.url, `${ARCHIVE}?scope=static`, auth())).status).toBe(403);
    const s = await request(origin.url, `${ARCHIVE}?scope=static`, auth(pub.staticToken));
    expect(s.status).toBe(404);
    expect(JSON.parse(s.body.toString()).detail).toMatch(/dynamic tier only/);
    const q = await request(origin.url, `${ARCHIVE}?access_token=${pub.dynamicToken}`);
    expect(q.status).toBe(200);
    expect(q.headers["cache-control"]).toMatch(/^private/);
  });

  it("gives a pinned version immutable caching, the live one a minute's; odd days and versions are 400 or 404", async () => {
    const live = await request(origin.url, ARCHIVE, auth());
    expect(live.headers["cache-control"]).toMatch(/max-age=60/);
    const version = live.headers["x-data-version"] as string;
    const pinned = await request(origin.url, `${ARCHIVE}?version=${version}`, auth());
    expect(pinned.status).toBe(200);
    expect(pinned.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await request(origin.url, `/v1/tiles/today.pmtiles?version=${version}`, auth())).status).toBe(200);
    expect((await request(origin.url, `${ARCHIVE}?version=nope`, auth())).status).toBe(400);
    expect((await request(origin.url, `/v1/tiles/2020-01-01.pmtiles?version=${version}`, auth())).status).toBe(404);
    expect((await request(origin.url, "/v1/tiles/2020-01-01.pmtiles", auth())).status).toBe(404);
    expect((await request(origin.url, `${ARCHIVE}?day=today`, auth())).status).toBe(400);
    expect((await request(origin.url, "/v1/tiles/yesterday.pmtiles", auth())).status).toBe(404);
  });
});

describe("/v1/tiles/{day}.json and /{z}/{x}/{y}.mvt", () => {
  it("gives TileJSON whose tile URLs name the version and answer the archive's tiles", async () => {
    const r = await request(origin.url, `/v1/tiles/${DATE}.json`, { ...auth(), host: "tiles.example:8080" });
    expect(r.status).toBe(200);
    const doc = JSON.parse(r.body.toString());
    expect(doc).toMatchObject({ tilejson: "3.0.0", scheme: "xyz", minzoom: 0, maxzoom: 9 });
    expect(doc.vector_layers.map((l: { id: string }) => l.id)).toEqual(["airspace", "graphicalNotam"]);
    expect(doc.attribution).toMatch(/openAIP/);
    expect(doc.bounds[0]).toBeLessThan(doc.bounds[2]);
    expect(doc.tiles[0]).toMatch(
      new RegExp(
        `^http://tiles.example:8080/v1/tiles/${DATE}/\\{z\\}/\\{x\\}/\\{y\\}\\.mvt\\?version=\\d{8}T\\d{6}Z-[0-9a-f]{8}$`,
      ),
    );
    const path = doc.tiles[0].replace("http://tiles.example:8080", "").replace("{z}/{x}/{y}", "9/268/178");
    const tile = await request(origin.url, path, { ...auth(), "accept-encoding": "gzip" });
    expect(tile.status).toBe(200);
    expect(tile.headers["content-encoding"]).toBe("gzip");
    expect(tile.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const a = await openArchive(await whole());
    expect(tile.body).toEqual(Buffer.from((await a.raw(9, 268, 178))!));
    const plain = await request(origin.url, path, auth());
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(gunzipSync(tile.body));
    expect((await request(origin.url, path, { ...auth(), "if-none-match": tile.headers.etag! })).status).toBe(304);
  });

  it("answers a tile with nothing in it 204 (an empty tile, no error for a map) and one off the grid 400", async () => {
    const empty = await request(origin.url, `/v1/tiles/${DATE}/9/0/0.mvt`, auth());
    expect(empty.status).toBe(204);
    expect((await request(origin.url, `/v1/tiles/${DATE}/2/4/0.mvt`, auth())).status).toBe(400);
    expect((await request(origin.url, `/v1/tiles/${DATE}/9/0/0.mvt`)).status).toBe(401);
  });

  it("lets a map on any site read them (CORS): a preflight is 204, every answer names the headers a reader needs", async () => {
    const pre = await request(
      origin.url,
      ARCHIVE,
      { origin: "https://maps.example", "access-control-request-headers": "authorization, range" },
      "OPTIONS",
    );
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    expect(pre.headers["access-control-allow-headers"]).toMatch(/Authorization, Range/);
    const r = await request(origin.url, ARCHIVE, { ...auth(), range: "bytes=0-9" });
    expect(r.headers["access-control-expose-headers"]).toMatch(/Content-Range/);
    expect((await request(origin.url, ARCHIVE)).headers["access-control-allow-origin"]).toBe("*");
    // the data endpoint stays as it was: same origin only
    const data = await request(origin.url, "/v1/data/airspaces?countries=DE", auth());
    expect(data.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("logs the form, never the day or the tile", () => {
    const paths = origin.log().map((l) => JSON.parse(l).path as string);
    expect(paths).toContain("/v1/tiles/{day}.pmtiles");
    expect(paths).toContain("/v1/tiles/{day}/{z}/{x}/{y}.mvt");
    expect(paths.some((p) => p.includes(DATE))).toBe(false);
  });
});
