// ringSelfIntersects (src/geo/self-intersection.ts) against the definition: some two non-adjacent segments of the
// closed ring meet. Rings of up to 64 segments take the pairwise path, larger ones the sweep; both must agree with
// every pair tested. Coordinates are whole numbers, so that the definition's arithmetic is exact (with tenths, two
// disjoint segments on one line could be found crossing by rounding); consecutive repeats are dropped, as every caller
// drops them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ringSelfIntersects } from "../../src/geo/self-intersection.js";

type P = [number, number];
const orient = (a: P, b: P, c: P) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
const within = (a: P, b: P, p: P) =>
  Math.min(a[0], b[0]) <= p[0] &&
  p[0] <= Math.max(a[0], b[0]) &&
  Math.min(a[1], b[1]) <= p[1] &&
  p[1] <= Math.max(a[1], b[1]);
function meet(p1: P, p2: P, q1: P, q2: P): boolean {
  const [o1, o2, o3, o4] = [orient(p1, p2, q1), orient(p1, p2, q2), orient(q1, q2, p1), orient(q1, q2, p2)];
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && within(p1, p2, q1)) ||
    (o2 === 0 && within(p1, p2, q2)) ||
    (o3 === 0 && within(q1, q2, p1)) ||
    (o4 === 0 && within(q1, q2, p2))
  );
}
/** The definition, every pair: O(n²). */
function reference(ring: P[]): boolean {
  const n = ring.length - 1;
  if (n < 4) return false;
  for (let i = 0; i < n; i++)
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (meet(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)) return true;
    }
  return false;
}

/**
 * A closed ring around a centre: radii and angles drawn (`steps` angles around), in the order drawn or by angle, so
 * that some rings are simple and others cross. On a coarse grid, points on one spoke make collinear segments and
 * spikes; on a fine one, most rings by angle are simple.
 */
const ring = (min: number, max: number, [near, far]: [number, number], steps: number) =>
  fc
    .array(fc.tuple(fc.integer({ min: near, max: far }), fc.integer({ min: 0, max: steps - 1 })), {
      minLength: min,
      maxLength: max,
    })
    .chain((spokes) => fc.boolean().map((sorted) => ({ spokes, sorted })))
    .map(({ spokes, sorted }) => {
      const ordered = sorted ? [...spokes].sort((a, b) => a[1] - b[1]) : spokes;
      const points: P[] = [];
      for (const [r, deg] of ordered) {
        const t = (2 * Math.PI * deg) / steps;
        const p: P = [Math.round(r * Math.cos(t)), Math.round(r * Math.sin(t))];
        const last = points.at(-1);
        if (!last || last[0] !== p[0] || last[1] !== p[1]) points.push(p);
      }
      while (points.length > 1 && points.at(-1)![0] === points[0]![0] && points.at(-1)![1] === points[0]![1])
        points.pop();
      return [...points, points[0]!];
    });

describe("ringSelfIntersects", () => {
  it("finds a spike that touches another segment, though the ring turns one way everywhere else", () => {
    // (33, 33) → (18, 18) → (60, 60) runs back along one line; (15, 52) → (33, 33) ends on the segment after the spike
    const spike: P[] = [
      [60, 60],
      [-9, -20],
      [15, 52],
      [33, 33],
      [18, 18],
      [60, 60],
    ];
    expect(reference(spike)).toBe(true);
    expect(ringSelfIntersects(spike)).toBe(true);
  });

  it.each([
    ["the pairwise path (up to 64 segments)", 3, 64, [1, 100], 360, 2000],
    ["the sweep (more than 64 segments)", 65, 300, [1000, 10_000], 3600, 300],
  ] as const)("agrees with every pair tested, on rings of %s", (_, fewest, most, radii, steps, runs) => {
    let crossing = 0;
    fc.assert(
      fc.property(ring(fewest, most, [...radii], steps), (r) => {
        const got = ringSelfIntersects(r);
        if (got) crossing++;
        expect(got).toBe(reference(r));
      }),
      { numRuns: runs },
    );
    // the drawn rings are of both kinds
    expect(crossing).toBeGreaterThan(runs / 20);
    expect(crossing).toBeLessThan(runs - runs / 20);
  });
});
