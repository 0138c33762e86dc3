// Feature geometry for the page: every ring of every feature as Web Mercator coordinates (0–1 across the world)
// in one Float64Array, with ring and feature boundaries and bounding boxes beside it, as the map form decodes
// (src/origin/map-form.ts).
import type { Packed } from "../src/origin/map-form.js";

/** Latitude of a Web Mercator y. */
export const latOf = (y: number): number => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
/** Longitude of a Web Mercator x. */
export const lonOf = (x: number): number => x * 360 - 180;

/** A box in degrees: west, south, east, north. */
export type LonLatBox = [number, number, number, number];

/** A Web Mercator box [minX, minY, maxX, maxY] in degrees (y grows southwards). */
export const lonLatBox = (b: readonly number[]): LonLatBox => [lonOf(b[0]!), latOf(b[3]!), lonOf(b[2]!), latOf(b[1]!)];

/** The box around boxes, or undefined when there are none. */
export function unionBox(boxes: readonly (readonly number[])[]): [number, number, number, number] | undefined {
  if (boxes.length === 0) return undefined;
  const u: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    u[0] = Math.min(u[0], b[0]!);
    u[1] = Math.min(u[1], b[1]!);
    u[2] = Math.max(u[2], b[2]!);
    u[3] = Math.max(u[3], b[3]!);
  }
  return u;
}

/** The centre of a box as [lon, lat]. */
export const centreOf = (b: LonLatBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

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
