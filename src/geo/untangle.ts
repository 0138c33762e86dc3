// Rings that cross or touch themselves by small loops, mended: spikes (`… q, p, q …`) dropped, a repeated vertex
// split into its loops, and each loop a caller calls small cut off at the crossing that makes it.
//
//        ●──────●                 a crossing at x makes two loops:
//        │       ╲    ╱╲              x → i+1 … j → x  and  x → j+1 … i → x
//        │        x──●  ●         the small one goes, the ring goes on along the other
//        ●──────●╱ ╲╱
import { type Position, pointInPolygon, type Ring, signedArea2 } from "./planar.js";

/** The ring without its spikes: a vertex between two equal ones goes with one of them. */
export function despike(ring: Ring): Ring {
  const out: Ring = [];
  for (const p of ring) {
    const back = out[out.length - 2];
    if (back && back[0] === p[0] && back[1] === p[1]) out.pop();
    else out.push(p);
  }
  return out;
}

/**
 * A ring that visits one vertex twice, not as its closing, is two loops touching there: the larger, when the other
 * lies inside it (a keyhole), else the ring as it is.
 */
export function splitAtRepeats(ring: Ring): Ring {
  const seen = new Map<string, number>();
  for (const [j, p] of ring.entries()) {
    const key = `${p[0]} ${p[1]}`;
    const i = seen.get(key);
    if (i !== undefined && !(i === 0 && j === ring.length - 1)) {
      const inner = ring.slice(i, j);
      const outer = [...ring.slice(j), ...ring.slice(0, i)];
      const [small, large] = area(inner) <= area(outer) ? [inner, outer] : [outer, inner];
      return small.every((q) => inside(q, large) || large.some((l) => l[0] === q[0] && l[1] === q[1]))
        ? splitAtRepeats(large)
        : ring;
    }
    seen.set(key, j);
  }
  return ring;
}

/** The ring with each loop that `small(loop, rest)` accepts cut at its crossing (at most 50); the rest stays. */
export function cutLoops(ring: Ring, small: (loop: Ring, rest: Ring) => boolean): Ring {
  let r = ring;
  for (let pass = 0; pass < 50; pass++) {
    const hit = firstCrossing(r);
    if (!hit) return r;
    const { i, j, at } = hit;
    const inner = [at, ...r.slice(i + 1, j + 1)];
    const outer = [at, ...r.slice(j + 1), ...r.slice(0, i + 1)];
    const [a, b] = area(inner) <= area(outer) ? [inner, outer] : [outer, inner];
    if (!small(a, b)) return r;
    r = b;
  }
  return r;
}

const area = (r: Ring) => Math.abs(signedArea2(r));
const inside = (p: Position, r: Ring) => pointInPolygon(p[0], p[1], [[...r, r[0]!]]);

/** The first pair of non-adjacent edges i < j of the closed ring that cross, and where. */
function firstCrossing(r: Ring): { i: number; j: number; at: Position } | undefined {
  const n = r.length;
  for (let i = 0; i < n; i++) {
    const a = r[i]!;
    const b = r[(i + 1) % n]!;
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const at = crossing(a, b, r[j]!, r[(j + 1) % n]!);
      if (at) return { i, j, at };
    }
  }
  return undefined;
}

function crossing(a: Position, b: Position, c: Position, d: Position): Position | undefined {
  const den = (b[0] - a[0]) * (d[1] - c[1]) - (b[1] - a[1]) * (d[0] - c[0]);
  if (den === 0) return undefined;
  const t = ((c[0] - a[0]) * (d[1] - c[1]) - (c[1] - a[1]) * (d[0] - c[0])) / den;
  const u = ((c[0] - a[0]) * (b[1] - a[1]) - (c[1] - a[1]) * (b[0] - a[0])) / den;
  if (t <= 0 || t >= 1 || u <= 0 || u >= 1) return undefined;
  return [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
}
