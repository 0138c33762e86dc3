// Rings (raw [lon, lat], any winding; repairPolygons closes and winds them) for the shapes of Item E.
import { EndType, inflatePathsD, JoinType } from "clipper2-ts";
import { bearingDeg, destination, distanceM, type LatLon, roughCircleRing } from "../../geo/geodesy.js";
import { signedArea2 } from "../../geo/planar.js";
import { ringSelfIntersects } from "../../geo/self-intersection.js";
import type { Vertex } from "./chains.js";

export type Ring = Array<[number, number]>;
type XY = [number, number];

const ARC_STEP_DEG = 5;
const CAP_STEP_DEG = 10;
/** Clipper's arc tolerance for caps as fine as ours: the chord of a CAP_STEP_DEG step lies this far inside, per metre. */
const CAP_SAGITTA = 1 - Math.cos((CAP_STEP_DEG * Math.PI) / 360);

/** docs/design.md §4 asks for at least 32; more only grows every NOTAM feature (twice: feature and NOTAM record). */
const CIRCLE_SEGMENTS = 36;

export const circle = (centre: LatLon, radiusM: number): Ring => roughCircleRing(centre, radiusM, CIRCLE_SEGMENTS);

/**
 * A chain's vertices with its arcs drawn. An arc runs from the previous vertex to its own, around its
 * centre; the radius goes linearly from the start's distance to the end's, so the ends are exact even
 * when the written radius and points disagree a little. No direction written: the shorter way. `inserts` are the
 * points of a followed border before vertex k (follow.ts).
 */
export function chainRing(vertices: readonly Vertex[], inserts: ReadonlyMap<number, readonly LatLon[]> = NONE): Ring {
  const out: LatLon[] = [];
  for (const [k, v] of vertices.entries()) {
    const prev = out[out.length - 1];
    if (v.arc && prev) out.push(...arcBetween(v.arc.centre, prev, v.point, v.arc.clockwise));
    out.push(...(inserts.get(k) ?? []), v.point);
  }
  return out.map((p) => [p.lon, p.lat]);
}
const NONE: ReadonlyMap<number, readonly LatLon[]> = new Map();

function arcBetween(centre: LatLon, from: LatLon, to: LatLon, clockwise: boolean | undefined): LatLon[] {
  const b0 = bearingDeg(centre, from);
  const b1 = bearingDeg(centre, to);
  const r0 = distanceM(centre, from);
  const r1 = distanceM(centre, to);
  const cw = clockwise ?? (b1 - b0 + 360) % 360 <= 180;
  let sweep = cw ? (b1 - b0 + 360) % 360 : (b0 - b1 + 360) % 360;
  if (sweep < 1e-9 && distanceM(from, to) < 1) sweep = 360; // FROM p TO p: the whole circle
  const steps = Math.ceil(sweep / ARC_STEP_DEG);
  const out: LatLon[] = [];
  for (let i = 1; i < steps; i++) {
    const f = i / steps;
    out.push(destination(centre, cw ? b0 + sweep * f : b0 - sweep * f, r0 + (r1 - r0) * f));
  }
  return out;
}

/**
 * The area within `halfWidthM` of a polyline (a track `WI 2NM EITHER SIDE`), drawn in a local
 * azimuthal plane around the first point: left side forward, a round cap, the right side back, a cap.
 *
 *     ╭──────────────╮        outer bends are round, inner bends meet at the offset lines' crossing;
 *    (  p1 ─────── p2 )       if the outline still crosses itself (bends tighter than the width),
 *     ╰──────────────╯        the area within the width of a line that crosses or doubles back on itself is
 *                             @turf/buffer's (with the holes a loop leaves), not this outline.
 */
