// A refresh's tiles: the earlier archive with the tiles of the features whose properties changed written again, the
// rest copied as they are. A refresh changes activation, never geometry (src/refresh.ts: no input changed), so a
// tile's features keep their positions and order; their properties are replaced, and the tile is encoded and
// gzipped as a build would (test/tiles/patch.test.ts: byte for byte what a build of the changed features gives).
// The build cost 12-18 s at Europe scale for a refresh that changed a few features; this reads the tiles those
// features' boxes reach.
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import type { GeoJSONVTFeature } from "@maplibre/geojson-vt";
import { PbfReader } from "pbf";
import type { Feature } from "../model/contract.js";
import type { UtcDay } from "../model/time.js";
import { gzipTile, mercatorBox, tileFeatureProperties } from "./build.js";
import { encodeTile } from "./mvt.js";
import type { Tile } from "./pmtiles.js";
import { type TileEntry, tileEntries } from "./read-back.js";

export interface Patched {
  tiles: Tile[];
  /** Tiles decoded to look for the changed features, and those written again. */
  read: number;
  rewritten: number;
}

/** The tiles of archive `old` with `changed` (features of the same `_id` and geometry, new properties) written in. */
export async function patchTiles(
  old: Uint8Array,
  changed: readonly Feature[],
  day: UtcDay,
  entries: readonly TileEntry[] = tileEntries(old),
): Promise<Patched> {
  const props = new Map(changed.map((f) => [f.properties._id, tileFeatureProperties(f, day)]));
  const boxes = changed.map((f) => mercatorBox(f.geometry));
  const reached = (z: number, x: number, y: number) => {
    const n = 2 ** z;
    // the tile and its buffer (1/128 of a tile covers any extent's 64 units and more)
    const k = 1 / 128;
    return boxes.some((b) => b[2] * n >= x - k && b[0] * n <= x + 1 + k && b[3] * n >= y - k && b[1] * n <= y + 1 + k);
  };
  const tiles: Tile[] = [];
  let [read, rewritten] = [0, 0];
  for (const e of entries) {
    const data = old.subarray(e.offset, e.offset + e.length);
    if (!reached(e.z, e.x, e.y)) {
      tiles.push({ z: e.z, x: e.x, y: e.y, data });
      continue;
    }
    read++;
    const vt = new VectorTile(new PbfReader(gunzipSync(data)));
    let hit = false;
    let extent = 4096;
    const layers: Array<[string, GeoJSONVTFeature[]]> = [];
    for (const [name, layer] of Object.entries(vt.layers)) {
      extent = layer.extent;
      const features: GeoJSONVTFeature[] = [];
      for (let i = 0; i < layer.length; i++) {
        const f = layer.feature(i);
        const now = props.get(String(f.properties._id));
        if (now) hit = true;
        const rings = f.loadGeometry().map((r) => r.map((p): [number, number] => [p.x, p.y]));
        const tags = now ?? f.properties;
        if (f.type === 1) features.push({ type: 1, tags, geometry: rings.flat() });
        else features.push({ type: f.type as 2 | 3, tags, geometry: rings });
      }
      layers.push([name, features]);
    }
    if (!hit) {
      tiles.push({ z: e.z, x: e.x, y: e.y, data });
      continue;
    }
    rewritten++;
    tiles.push({ z: e.z, x: e.x, y: e.y, data: await gzipTile(encodeTile(layers, extent)) });
  }
  return { tiles, read, rewritten };
}

/** The tiles of `tiles` whose bytes are not those archive `old` holds at the same z/x/y, and their bytes. */
export function rewrittenSince(
  old: Uint8Array,
  tiles: readonly Tile[],
  entries: readonly TileEntry[] = tileEntries(old),
): { tiles: number; bytes: number } {
  const was = new Map(entries.map((e) => [`${e.z}/${e.x}/${e.y}`, old.subarray(e.offset, e.offset + e.length)]));
  let [count, bytes] = [0, 0];
  for (const t of tiles) {
    const w = was.get(`${t.z}/${t.x}/${t.y}`);
    if (w && Buffer.compare(w, t.data) === 0) continue;
    count++;
    bytes += t.data.length;
  }
  return { tiles: count, bytes };
}
