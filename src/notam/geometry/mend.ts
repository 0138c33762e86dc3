// Rings written point by point that cross themselves, mended where the text's meaning is certain; only a drawing that
// crosses itself pays for this (most do not):
//   four corners in crossing order → the box they span (`crossingBox`)
//   a loop of under 1 % of the area (a slip of the pen) → left out (`slightCrossing`)
// Any other crossing stays, and the Q-line circle stands in (geometry.ts).
import { signedArea2 } from "../../geo/planar.js";
import { ringSelfIntersects } from "../../geo/self-intersection.js";
import { cutLoops, splitAtRepeats } from "../../geo/untangle.js";
import type { Area, Note } from "./interpret.js";
import type { Ring } from "./shapes.js";

/** The areas with each written ring that crosses itself mended where it can be, and a note for each. */
export function mendAreas(areas: readonly Area[]): { areas: Area[]; notes: Note[] } {
  const notes: Note[] = [];
  const mended = areas.map((a) => {
    if (a.end === undefined) return a;
    const crossing = crosses(a.ring);
    if (!crossing) return a;
    const box = a.kind === "polygon" ? crossingBox(crossing) : undefined;
    const ring = box ?? slight(crossing);
    if (!ring) return a;
    notes.push({ code: box ? "crossingBox" : "slightCrossing", at: a.at, end: a.end });
    return { ...a, ring };
  });
  return { areas: mended, notes };
}

/** The ring without repeated points (a ring written back to its first point ends where it began), when it crosses itself. */
function crosses(written: Ring): Ring | undefined {
  const ring = written.filter((p, k) => {
    const next = written[(k + 1) % written.length]!;
    return p[0] !== next[0] || p[1] !== next[1];
  });
  return ring.length >= 3 && ringSelfIntersects([...ring, ring[0]!]) ? ring : undefined;
}

/**
 * Four corners written in crossing order (NW, NE, SW, SE, as DAAA A0454/26 writes them) are the box they span: the
 * corners in order round their centre.
 *
 *    1 ●───● 2        1 ●───● 2
 *        ╲╱      →      │   │
 *        ╱╲             │   │
 *    3 ●───● 4        3 ●───● 4   (drawn 1 2 4 3)
 */
function crossingBox(corners: Ring): Ring | undefined {
  if (corners.length !== 4) return undefined;
  const cx = corners.reduce((s, p) => s + p[0], 0) / 4;
  const cy = corners.reduce((s, p) => s + p[1], 0) / 4;
  const box = [...corners].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
  return ringSelfIntersects([...box, box[0]!]) ? undefined : box;
}

/** A written loop this small, as a share of the ring's area, is a slip of the pen (a repeated point a second off). */
const SLIGHT_LOOP = 0.01;

/**
 * A ring that crosses or touches itself only by a sliver: LEAN R4755/25 closes `432919N 0034707W - 432919N 0034709W`,
 * two seconds apart, across its first edge; UUUU E2041/26 visits one point twice, a small loop inside the area.
 */
function slight(ring: Ring): Ring | undefined {
  const small = (loop: Ring, kept: Ring) => Math.abs(signedArea2(loop)) <= SLIGHT_LOOP * Math.abs(signedArea2(kept));
  const mended = cutLoops(splitAtRepeats(ring), small);
  return ringSelfIntersects([...mended, mended[0]!]) ? undefined : mended;
}
