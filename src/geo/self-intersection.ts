// Does a closed ring cross itself? A sweep over segments sorted by their left end: each segment is
// tested only against segments whose x-range overlaps it, so real rings (mostly thin in x) stay near O(n log n).
import type { Position } from "./planar.js";

/** True when two non-adjacent segments of the closed ring intersect or touch. */
export function ringSelfIntersects(ring: readonly Position[]): boolean {
  const n = ring.length - 1; // segments of a closed ring
  if (n < 4) return false;
  const order = Array.from({ length: n }, (_, i) => i);
  const minX = (i: number) => Math.min(ring[i]![0], ring[i + 1]![0]);
  const maxX = (i: number) => Math.max(ring[i]![0], ring[i + 1]![0]);
  order.sort((a, b) => minX(a) - minX(b));
  const active: number[] = [];
  for (const i of order) {
    const left = minX(i);
    let w = 0;
    for (const j of active) if (maxX(j) >= left) active[w++] = j;
    active.length = w;
    for (const j of active) {
      const adjacent = Math.abs(i - j) === 1 || Math.abs(i - j) === n - 1;
      if (!adjacent && segmentsIntersect(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)) return true;
    }
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
