// Feature geometry packed for the canvas: every ring of every feature as Web Mercator coordinates (0–1 across
// the world) in one Float64Array, with ring and feature boundaries and bounding boxes beside it. Computed in the
// parsing workers and transferred to the page without copying.
import type { Feature } from "../src/model/contract.js";

export interface Packed {
  /** x0, y0, x1, y1, … of every ring, one feature after another. */
  coords: Float64Array;
  /** Where each ring ends in `coords`. */
  ringEnds: Uint32Array;
  /** Where each feature's rings end in `ringEnds`. */
  featureEnds: Uint32Array;
  /** minX, minY, maxX, maxY of each feature. */
  boxes: Float64Array;
}

export const mercX = (lon: number): number => (lon + 180) / 360;
export const mercY = (lat: number): number => {
  const s = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};
/** Latitude of a Web Mercator y. */
export const latOf = (y: number): number => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
/** Longitude of a Web Mercator x. */
export const lonOf = (x: number): number => x * 360 - 180;

const polygonsOf = (f: Pick<Feature, "geometry">) =>
  f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;

export function pack(features: readonly Pick<Feature, "geometry">[]): Packed {
  let points = 0;
  let rings = 0;
  for (const f of features)
    for (const polygon of polygonsOf(f))
      for (const ring of polygon) {
        points += ring.length;
        rings++;
      }
  const coords = new Float64Array(points * 2);
  const ringEnds = new Uint32Array(rings);
  const featureEnds = new Uint32Array(features.length);
  const boxes = new Float64Array(features.length * 4);
  let at = 0;
  let r = 0;
  features.forEach((f, i) => {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const polygon of polygonsOf(f))
      for (const ring of polygon) {
        for (const point of ring) {
          const x = mercX(point[0]!);
          const y = mercY(point[1]!);
          coords[at++] = x;
          coords[at++] = y;
          if (x < x0) x0 = x;
          if (y < y0) y0 = y;
          if (x > x1) x1 = x;
          if (y > y1) y1 = y;
        }
        ringEnds[r++] = at;
      }
    featureEnds[i] = r;
    boxes.set([x0, y0, x1, y1], i * 4);
  });
  return { coords, ringEnds, featureEnds, boxes };
}

/** The rings of feature `i` as views into `coords`. */
export function ringsOf(p: Packed, i: number): Float64Array[] {
  const out: Float64Array[] = [];
  let from = i === 0 ? 0 : p.featureEnds[i - 1]!;
  let start = from === 0 ? 0 : p.ringEnds[from - 1]!;
  for (; from < p.featureEnds[i]!; from++) {
    const end = p.ringEnds[from]!;
    out.push(p.coords.subarray(start, end));
    start = end;
  }
  return out;
}
