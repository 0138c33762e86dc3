// Feature geometry for the canvas: every ring of every feature as Web Mercator coordinates (0–1 across the world)
// in one Float64Array, with ring and feature boundaries and bounding boxes beside it, as the map form decodes
// (src/origin/map-form.ts).
import type { Packed } from "../src/origin/map-form.js";

/** Latitude of a Web Mercator y. */
export const latOf = (y: number): number => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
/** Longitude of a Web Mercator x. */
export const lonOf = (x: number): number => x * 360 - 180;

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
