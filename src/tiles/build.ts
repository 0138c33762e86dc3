// A version's features as vector tiles, z0 to MAX_ZOOM (issue 60): geojson-vt cuts and simplifies them per zoom,
// vt-pbf encodes each tile as an MVT with one layer per featureCategory, gzip-compressed for the PMTiles archive.
//
// The index is built in blocks of one z6 tile: above z6 one index of the features drawn there (those whose box is
// 1/32 of a tile there), from z6 down one index per block of the features whose box reaches it (its buffer
// included). A feature is cut from the whole feature in either, so the tiles are the same as one index's; the
// memory held is one block's tiles, not Europe's (issue 60: peak RSS).
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { GeoJSONVT, type GeoJSONVTFeature, type GeoJSONVTTile } from "@maplibre/geojson-vt";
import type { AreaGeometry, Feature, FeatureProperties } from "../model/contract.js";
import type { UtcDay } from "../model/time.js";
import { encodeTile } from "./mvt.js";
import { type Tile, writeArchive } from "./pmtiles.js";
import { tileProperties } from "./properties.js";

/**
 * The highest zoom: positions there are the published ones rounded to 1/8192 of a tile (see {@link maxError}: at most
 * 6.8 m). At Europe scale, z9 in 8192 units is 20 MB; z10 in 4096 units, before MIN_SHARE, was 48 MB.
 */
export const MAX_ZOOM = 9;
/**
 * The zoom of the index's blocks. Europe scale, Node 24, 2026-12-03: z6 peaks 90–110 MB lower than z5 (the busiest
 * block's index, 23 000 features at z5) in 2 % more time; z7 is 15 % slower and no lower.
 */
const BLOCK_ZOOM = 6;
export const EXTENT = 8192;
const BUFFER = 64;
/**
 * Below MAX_ZOOM a feature is in a tile from the zoom its box is 1/32 of a tile wide (8 px of a 256-px tile): at z4
 * Europe's busiest tile held 14 000 airspaces, 2.4 MB of MVT, every one of them a speck.
 */
const MIN_SHARE = 1 / 32;
/** geojson-vt's simplification tolerance in tile units (its default): below MAX_ZOOM only. */
const TOLERANCE = 3;
export const LAYERS = ["airspace", "graphicalNotam"] as const satisfies readonly FeatureProperties["featureCategory"][];

export interface TileSet {
  tiles: Tile[];
  /** Tiles per zoom. */
  perZoom: number[];
  /** The features drawn. */
  features: number;
  bounds: [number, number, number, number];
}

/** A tile set as one PMTiles archive's bytes, centred on its bounds, with `metadata` (TileJSON's fields). */
export function archiveOf(set: TileSet, metadata: Record<string, unknown> = {}, maxZoom = MAX_ZOOM): Buffer {
  const [west, south, east, north] = set.bounds;
  const center: [number, number, number] = [(west + east) / 2, (south + north) / 2, 4];
  return Buffer.concat(writeArchive(set.tiles, { minZoom: 0, maxZoom, bounds: set.bounds, center, metadata }).pieces);
}

