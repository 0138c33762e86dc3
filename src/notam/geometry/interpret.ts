// From parts (chains, arcs, circles) to areas, with the words around each part deciding what it is:
//   one point with a radius → circle            p1 - p2 - p3 (- p1)            → polygon
//   a chain with arcs        → arc-polygon      WI 2NM EITHER SIDE OF p1 - p2  → corridor (a polygon)
//   WI 50M RADIUS OF PSNS p1, p2 (MULTIPLE …)   → one circle per point; p1 - p2 with a radius → corridor
//   a lone point, no radius  → point-circle (only when nothing else in the text is an area)
import { type LatLon, METERS_PER_NM, roughDistanceM } from "../../geo/geodesy.js";
import type { Arc, Part } from "./chains.js";
import { RADIUS_WORD, radii, widths } from "./distances.js";
import { type FollowContext, followedRing } from "./follow.js";
import { chainRing, circle, corridor, type Ring } from "./shapes.js";

export type AreaKind = "circle" | "polygon" | "arc-polygon" | "point-circle";
export interface Area {
  kind: AreaKind;
  ring: Ring;
  at: number;
  /** Where a ring written point by point ends: one that crosses itself may be mended (mend.ts). */
  end?: number;
  /** Inside the ring but not the area: a corridor that loops round leaves them. */
  holes?: Ring[];
  /** `p1 - … - p1 EXCLUDING AREA: RADIUS 3NM CENTERED ON c` (LGGG A0157/26): taken out of the others. */
  exclude?: true;
}
/** Named in GEOMETRY_ISSUES (geometry.ts) as `notam.geometry.<code>`. */
export type NoteCode =
  | "lineWithoutWidth"
  | "arcDirectionMissing"
  | "arcRadiusMismatch"
  | "bufferIgnored"
  | "corridorOverlaps"
  | "crossingBox"
  | "slightCrossing"
  | "borderUnfollowed";
export interface Note {
  code: NoteCode;
  at: number;
  end: number;
  /** What went wrong, where the excerpt does not say. */
  why?: string;
}

/** How far a radius may stand from its coordinate: `WI 9NM RADIUS OF PSN\n`, `p (PLACE, COUNTY) RADIUS 0.1NM`. */
const NEAR = 60;
const MULTIPLE = /\b(?:MULTIPLE|VARIOUS|SEVERAL|LOCATIONS|SITES|PSNS|POSITIONS|REFERENCES)\b/i;
const ROUTE = /\bTR\d*\b|\b(?:ROUTE|ROUTING|ROUTEING|TRACK|TRANSIT|TRANSITING|BTN|BETWEEN)\b/i;
const AREA = /\b(?:BOUNDED|AREA|ENCLOSED|DELIMITED|POLYGON)\b/i;
const RADIUS_WORD_RE = new RegExp(RADIUS_WORD, "i");
/** Points the text says are sites, not corners. */
const POINTS_ONLY =
  /\bNOT FORMING (?:A )?POLYGON\b|\b(?:AT|ON) (?:THE )?(?:FLW|FOLLOWING) (?:COORD(?:INATE)?S?|PSNS?|POSITIONS?|POINTS?)\b/i;
/** An area taken out of the one before: `EXCLUDING AREA: RADIUS 3NM CENTERED ON`, `EXCEPT THE AREA WI …`. */
const EXCLUDING = /\b(?:EXCLUDING|EXCLUDED|EXCEPT|EXCL)\b(?:\s+(?:THE\s+)?AREA\b)?[^.]{0,40}$/i;

export interface InterpretOptions {
  /** Radius of a lone point's circle, metres. */
  pointRadiusM: number;
  /** An obstacle NOTAM (Q-code subject O…): points joined without a width are objects, not a route. */
  obstacle: boolean;
  /** Where a border stretch is followed (follow.ts). */
  follow: FollowContext;
}

