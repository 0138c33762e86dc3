// The PMTiles writer (src/tiles/pmtiles.ts) read back by npm's reader, and the MVT encoder (src/tiles/mvt.ts) against
// @maplibre/vt-pbf, whose bytes it must write.
import { gunzipSync, gzipSync } from "node:zlib";
import type { GeoJSONVTFeature } from "@maplibre/geojson-vt";
import { GeoJSONVT } from "@maplibre/geojson-vt";
import { fromGeojsonVt } from "@maplibre/vt-pbf";
import { describe, expect, it } from "vitest";
import { encodeTile } from "../../src/tiles/mvt.js";
import { writeArchive } from "../../src/tiles/pmtiles.js";
import { openArchive } from "../../src/tiles/read-back.js";

const OPTIONS = {
  minZoom: 0,
  maxZoom: 12,
  bounds: [-10, 35, 30, 70] as [number, number, number, number],
  center: [10, 50, 4] as [number, number, number],
  metadata: { name: "t", vector_layers: [] },
};
const bytesOf = (s: string) => gzipSync(Buffer.from(s));

describe("writeArchive", () => {
  it("is read back by the pmtiles package: header, metadata and every tile's bytes", async () => {
    const tiles = [
      { z: 0, x: 0, y: 0, data: bytesOf("root") },
      { z: 1, x: 1, y: 0, data: bytesOf("one") },
      { z: 3, x: 4, y: 2, data: bytesOf("three") },
    ];
    const a = writeArchive(tiles, OPTIONS);
    const bytes = Buffer.concat(a.pieces);
    expect(bytes.length).toBe(a.bytes);
    const archive = await openArchive(bytes);
    expect(archive.header).toMatchObject({
      specVersion: 3,
      minZoom: 0,
      maxZoom: 12,
      tileCompression: 2,
      tileType: 1,
      numAddressedTiles: 3,
      clustered: true,
    });
    expect(archive.header.minLon).toBeCloseTo(-10, 6);
    expect(archive.header.maxLat).toBeCloseTo(70, 6);
    expect(archive.metadata).toEqual(OPTIONS.metadata);
    for (const t of tiles) expect(Buffer.from((await archive.raw(t.z, t.x, t.y))!)).toEqual(t.data);
    expect(await archive.raw(1, 0, 0)).toBeUndefined();
    expect(await archive.raw(2, 0, 0)).toBeUndefined();
  });

  it("stores equal tiles once, as one run where their TileIds follow each other", async () => {
    const same = bytesOf("same");
    const tiles = [0, 1, 2, 3].map((x) => ({ z: 2, x, y: 0, data: same }));
    const a = writeArchive([...tiles, { z: 0, x: 0, y: 0, data: bytesOf("other") }], OPTIONS);
    const archive = await openArchive(Buffer.concat(a.pieces));
    expect(archive.header.numAddressedTiles).toBe(5);
    expect(archive.header.numTileContents).toBe(2);
    expect(archive.header.tileDataLength).toBe(same.length + bytesOf("other").length);
    for (const t of tiles) expect(Buffer.from((await archive.raw(t.z, t.x, t.y))!)).toEqual(same);
  });

  it("puts its directory into leaves when the root would pass 16 384 bytes, and every tile is still found", async () => {
    // TileIds far apart and lengths of every size: directory entries that gzip does not squeeze into the root
    const tiles = new Map<string, { z: number; x: number; y: number; data: Buffer }>();
    for (let i = 0; i < 40_000; i++) {
      const [x, y] = [(i * 7919) % 512, (i * 104_729) % 509];
      tiles.set(`${x}/${y}`, { z: 9, x, y, data: bytesOf(`${x}/${y}${"+".repeat((i * 31) % 977)}`) });
    }
    const a = writeArchive([...tiles.values()], OPTIONS);
    const bytes = Buffer.concat(a.pieces);
    const archive = await openArchive(bytes);
    expect(archive.header.leafDirectoryLength).toBeGreaterThan(0);
    expect(127 + archive.header.rootDirectoryLength).toBeLessThanOrEqual(16_384);
    for (const t of [...tiles.values()].filter((_, i) => i % 997 === 0)) {
      expect(Buffer.from((await archive.raw(9, t.x, t.y))!)).toEqual(t.data);
      expect(gunzipSync((await archive.raw(9, t.x, t.y))!).toString()).toMatch(new RegExp(`^${t.x}/${t.y}\\+*$`));
    }
  });

  it("refuses what no archive can hold: no tile, or an empty one", () => {
    expect(() => writeArchive([], OPTIONS)).toThrow(/at least one tile/);
    expect(() => writeArchive([{ z: 0, x: 0, y: 0, data: new Uint8Array(0) }], OPTIONS)).toThrow(/empty/);
  });

  it("refuses bytes that are no archive, saying so", async () => {
    await expect(openArchive(Buffer.from("not a PMTiles archive at all"))).rejects.toThrow(/magic number/i);
  });
});

describe("encodeTile", () => {
  it("writes the bytes vt-pbf's fromGeojsonVt writes, for polygons, holes, points and every kind of value", () => {
    const square = (x: number, y: number, d: number) => [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ];
    const index = new GeoJSONVT(
      {
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            properties: { name: "A", n: 1, f: 0.5, neg: -3, b: true, skip: null },
            geometry: { type: "Polygon", coordinates: [square(1, 45, 2), square(1.5, 45.5, 0.5).reverse()] },
          },
          {
            type: "Feature",
            properties: { name: "B", n: 1, f: 0.25, b: false },
            geometry: { type: "MultiPolygon", coordinates: [[square(4, 46, 1)], [square(6, 46, 1)]] },
          },
          { type: "Feature", properties: { name: "1", n: 1 }, geometry: { type: "Point", coordinates: [2, 47] } },
        ],
      },
      { maxZoom: 6, indexMaxZoom: 0, extent: 8192 },
    );
    for (const [z, x, y] of [
      [0, 0, 0],
      [4, 8, 5],
      [6, 32, 22],
    ] as const) {
      const t = index.getTile(z, x, y);
      if (!t) continue;
      const features = t.features as GeoJSONVTFeature[];
      const ours = encodeTile([["layer", features]], 8192);
      const theirs = fromGeojsonVt({ layer: { features } }, { version: 2, extent: 8192 });
      expect(Buffer.from(ours)).toEqual(Buffer.from(theirs));
    }
    expect(index.getTile(0, 0, 0)!.features.length).toBe(3);
  });
});