/** The largest distance, in metres, between a position at `zoom` and the published one, at latitude `lat`. */
export function maxError(lat: number, zoom = MAX_ZOOM): number {
  const tileMetres = (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
  return (Math.SQRT2 / 2) * (tileMetres / EXTENT);
}

const OPTIONS = {
  maxZoom: MAX_ZOOM,
  indexMaxZoom: 0,
  tolerance: TOLERANCE,
  extent: EXTENT,
  buffer: BUFFER,
  wrap: false,
} as const;

/** Every non-empty tile of `features` for `day` (their activation intervals as minutes of that day). */
export async function buildTiles(
  features: readonly Feature[],
  day: UtcDay,
  o: { maxZoom?: number; extent?: number; blockZoom?: number } = {},
): Promise<TileSet> {
  const { maxZoom = MAX_ZOOM, extent = EXTENT } = o;
  const boxes = features.map((f) => mercatorBox(f.geometry));
  const drawn = features.map((f, i) => ({
    type: "Feature" as const,
    geometry: f.geometry,
    properties: tileFeatureProperties(f, day, boxes[i], maxZoom),
  }));
  const options = { ...OPTIONS, maxZoom, extent };
  const tiles: Tile[] = [];
  const perZoom = new Array<number>(maxZoom + 1).fill(0);
  // gzip on zlib's thread pool while the main thread cuts the next tiles (a few in flight: the memory stays flat)
  const pending = new Set<Promise<void>>();
  const emit = async (index: GeoJSONVT, z: number, x: number, y: number): Promise<GeoJSONVTTile | null> => {
    const t = index.getTile(z, x, y);
    if (!t || t.features.length === 0) return null;
    const layers = layersOf(t, z);
    // features all too small for this zoom: no tile here, but the zooms below may draw them
    if (layers.length === 0) return t;
    const tile: Tile = { z, x, y, data: new Uint8Array(0) };
    tiles.push(tile);
    perZoom[z]!++;
    const done = gzipTile(encodeTile(layers, extent)).then((b) => {
      tile.data = b;
      pending.delete(done);
    });
    pending.add(done);
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
    return t;
  };
  const descend = async (index: GeoJSONVT, z: number, x: number, y: number, until: number): Promise<void> => {
    if (z > until || !(await emit(index, z, x, y))) return;
    for (const [dx, dy] of QUADS) await descend(index, z + 1, 2 * x + dx, 2 * y + dy, until);
  };
  const blockZoom = Math.min(o.blockZoom ?? BLOCK_ZOOM, maxZoom);
  // above the blocks only the features drawn there (most are too small to be: not cut at all, nor held)
  const large = drawn.filter((f) => f.properties.minzoom < blockZoom);
  if (blockZoom > 0 && large.length > 0) {
    await descend(new GeoJSONVT({ type: "FeatureCollection", features: large }, options), 0, 0, 0, blockZoom - 1);
  }
  const n = 2 ** blockZoom;
  const k = BUFFER / extent;
  const blocks = new Map<number, number[]>();
  for (const [i, b] of boxes.entries()) {
    // the blocks a feature's box reaches, its buffer included (a wrong box, of no position, reaches none)
    if (!(b[2] >= b[0])) continue;
    const [x0, x1] = [Math.max(0, Math.floor((b[0] - k / n) * n)), Math.min(n - 1, Math.floor((b[2] + k / n) * n))];
    const [y0, y1] = [Math.max(0, Math.floor((b[1] - k / n) * n)), Math.min(n - 1, Math.floor((b[3] + k / n) * n))];
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const list = blocks.get(y * n + x);
        if (list) list.push(i);
        else blocks.set(y * n + x, [i]);
      }
    }
  }
  for (const key of [...blocks.keys()].sort((a, b) => a - b)) {
    const inside = blocks.get(key)!.map((i) => drawn[i]!);
    const index = new GeoJSONVT({ type: "FeatureCollection", features: inside }, options);
    await descend(index, blockZoom, key % n, Math.floor(key / n), maxZoom);
  }
  await Promise.all(pending);
  return { tiles, perZoom, features: drawn.length, bounds: lngLatBounds(boxes) };
}

const gzipAsync = promisify(gzip);
/** Tiles being gzipped at once (zlib's pool has four threads); their MVTs are held until then. */
const IN_FLIGHT = 8;

const QUADS = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
] as const;

/** The tile's layers, one per category (empty ones left out), of the features drawn at zoom `z`. */
function layersOf(t: GeoJSONVTTile, z: number): Array<[string, GeoJSONVTFeature[]]> {
  const layers: Array<[string, GeoJSONVTFeature[]]> = [];
  for (const name of LAYERS) {
    const features = t.features.filter((f) => f.tags?.featureCategory === name && (f.tags.minzoom as number) <= z);
    if (features.length > 0) layers.push([name, features]);
  }
  return layers;
}

/** A feature's properties in the tiles: tileProperties and the first zoom it is drawn at. */
export function tileFeatureProperties(f: Feature, day: UtcDay, box = mercatorBox(f.geometry), maxZoom = MAX_ZOOM) {
  return { ...tileProperties(f, day), minzoom: minZoomOf(box, maxZoom) };
}

/**
 * A tile's MVT as stored: gzip level 6, whose header holds no time and no name (the bytes are the MVT's alone). Copied
 * out of zlib's output: a small tile is a view of zlib's 16 KiB chunk, and 4 400 such views held 111 MB at Europe scale.
 */
export const gzipTile = async (mvt: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await gzipAsync(mvt, { level: 6 }));

/** The first zoom at which a feature of box `b` is drawn: MAX_ZOOM at the latest, so that one holds every feature. */
function minZoomOf(b: Box, maxZoom: number): number {
  const size = Math.max(b[2] - b[0], b[3] - b[1]);
  if (!(size > 0)) return maxZoom;
  return Math.max(0, Math.min(maxZoom, Math.ceil(Math.log2(MIN_SHARE / size))));
}

/** A box in web mercator's unit square (x east, y down): [minX, minY, maxX, maxY]. */
type Box = [number, number, number, number];

export function mercatorBox(g: AreaGeometry): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  visit(g, (lon, lat) => {
    const x = lon / 360 + 0.5;
    const s = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180);
    const y = 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI;
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  });
  return b;
}

function visit(g: AreaGeometry, at: (lon: number, lat: number) => void): void {
  const walk = (c: unknown): void => {
    if (typeof (c as number[])[0] === "number") at((c as number[])[0]!, (c as number[])[1]!);
    else for (const d of c as unknown[]) walk(d);
  };
  walk(g.coordinates);
}

function lngLatBounds(boxes: readonly Box[]): [number, number, number, number] {
  if (boxes.length === 0) return [-180, -85, 180, 85];
  const [x0, y0, x1, y1] = boxes.reduce<Box>(
    (a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
  const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
  const lon = (x: number) => (x - 0.5) * 360;
  return [lon(x0), lat(y1), lon(x1), lat(y0)];
}

/** A tile's bytes named (what a later version compares to tell the tiles it rewrote). */
export const tileDigest = (t: Tile): string => createHash("sha256").update(t.data).digest("base64");