export function interpret(
  text: string,
  parts: readonly Part[],
  opts: InterpretOptions,
): { areas: Area[]; notes: Note[]; followed: number } {
  const areas: Area[] = [];
  let followed = 0;
  const points: Array<{ point: LatLon; at: number }> = [];
  const notes: Note[] = [];
  let lines = 0;
  const note = (code: NoteCode, at: number, end: number) => notes.push({ code, at, end });
  // the words that rarely occur, looked for part by part only in a text that has them
  const excluding = text.includes("EXC") || text.includes("exc");
  const sites = text.includes("FORMING") || text.includes("FLW") || text.includes("FOLLOWING") || text.includes("flw");
  let prevEnd = 0;
  for (const part of parts) {
    const prevStart = prevEnd;
    prevEnd = part.end;
    const exclude = excluding && areas.length > 0 && EXCLUDING.test(text.slice(prevStart, part.at));
    const push = (a: Area) => areas.push(exclude ? { ...a, exclude: true } : a);
    if (part.kind === "circle") {
      const r = part.radiusM ?? radiusAfter(text, part.end, text.length);
      if (r === undefined) points.push({ point: part.centre, at: part.at });
      else push({ kind: "circle", ring: circle(part.centre, r), at: part.at });
      continue;
    }
    const pts = part.vertices.map((v) => v.point);
    const lead = text.slice(part.leadAt, part.at);
    const first = pts[0]!;
    const last = pts[pts.length - 1]!;
    const closed = pts.length >= 4 && roughDistanceM(first, last) < 1;
    const width = widthBefore(lead) ?? widthAfter(text, part.end, part.tailEnd);
    const radius =
      radiusBefore(text, part.leadAt, part.at) ??
      (pts.length === 1 ? (radiusAfter(text, part.end, part.tailEnd) ?? siteRadius(text, part)) : undefined);
    const arcs = part.vertices.some((v, k) => v.arc && k > 0);
    if (sites && radius === undefined && width === undefined && POINTS_ONLY.test(lead)) {
      // `DRONE ACTIVITY WILL TAKE PLACE AT THE FLW COORDS: (NOT FORMING POLYGON, LINE OR CIRCLE) p1 p2 …` (OOMS)
      for (const v of part.vertices) points.push({ point: v.point, at: v.at });
    } else if (part.vertices.some((v, k) => v.border && k > 0)) {
      // `… THEN ALONG THE STATE BORDER TO p1`: an area, whatever the words before it
      const f = followedRing(part.vertices, opts.follow);
      if (!f.ok) {
        notes.push({ code: "borderUnfollowed", at: f.at, end: part.end, why: f.why });
        continue;
      }
      followed += f.stretches;
      push({ kind: arcs ? "arc-polygon" : "polygon", ring: f.ring, at: part.at });
    } else if (arcs) {
      if (part.vertices.some((v) => v.arc && v.arc.clockwise === undefined))
        note("arcDirectionMissing", part.at, part.end);
      if (part.vertices.some((v, k) => v.arc && offCircle(v.arc, part.vertices[k - 1]?.point, v.point))) {
        note("arcRadiusMismatch", part.at, part.end);
      }
      push({ kind: "arc-polygon", ring: chainRing(part.vertices), at: part.at, end: part.end });
    } else if (width && pts.length >= 2) {
      pushCorridor(pts, width.metres, part.at, part.end);
    } else if (pts.length === 1) {
      if (radius === undefined) points.push({ point: first, at: part.at });
      else push({ kind: "circle", ring: circle(first, radius), at: part.at });
    } else if (radius !== undefined && (part.alternatives || MULTIPLE.test(lead))) {
      for (const v of part.vertices) areas.push({ kind: "circle", ring: circle(v.point, radius), at: v.at });
    } else if (
      closed ||
      (pts.length >= 3 && radius === undefined && (AREA.test(lead) || (!ROUTE.test(lead) && !opts.obstacle)))
    ) {
      if (radius !== undefined) note("bufferIgnored", part.at, part.end);
      push({ kind: "polygon", ring: chainRing(part.vertices), at: part.at, end: part.end });
    } else if (radius !== undefined) {
      pushCorridor(pts, radius, part.at, part.end);
    } else if (opts.obstacle) {
      // `2 CRANES OPR PSNS p1 AND p2`, `CRANE OPR BTN p1 - p2 - p3 - p4`: each point an object
      for (const v of part.vertices) points.push({ point: v.point, at: v.at });
    } else {
      lines++;
      note("lineWithoutWidth", part.at, part.end);
    }
  }
  if (areas.length === 0 && lines === 0 && points.length > 1 && !opts.obstacle && ROUTE.test(text)) {
    // `ROUTING: p1 (PLACE) 0943 / p2 (PLACE) 0945 …`: waypoints of a route, not sites
    note("lineWithoutWidth", points[0]!.at, points[points.length - 1]!.at);
  } else if (areas.length === 0 && lines === 0) {
    for (const p of points) areas.push({ kind: "point-circle", ring: circle(p.point, opts.pointRadiusM), at: p.at });
  }
  return { areas, notes, followed };

  function pushCorridor(pts: LatLon[], halfWidthM: number, at: number, end: number) {
    const { ring, holes, overlaps } = corridor(pts, halfWidthM);
    if (overlaps) note("corridorOverlaps", at, end);
    areas.push({ kind: "polygon", ring, at, ...(holes?.length ? { holes } : {}) });
  }
}

