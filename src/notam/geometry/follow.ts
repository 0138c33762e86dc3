// A chain's border stretches followed (geo/borders.ts): which line, and which way along it.
//
//     p1 ●────────● p2           the text: p1 - p2 - p3 THEN ALONG THE STATE BORDER TO p1
//        ╎         \             two ways round the state's outline from p3 to p1:
//  border╎          ● p3          the way the text says (CLOCKWISE: the ring's winding), else the shorter.
//        ╎_ _ _ _ _/             (The Q-line centre is no guide: EPTR500's lies outside its own area.)
//
// Where a written point lies off the line (Natural Earth is 0.1–4 km off real borders), the ring may cross itself
// by a small loop where the line meets the text's next edge: the loop is cut at the crossing.
//
// The line: the border two named states share (`BETWEEN ESTONIA AND RUSSIA`), a named state's outline (`OF THE
// REPUBLIC OF BELARUS`), the NOTAM's own state's with the state named (`UKRAINIAN BORDER` from Poland) or alone
// (`THE STATE BORDER`), its coast, the named or the Q-line FIR's boundary; with no state known, the outline nearest
// both points.
import { type Boundary, boundaryPaths } from "../../geo/borders.js";
import { type LatLon, roughDistanceM } from "../../geo/geodesy.js";
import { countryOfIcao } from "../../geo/icao-prefixes.js";
import { signedArea2 } from "../../geo/planar.js";
import { cutLoops, despike } from "../../geo/untangle.js";
import type { BorderStretch } from "./border-text.js";
import type { Vertex } from "./chains.js";
import { chainRing, type Ring } from "./shapes.js";

export interface FollowContext {
  /** The Q-line FIR; the NOTAM's own state is its state (ISO alpha-2), looked up only for a border stretch. */
  fir?: string | undefined;
}

export type Followed = { ok: true; ring: Ring; stretches: number } | { ok: false; why: string; at: number };

/** The ring of a chain, each border stretch replaced by the line it follows. */
export function followedRing(vertices: readonly Vertex[], ctx: FollowContext): Followed {
  const choices = new Map<number, LatLon[][]>();
  for (const [k, v] of vertices.entries()) {
    if (!v.border || k === 0) continue;
    const from = vertices[k - 1]!.point;
    const boundary = boundaryOf(v.border, ctx);
    let found = boundaryPaths(boundary, from, v.point);
    // the state is told by the two points when the text names none
    if (!found.ok && v.border.kind !== "fir" && v.border.states.length === 0 && boundary.states.length > 0) {
      const any = boundaryPaths({ ...boundary, states: [] }, from, v.point);
      if (any.ok) found = any;
    }
    if (!found.ok) return { ok: false, why: found.why, at: v.border.at };
    choices.set(k, found.paths);
  }
  const picked = new Map<number, LatLon[]>();
  for (const [k, paths] of choices) picked.set(k, paths[0]!);
  for (const [k, paths] of choices) {
    if (paths.length < 2) continue;
    const ringWith = (path: LatLon[]) => chainRing(vertices, new Map([...picked, [k, path]]));
    picked.set(k, choose(paths, ringWith, vertices[k]!.border!));
  }
  const ring = despike(chainRing(vertices, picked));
  const km = (loop: Ring) => lengthKm([...loop, loop[0]!].map(([lon, lat]) => ({ lon, lat })));
  const cut = cutLoops(ring, (small, kept) => km(small) <= Math.max(LOOP_KM, LOOP_SHARE * (km(small) + km(kept))));
  return { ok: true, ring: cut, stretches: choices.size };
}

function boundaryOf(b: BorderStretch, ctx: FollowContext): Boundary {
  if (b.kind === "fir") return { kind: "fir", states: [], ...((b.fir ?? ctx.fir) ? { fir: b.fir ?? ctx.fir! } : {}) };
  const named = b.states;
  const own = ctx.fir ? countryOfIcao(ctx.fir) : undefined;
  if (b.kind === "coast") return { kind: "coast", states: named.length > 0 ? [named[0]!] : own ? [own] : [] };
  if (named.length >= 2) return { kind: "state", states: [named[0]!, named[1]!] };
  if (named.length === 1) return { kind: "state", states: own && own !== named[0] ? [own, named[0]!] : [named[0]!] };
  return { kind: "state", states: own ? [own] : [] };
}

function choose(paths: LatLon[][], ringWith: (p: LatLon[]) => Ring, b: BorderStretch): LatLon[] {
  if (b.clockwise !== undefined) {
    const k = paths.findIndex((p) => signedArea2(ringWith(p)) < 0 === b.clockwise);
    if (k >= 0) return paths[k]!;
  }
  return paths.reduce((x, y) => (lengthKm(y) < lengthKm(x) ? y : x));
}

/**
 * A loop whose perimeter is this short (km), or this share of the ring's, where a followed line meets the text's
 * edges is cut off: Natural Earth's error where a written point lies on the line, and the sea a state border crosses
 * where the data has only the coast (EPWW D8738/25: its point 1 lies 35 km off the coast, its edge 1–2 crosses the
 * Gulf of Gdańsk).
 */
const LOOP_KM = 80;
const LOOP_SHARE = 0.2;

function lengthKm(path: readonly LatLon[]): number {
  let m = 0;
  for (let i = 1; i < path.length; i++) m += roughDistanceM(path[i - 1]!, path[i]!);
  return m / 1000;
}
