// Raw rings to RFC 7946 polygons: round to 6 decimals, drop repeated points, close, wind the exterior
// counter-clockwise and holes clockwise, drop what cannot be a ring. Every change is named by a code.

import type { RawPolygons } from "../model/airspace.js";
import type { AreaGeometry } from "../model/contract.js";
import { type Position, signedArea2 } from "./planar.js";
import { ringSelfIntersects } from "./self-intersection.js";

export const REPAIR_CODES = {
  precisionReduced: "geometry.precisionReduced",
  repeatedPoints: "geometry.repeatedPoints",
  retraced: "geometry.retraced",
  ringClosed: "geometry.ringClosed",
  rewound: "geometry.rewound",
  holeDropped: "geometry.holeDropped",
  polygonDropped: "geometry.polygonDropped",
} as const;
export type RepairCode = (typeof REPAIR_CODES)[keyof typeof REPAIR_CODES];

export type RepairOutcome =
  | { ok: true; geometry: AreaGeometry; repairs: RepairCode[]; selfIntersects: boolean }
  | { ok: false; code: "geometry.outOfRange" | "geometry.degenerate"; message: string };

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function repairPolygons(raw: RawPolygons): RepairOutcome {
  const repairs = new Set<RepairCode>();
  const polygons: Position[][][] = [];
  let selfIntersects = false;
  for (const poly of raw) {
    const rings: Position[][] = [];
    for (const [k, input] of poly.entries()) {
      for (const position of input) {
        const x = position[0];
        const y = position[1];
        if (!(Math.abs(x) <= 180 && Math.abs(y) <= 90)) {
          return { ok: false, code: "geometry.outOfRange", message: `position [${x}, ${y}] is outside lon/lat range` };
        }
      }
      const ring = cleanRing(input, repairs);
      if (ring.length < 4 || signedArea2(ring) === 0) {
        if (k === 0) break; // no exterior, no polygon
        repairs.add(REPAIR_CODES.holeDropped);
        continue;
      }
      const wantCcw = k === 0;
      if (signedArea2(ring) > 0 !== wantCcw) {
        ring.reverse();
        repairs.add(REPAIR_CODES.rewound);
      }
      if (!selfIntersects && ringSelfIntersects(ring)) selfIntersects = true;
      rings.push(ring);
    }
    if (rings.length > 0) polygons.push(rings);
    else repairs.add(REPAIR_CODES.polygonDropped);
  }
  if (polygons.length === 0) {
    repairs.delete(REPAIR_CODES.polygonDropped);
    return { ok: false, code: "geometry.degenerate", message: "no ring with at least 3 distinct points and an area" };
  }
  const geometry: AreaGeometry =
    polygons.length === 1
      ? { type: "Polygon", coordinates: polygons[0]! }
      : { type: "MultiPolygon", coordinates: polygons };
  return { ok: true, geometry, repairs: [...repairs].sort(), selfIntersects };
}

/**
 * Rounded, without consecutive repeats, closed. A position that rounding leaves as it is (two numbers) is taken as
 * it is, not copied: the reading and the airspace share it (a Europe-scale run holds 1.2 million fewer arrays).
 */
function cleanRing(input: readonly (readonly [number, number])[], repairs: Set<RepairCode>): Position[] {
  const out: Position[] = [];
  let repeated = false;
  for (const p of input) {
    const x0 = p[0];
    const y0 = p[1];
    const x = round6(x0);
    const y = round6(y0);
    const same = x === x0 && y === y0;
    if (!same) repairs.add(REPAIR_CODES.precisionReduced);
    const last = out[out.length - 1];
    if (last && last[0] === x && last[1] === y) {
      repeated = true;
      continue;
    }
    out.push(same && p.length === 2 ? (p as Position) : [x, y]);
  }
  // a ring drawn round and then back along itself (Poland's lotnik.org file of 2026-03 writes 61 rings so, 38 of
  // them skipped before: `DP a, b, c, a, a, c, b`): the way back encloses nothing, and the two ways cancel out
  if (retrace(out)) repairs.add(REPAIR_CODES.retraced);
  // a closing point equal to the first is not a repeat; strip it and close again below
  const first = out[0];
  const last = out[out.length - 1];
  const wasClosed =
    out.length > 1 && first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1];
  if (wasClosed) out.pop();
  if (repeated) repairs.add(REPAIR_CODES.repeatedPoints);
  if (!wasClosed && out.length > 0) repairs.add(REPAIR_CODES.ringClosed);
  if (first) out.push([first[0], first[1]]);
  return out;
}

/**
 * Cuts a ring that reads the same backwards, a way there and the same way back, to the way there:
 * `a b c d a · d c b a` (round, then back) → `a b c d a`;
 * `a b c d · c b a` (out, then back) → `a b c d`. Consecutive repeats are already dropped. Returns whether it cut.
 */
function retrace(ring: Position[]): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (!first || !last) return false;
  const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];
  const seq = same(first, last) ? ring : [...ring, first];
  const n = seq.length;
  // three distinct positions at least (`a b c b a`), and an odd count: the turn is one position
  if (n < 5 || n % 2 === 0) return false;
  for (let i = 1; i < n / 2; i++) if (!same(seq[i]!, seq[n - 1 - i]!)) return false;
  const there = seq.slice(0, (n + 1) / 2);
  ring.length = 0;
  ring.push(...there);
  return true;
}