/** An arc end further than 15 % (at least 0.1 NM) from the written radius: a typo in a point or the radius. */
function offCircle(arc: Arc, from: LatLon | undefined, to: LatLon): boolean {
  const r = arc.radiusM;
  if (r === undefined || !from) return false;
  const tolerance = Math.max(0.15 * r, 0.1 * METERS_PER_NM);
  return [from, to].some((p) => Math.abs(roughDistanceM(arc.centre, p) - r) > tolerance);
}

/** The last radius ending within NEAR characters before `at`, from `from` on. */
function radiusBefore(text: string, from: number, at: number): number | undefined {
  const lead = text.slice(Math.max(from, at - NEAR - 40), at);
  const r = radii(lead).at(-1);
  return r && lead.length - r.end <= NEAR ? r.metres : undefined;
}

/**
 * A lone point's radius stated in a later sentence, worded RADIUS, with no other coordinate between:
 * `TRANSPONDER LOCATED AT: p (BOSCOMBE DOWN AD). … INDICATIONS MAY OCCUR … (WI 3NM RADIUS)`.
 */
function siteRadius(text: string, part: { end: number; tailEnd: number }): number | undefined {
  const tail = text.slice(part.end, Math.min(part.tailEnd, part.end + 300));
  return radii(tail).find((r) => RADIUS_WORD_RE.test(tail.slice(Math.max(0, r.at - 12), r.end + 10)))?.metres;
}

/**
 * `WI 2NM EITHER SIDE OF p1 - p2`: a width written before the points, in their sentence; not the width of the route
 * before them (`… p3⏎1NM EITHER SIDE OF THE LINE⏎VERTICAL LIMITS: …⏎⏎4TH AREA: p1 …`, LTAA A0238/26).
 */
function widthBefore(lead: string) {
  const w = widths(lead).at(-1);
  return w && !/\n\s*\n|\.\s|\bVERTICAL\b|\bAREA\s*:/i.test(lead.slice(w.end)) ? w : undefined;
}

/** `p1 - p2 - p3 (PLACE). GLIDERS … WI 5NM OF ROUTE`: a width written after the points. */
function widthAfter(text: string, end: number, limit: number) {
  const tail = text.slice(end, Math.min(limit, end + 200));
  const w = widths(tail)[0];
  // not the width that leads the next points: `… p1 (MANNED ACFT) - TC: 5NM EITHER SIDE LINE JOINING POINTS p2 p3`
  const leads =
    w && limit < text.length && limit - (end + w.end) <= 40 && !/\.\s|\n\s*\n/.test(text.slice(end + w.end, limit));
  return leads ? undefined : w;
}

/** The first radius starting within NEAR characters after `end`, before `limit` and in the same sentence. */
function radiusAfter(text: string, end: number, limit: number): number | undefined {
  const tail = text.slice(end, Math.min(limit, end + NEAR + 20));
  const r = radii(tail)[0];
  return r && r.at <= NEAR && !/\.\s/.test(tail.slice(0, r.at)) ? r.metres : undefined;
}
