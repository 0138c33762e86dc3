// An archive held to the features it was built from (issue 60 "Correct"): its tiles at the highest zoom, read back with
// `pmtiles` and decoded with `@mapbox/vector-tile`, hold exactly the published features (same `_id`, `isActive`, and
// "active at t" at every minute of the day), and every position is within maxError of a published vertex, and every
// published vertex within it of a drawn one. The suite runs it on the bundled data, `make bench` at Europe scale.
import type { Feature } from "../model/contract.js";
import { intervalsOf } from "../model/feature-facts.js";
import type { UtcDay } from "../model/time.js";
import { maxError } from "./build.js";
import type { Archive } from "./read-back.js";

export interface CheckResult {
  /** Tiles read at the highest zoom. */
  tiles: number;
  features: number;
  /** `_id`s published but in no tile, and in tiles but not published. */
  missing: string[];
  extra: string[];
  /** `_id`s whose `isActive` or "active at t" differs (a minute of the day named), or differs between two tiles. */
  properties: string[];
  vertices: number;
  /** The largest distance from a drawn position to the nearest published vertex, and the other way, metres. */
  drawnError: number;
  publishedError: number;
  /** Positions farther than maxError at their latitude, named. */
  farther: string[];
}

const MINUTE = 60_000;

/** Checks `archive` against `features` (the version's, all of them) of `day`. */
export async function checkArchive(archive: Archive, features: readonly Feature[], day: UtcDay): Promise<CheckResult> {
  const { header } = archive;
  const z = header.maxZoom;
  const n = 2 ** z;
  const byId = new Map(features.map((f) => [f.properties._id, f]));
  const drawn = new Map<string, { props: Record<string, unknown>; points: Map<string, [number, number]> }>();
  const out: CheckResult = {
    tiles: 0,
    features: features.length,
    missing: [],
    extra: [],
    properties: [],
    vertices: 0,
    drawnError: 0,
    publishedError: 0,
    farther: [],
  };
  let extent = 0;
  const [x0, x1] = [tileX(header.minLon, n), tileX(header.maxLon, n)];
  const [y0, y1] = [tileY(header.maxLat, n), tileY(header.minLat, n)];
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const tile = await archive.tile(z, x, y);
      if (!tile) continue;
      out.tiles++;
      for (const layer of Object.values(tile.layers)) {
        extent = layer.extent;
        for (let i = 0; i < layer.length; i++) {
          const f = layer.feature(i);
          const id = String(f.properties._id);
          let d = drawn.get(id);
          if (!d) {
            d = { props: f.properties, points: new Map() };
            drawn.set(id, d);
          } else if (d.props.isActive !== f.properties.isActive) {
            out.properties.push(`${id}: isActive differs between tiles`);
          }
          // positions inside the tile (a cut's positions lie on its buffer's edge, off the tile)
          for (const ring of f.loadGeometry()) {
            for (const p of ring) {
              if (p.x < 0 || p.y < 0 || p.x > layer.extent || p.y > layer.extent) continue;
              const gx = x * layer.extent + p.x;
              const gy = y * layer.extent + p.y;
              d.points.set(`${gx},${gy}`, [gx, gy]);
            }
          }
        }
      }
    }
  }
  for (const id of byId.keys()) if (!drawn.has(id)) out.missing.push(id);
  for (const id of drawn.keys()) if (!byId.has(id)) out.extra.push(id);
  const scale = n * (extent || 1);
  for (const [id, d] of drawn) {
    const f = byId.get(id);
    if (!f) continue;
    const wrong = propertyIssue(f, d.props, day);
    if (wrong) out.properties.push(`${id}: ${wrong}`);
    const published = vertices(f).map(([lon, lat]) => [merc(lon) * scale, mercLat(lat) * scale, lat] as const);
    const grid = new Map<string, Array<readonly [number, number]>>();
    for (const [px, py] of published) push(grid, `${Math.floor(px)},${Math.floor(py)}`, [px, py]);
    const drawnGrid = new Map<string, Array<readonly [number, number]>>();
    for (const [gx, gy] of d.points.values()) push(drawnGrid, `${gx},${gy}`, [gx, gy]);
    const metresPerUnit = (lat: number) => (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / scale;
    for (const [gx, gy] of d.points.values()) {
      out.vertices++;
      const lat = unmercLat(gy / scale);
      const m = nearest(grid, gx, gy, 2) * metresPerUnit(lat);
      out.drawnError = Math.max(out.drawnError, m);
      if (m > maxError(lat, z) * 1.001) out.farther.push(`${id}: drawn ${m.toFixed(1)} m off at z${z} ${gx},${gy}`);
    }
    for (const [px, py, lat] of published) {
      const m = nearest(drawnGrid, px, py, 2) * metresPerUnit(lat);
      out.publishedError = Math.max(out.publishedError, m);
      if (m > maxError(lat, z) * 1.001)
        out.farther.push(`${id}: published vertex ${m.toFixed(1)} m from any drawn one`);
    }
  }
  return out;
}

/** What differs between the published feature and its tile properties: isActive, or activity at a minute. */
function propertyIssue(f: Feature, props: Record<string, unknown>, day: UtcDay): string | undefined {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  if (props.isActive !== m.isActive) return `isActive ${String(props.isActive)}, published ${m.isActive}`;
  const spans = intervalsOf(f).map((i) => [Date.parse(i.start), Date.parse(i.end)] as const);
  const count = Number(props.intervals ?? 0);
  for (let t = 0; t < 1440; t++) {
    const at = day.start + t * MINUTE;
    const published = spans.some(([s, e]) => s <= at && at < e);
    let tiled = false;
    for (let k = 0; k < count; k++) tiled ||= Number(props[`s${k}`]) <= t && t < Number(props[`e${k}`]);
    if (published !== tiled) return `active at minute ${t}: tiles say ${tiled}, published ${published}`;
  }
  return undefined;
}

function vertices(f: Feature): Array<[number, number]> {
  const g = f.geometry;
  if (g.type === "Polygon") return g.coordinates.flatMap((r) => r.map((p) => [p[0], p[1]] as [number, number]));
  return g.coordinates.flatMap((poly) => poly.flatMap((r) => r.map((p) => [p[0], p[1]] as [number, number])));
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** The distance, in tile units, from (x, y) to the nearest point of `grid` within `reach` cells (Infinity if none). */
function nearest(grid: Map<string, Array<readonly [number, number]>>, x: number, y: number, reach: number): number {
  let best = Number.POSITIVE_INFINITY;
  const [cx, cy] = [Math.floor(x), Math.floor(y)];
  for (let dx = -reach; dx <= reach; dx++) {
    for (let dy = -reach; dy <= reach; dy++) {
      for (const [px, py] of grid.get(`${cx + dx},${cy + dy}`) ?? []) best = Math.min(best, Math.hypot(px - x, py - y));
    }
  }
  return best;
}

const merc = (lon: number) => lon / 360 + 0.5;
function mercLat(lat: number): number {
  const s = Math.sin((lat * Math.PI) / 180);
  return Math.min(1, Math.max(0, 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI));
}
const unmercLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
const tileX = (lon: number, n: number) => Math.max(0, Math.min(n - 1, Math.floor(merc(lon) * n)));
const tileY = (lat: number, n: number) => Math.max(0, Math.min(n - 1, Math.floor(mercLat(lat) * n)));