export function corridor(
  points: readonly LatLon[],
  halfWidthM: number,
): { ring: Ring; holes?: Ring[]; overlaps: boolean } {
  const origin = points[0]!;
  const xy: XY[] = [];
  for (const p of points) {
    const d = distanceM(origin, p);
    const b = (bearingDeg(origin, p) * Math.PI) / 180;
    const q: XY = [d * Math.sin(b), d * Math.cos(b)];
    const last = xy[xy.length - 1];
    if (!last || Math.hypot(q[0] - last[0], q[1] - last[1]) > 1) xy.push(q);
  }
  const back = (q: XY): [number, number] => {
    const p = destination(origin, (Math.atan2(q[0], q[1]) * 180) / Math.PI, Math.hypot(q[0], q[1]));
    return [p.lon, p.lat];
  };
  if (xy.length === 1) return { ring: circle(origin, halfWidthM), overlaps: false };
  // each side ends where the next begins: drop the repeats before asking whether the outline crosses itself
  const outline = [...side(xy, halfWidthM), ...side([...xy].reverse(), halfWidthM)].filter(
    (q, k, all) => Math.hypot(q[0] - all[(k + 1) % all.length]![0], q[1] - all[(k + 1) % all.length]![1]) > 0.01,
  );
  const ring = outline.map(back);
  if (!ringSelfIntersects([...ring, ring[0]!])) return { ring, overlaps: false };
  // the offset of the line in the same plane (clipper2-ts: sixty times faster than @turf/buffer's jsts here, the same
  // area within 0.01 %); outer rings wind counter-clockwise, holes clockwise
  const paths = inflatePathsD(
    [xy.map(([x, y]) => ({ x, y }))],
    halfWidthM,
    JoinType.Round,
    EndType.Round,
    2,
    2,
    halfWidthM * CAP_SAGITTA,
  ).map((path) => path.map((p): XY => [p.x, p.y]));
  const outer = paths.filter((p) => signedArea2(p) > 0).sort((a, b) => signedArea2(b) - signedArea2(a))[0];
  if (!outer) return { ring, overlaps: true };
  const holes = paths.filter((p) => signedArea2(p) < 0).map((h) => h.map(back));
  return { ring: outer.map(back), holes, overlaps: true };
}

/** One side going forward, then the cap around the last point. */
function side(xy: readonly XY[], w: number): XY[] {
  const out: XY[] = [];
  const dirs = xy.slice(1).map((q, k) => unit(xy[k]!, q));
  const normal = (d: XY): XY => [-d[1], d[0]];
  const off = (q: XY, n: XY): XY => [q[0] + w * n[0], q[1] + w * n[1]];
  out.push(off(xy[0]!, normal(dirs[0]!)));
  for (let j = 1; j < dirs.length; j++) {
    const d0 = dirs[j - 1]!;
    const d1 = dirs[j]!;
    const n0 = normal(d0);
    const n1 = normal(d1);
    const turn = d0[0] * d1[1] - d0[1] * d1[0];
    if (turn > 1e-9) {
      // left turn: this side is inside the bend; the two offset lines cross
      const a = off(xy[j]!, n0);
      const b = off(xy[j]!, n1);
      const t = ((b[0] - a[0]) * d1[1] - (b[1] - a[1]) * d1[0]) / turn;
      out.push([a[0] + t * d0[0], a[1] + t * d0[1]]);
    } else {
      out.push(...roundPoints(xy[j]!, Math.atan2(n0[1], n0[0]), Math.atan2(n1[1], n1[0]), w, true));
    }
  }
  const last = xy[xy.length - 1]!;
  const n = normal(dirs[dirs.length - 1]!);
  const a = Math.atan2(n[1], n[0]);
  out.push(...roundPoints(last, a, a - Math.PI, w, true));
  return out;
}

/** Points on a circle from angle a0 to a1 (radians), clockwise (decreasing) or not, ends included. */
function roundPoints(c: XY, a0: number, a1: number, r: number, clockwise: boolean): XY[] {
  const tau = 2 * Math.PI;
  let sweep = clockwise ? (((a0 - a1) % tau) + tau) % tau : (((a1 - a0) % tau) + tau) % tau;
  if (!clockwise && sweep === 0) sweep = tau;
  const steps = Math.max(1, Math.ceil((sweep * 180) / Math.PI / CAP_STEP_DEG));
  const out: XY[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = clockwise ? a0 - (sweep * i) / steps : a0 + (sweep * i) / steps;
    out.push([c[0] + r * Math.cos(a), c[1] + r * Math.sin(a)]);
  }
  return out;
}

function unit(a: XY, b: XY): XY {
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  return [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
}
