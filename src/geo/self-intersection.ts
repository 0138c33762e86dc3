// Does a closed ring cross itself? A small ring (most: the median ring OpenAir writes has 37 points) has its pairs
// of segments tested, boxes first; a larger one is swept, segments sorted by their left end, each tested only
// against those whose x-range overlaps it, so real rings (mostly thin in x) stay near O(n log n).
// Kept over @turf/kinks by measurement (issue 17): on the 1 791 rings of the data corpus's openAIP GeoJSON (76 k
// vertices) both find the same 153 self-intersecting rings, ours in 45 ms, turf's in 198 ms: at Europe scale
// (1.2 M vertices) turf would add about 2.5 s, 20 % of a publish, over the 10 % the issue allows.
import type { Position } from "./planar.js";

/** Up to this many segments a ring has every pair tested (boxes first): for the many small rings, sorting for the
 * sweep cost more than the pairs it spares. */
const PAIRWISE_UP_TO = 64;

/** Segment i's bounding box: [minX, maxX, minY, maxY] at 4i. */
function boxesOf(ring: readonly Position[], n: number): Float64Array {
  const box = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[i + 1]!;
    box[4 * i] = ax < bx ? ax : bx;
    box[4 * i + 1] = ax < bx ? bx : ax;
    box[4 * i + 2] = ay < by ? ay : by;
    box[4 * i + 3] = ay < by ? by : ay;
  }
  return box;
}

/** True when two non-adjacent segments of the closed ring intersect or touch. The ring has no consecutive repeated
 * points (every caller drops them first). */
export function ringSelfIntersects(ring: readonly Position[]): boolean {
  const n = ring.length - 1; // segments of a closed ring
  if (n < 4 || isConvex(ring)) return false;
  const box = boxesOf(ring, n);
  // segments i and j (i < j) whose boxes meet, neither neighbours nor the ring's last and first
  const crosses = (i: number, j: number) =>
    j - i !== 1 &&
    j - i !== n - 1 &&
    box[4 * j]! <= box[4 * i + 1]! &&
    box[4 * i]! <= box[4 * j + 1]! &&
    box[4 * j + 2]! <= box[4 * i + 3]! &&
    box[4 * i + 2]! <= box[4 * j + 3]! &&
    segmentsIntersect(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!);
  if (n <= PAIRWISE_UP_TO) {
    for (let i = 0; i < n; i++) for (let j = i + 2; j < n; j++) if (crosses(i, j)) return true;
    return false;
  }
  // the sweep: segments by their left end, each tested against those still open at it
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => box[4 * a]! - box[4 * b]!);
  const active: number[] = [];
  for (const i of order) {
    const left = box[4 * i]!;
    let w = 0;
    for (const j of active) if (box[4 * j + 1]! >= left) active[w++] = j;
    active.length = w;
    for (const j of active) if (i < j ? crosses(i, j) : crosses(j, i)) return true;
    active.push(i);
  }
  return false;
}

function orient(a: Position, b: Position, c: Position): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(a: Position, b: Position, p: Position): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

function segmentsIntersect(p1: Position, p2: Position, q1: Position, q2: Position): boolean {
  const o1 = orient(p1, p2, q1);
  const o2 = orient(p1, p2, q2);
  const o3 = orient(q1, q2, p1);
  const o4 = orient(q1, q2, p2);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(p1, p2, q1)) ||
    (o2 === 0 && onSegment(p1, p2, q2)) ||
    (o3 === 0 && onSegment(q1, q2, p1)) ||
    (o4 === 0 && onSegment(q1, q2, p2))
  );
}

/**
 * A closed ring that turns the same way at every vertex and once around in all is convex, hence simple:
 * circles and boxes (most NOTAM areas) skip the pairwise test. A vertex where the ring turns straight back (a spike)
 * is no turn either way, yet it can touch another segment: such a ring is not taken as convex.
 */
function isConvex(ring: readonly Position[]): boolean {
  const n = ring.length - 1;
  let sign = 0;
  let turning = 0;
  for (let i = 0; i < n; i++) {
    const a = ring[(i + n - 1) % n]!;
    const b = ring[i]!;
    const c = ring[(i + 1) % n]!;
    const ux = b[0] - a[0];
    const uy = b[1] - a[1];
    const vx = c[0] - b[0];
    const vy = c[1] - b[1];
    const cross = ux * vy - uy * vx;
    const dot = ux * vx + uy * vy;
    if (cross === 0 && dot < 0) return false;
    if (cross !== 0) {
      const s = cross > 0 ? 1 : -1;
      if (sign === 0) sign = s;
      else if (s !== sign) return false;
    }
    turning += Math.atan2(cross, dot);
  }
  return sign !== 0 && Math.abs(Math.abs(turning) - 2 * Math.PI) < 1e-6;
}
