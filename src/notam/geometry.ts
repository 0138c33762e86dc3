// A NOTAM's own geometry (docs/design.md §2, §4): the area Item E describes, else the coarse Q-line circle.
//   parse coordinates → parts (chains, arcs, circles) → areas → repairPolygons → RFC 7946 check
import { difference } from "@turf/difference";
import { degreesToRadians, feature, featureCollection } from "@turf/helpers";
import { METERS_PER_NM, roughDistanceM } from "../geo/geodesy.js";
import { repairPolygons } from "../geo/repair.js";
import { checkAreaGeometry } from "../geo/rfc7946.js";
import type { AreaGeometry } from "../model/contract.js";
import type { QLine } from "../model/notam.js";
import { BAD_COORDINATE, parseParts } from "./geometry/chains.js";
import { parseCoordinates } from "./geometry/coordinates.js";
import { type AreaKind, interpret, type NoteCode } from "./geometry/interpret.js";
import { mendAreas } from "./geometry/mend.js";
import { circle, type Ring } from "./geometry/shapes.js";

export { parseCoordinates } from "./geometry/coordinates.js";

export type NotamGeometry =
  | {
      source: "itemE";
      shape: "circle" | "polygon" | "arc-polygon" | "point-circle";
      geometry: AreaGeometry;
      /** Stretches drawn along a border, coast or FIR boundary. */
      followed?: number;
    }
  | { source: "qLine"; shape: "circle"; geometry: AreaGeometry };

/** `at` is the offset in Item E (0 for Q-line issues); `text` quotes the excerpt or explains. */
export interface GeometryIssue {
  code: string;
  at: number;
  text: string;
}

export const GEOMETRY_ISSUES = {
  /** Item E has coordinates but no area could be drawn from them; the Q-line circle stands in. */
  itemEUnused: "notam.geometry.itemEUnused",
  /** A coordinate read past a slip (`363959E0264012E`, `00663101.4E`): the one reading inside the Q-line circle. */
  coordinateRepaired: "notam.geometry.coordinateRepaired",
  /** Shaped like a coordinate but out of range (`510635N 5012927E`): skipped. */
  badCoordinate: "notam.geometry.badCoordinate",
  /** Two or more points with no width (a route or a line): not an area. */
  lineWithoutWidth: "notam.geometry.lineWithoutWidth",
  /** An arc with no CLOCKWISE/ANTI-CLOCKWISE: drawn the shorter way. */
  arcDirectionMissing: "notam.geometry.arcDirectionMissing",
  /** An arc's end points lie off its written radius (by > 15 %): drawn through the points as written. */
  arcRadiusMismatch: "notam.geometry.arcRadiusMismatch",
  /** A closed polygon written with a radius (`WI 2NM RADIUS: p1 - … - p1`): drawn without the buffer. */
  bufferIgnored: "notam.geometry.bufferIgnored",
  /** A corridor crosses or doubles back on itself: drawn as the area within its width of the line (Clipper2's offset). */
  corridorOverlaps: "notam.geometry.corridorOverlaps",
  /** A written ring crosses or touches itself by a loop of under 1 % of its area (a slip): the loop left out. */
  slightCrossing: "notam.geometry.slightCrossing",
  /** Four corners written in crossing order (NW, NE, SW, SE): drawn as the box they span. */
  crossingBox: "notam.geometry.crossingBox",
  /** A stretch written as following a border, coast or FIR boundary could not be followed: the Q-line circle stands in. */
  borderUnfollowed: "notam.geometry.borderUnfollowed",
  /** The Item E area was not a valid polygon (out of range, degenerate, RFC 7946 check failed). */
  invalid: "notam.geometry.invalid",
  /** Item E's area reaches well beyond the Q-line circle: a typo in either is likely. Kept. */
  beyondQCircle: "notam.geometry.beyondQCircle",
  /** No usable Q-line circle (radius 999, 0 or missing, no centre): no geometry at all. */
  noQCircle: "notam.geometry.noQCircle",
} as const satisfies Record<NoteCode, string> & Record<string, `notam.geometry.${string}`>;

/**
 * A lone point with no radius (a crane, a mast, a launch site) is a 500 m circle (0.27 NM), never
 * larger than the Q-line circle; so is each point of an obstacle NOTAM's list (`2 CRANES PSNS p1 AND p2`). The Q radius itself is no measure of a point: it is rounded up to
 * whole NM (at least 1) and often covers an aerodrome or a drift area (`BALLOONS … UP TO 20NM
 * DOWNWIND`); a caller that wants the Q circle still has it.
 */
export const POINT_RADIUS_M = 500;

/** Q-line centres are rounded to whole minutes: up to 0.71 NM off. */
const Q_ROUNDING_M = 0.71 * METERS_PER_NM;

const PRIORITY: readonly AreaKind[] = ["arc-polygon", "polygon", "circle", "point-circle"];

/** Item E's own area, else the Q-line circle (coarse; the caller reports that). */
export function notamGeometry(itemE: string, q: QLine | undefined): { value?: NotamGeometry; issues: GeometryIssue[] } {
  const issues: GeometryIssue[] = [];
  const excerpt = (at: number, end: number) => itemE.slice(at, Math.min(end, at + 120)).replace(/\s+/g, " ");
  const coordinates = parseCoordinates(itemE, q);
  const parts = parseParts(itemE, coordinates);
  const qRadiusM = qCircleRadiusM(q);
  const pointM = Math.min(POINT_RADIUS_M, qRadiusM ?? Number.POSITIVE_INFINITY);
  const obstacle = q?.code.charAt(1) === "O";
  const { areas, notes, followed } = interpret(itemE, parts, { pointRadiusM: pointM, obstacle, follow: q ?? {} });
  const unfollowed = notes.some((n) => n.code === "borderUnfollowed");
  for (const c of coordinates) {
    if (c.repaired) issues.push({ code: GEOMETRY_ISSUES.coordinateRepaired, at: c.at, text: excerpt(c.at, c.end) });
  }
  for (const m of itemE.matchAll(BAD_COORDINATE)) {
    // `54⏎5000N0100000E` is read from its first digits: a match inside a coordinate read is no bad one
    const read = coordinates.some((c) => c.at <= m.index && m.index < c.end);
    if (!read) issues.push({ code: GEOMETRY_ISSUES.badCoordinate, at: m.index, text: m[0] });
  }
  for (const n of notes) {
    const text = excerpt(n.at, n.end);
    issues.push({ code: GEOMETRY_ISSUES[n.code], at: n.at, text: n.why ? `${text}: ${n.why}` : text });
  }
  let kept = areas.some((a) => a.exclude) ? areas.filter((a) => !a.exclude) : areas;
  if (kept.length > 0 && !unfollowed) {
    let whole = draw(kept.map((a) => (a.holes ? [a.ring, ...a.holes] : [a.ring])));
    // a ring that crosses itself, or a bow tie whose two halves cancel out to no area
    if (!whole.geometry) {
      const mended = mendAreas(kept);
      if (mended.notes.length > 0) {
        kept = mended.areas;
        whole = draw(kept.map((a) => (a.holes ? [a.ring, ...a.holes] : [a.ring])));
        for (const n of mended.notes)
          issues.push({ code: GEOMETRY_ISSUES[n.code], at: n.at, text: excerpt(n.at, n.end) });
      }
    }
    const drawn = without(
      whole,
      areas.filter((a) => a.exclude).map((a) => [a.ring]),
    );
    if (drawn.geometry) {
      const shape = PRIORITY.find((k) => kept.some((a) => a.kind === k))!;
      const far = q?.centre && qRadiusM !== undefined ? farthestM(drawn.geometry, q.centre) : 0;
      if (qRadiusM !== undefined && far > qRadiusM + Math.max(2 * METERS_PER_NM, 0.2 * qRadiusM) + Q_ROUNDING_M) {
        issues.push({
          code: GEOMETRY_ISSUES.beyondQCircle,
          at: areas[0]!.at,
          text: `a vertex is ${(far / METERS_PER_NM).toFixed(1)} NM from the Q-line centre, radius ${q?.radiusNm} NM`,
        });
      }
      const value = {
        source: "itemE",
        shape,
        geometry: drawn.geometry,
        ...(followed > 0 ? { followed } : {}),
      } as const;
      return { value, issues };
    }
    const at = areas[0]!.at;
    issues.push({ code: GEOMETRY_ISSUES.invalid, at, text: `${excerpt(at, itemE.length)}: ${drawn.why}` });
  } else if (parts.length > 0 && !unfollowed) {
    issues.push({ code: GEOMETRY_ISSUES.itemEUnused, at: parts[0]!.at, text: excerpt(parts[0]!.at, itemE.length) });
  }
  const fallback = qCircle(q);
  if (fallback) return { value: { source: "qLine", shape: "circle", geometry: fallback }, issues };
  issues.push({ code: GEOMETRY_ISSUES.noQCircle, at: 0, text: `Q-line ${q ? `"${q.raw}"` : "missing"}: no circle` });
  return { issues };
}

function qCircleRadiusM(q: QLine | undefined): number | undefined {
  const r = q?.radiusNm;
  return r !== undefined && r > 0 && r < 999 ? r * METERS_PER_NM : undefined;
}

/**
 * Q-line circles drawn, by centre and radius: briefings repeat them (the corpus's 33 561 NOTAMs fall back on 11 418
 * Q-line circles, 907 of them distinct). Callers share each one, frozen down to its rings: no stage changes a
 * geometry, and one that tried to change its structure would throw. A Europe-scale run holds one copy of a circle,
 * not one per NOTAM. Bounded: cleared when full.
 */
const qCircles = new Map<string, AreaGeometry | undefined>();
const Q_CIRCLES_MAX = 10_000;

function qCircle(q: QLine | undefined): AreaGeometry | undefined {
  const r = qCircleRadiusM(q);
  if (!q?.centre || r === undefined) return undefined;
  const key = `${q.centre.lat} ${q.centre.lon} ${r}`;
  let drawn = qCircles.get(key);
  if (!qCircles.has(key)) {
    drawn = draw([[circle(q.centre, r)]]).geometry;
    if (drawn) deepFreeze(drawn);
    if (qCircles.size >= Q_CIRCLES_MAX) qCircles.clear();
    qCircles.set(key, drawn);
  }
  return drawn;
}

/** Forgets the drawn Q-line circles, so that a benchmark's pass costs what one run costs. */
export function forgetQCircles(): void {
  qCircles.clear();
}

/**
 * Freezes the geometry and its rings, not its positions: freezing a `[lon, lat]` makes V8 box its numbers, and
 * teaches the repair's allocation site to box every position it makes after (the whole run's NOTAM geometries).
 */
function deepFreeze(g: AreaGeometry): void {
  const polygons = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  for (const rings of polygons) {
    for (const ring of rings) Object.freeze(ring);
    Object.freeze(rings);
  }
  Object.freeze(g.coordinates);
  Object.freeze(g);
}

/** The drawing without the areas the text excludes (@turf/difference); all of it when nothing would be left. */
function without(
  drawn: { geometry?: AreaGeometry; why: string },
  excluded: Ring[][],
): { geometry?: AreaGeometry; why: string } {
  if (!drawn.geometry || excluded.length === 0) return drawn;
  const holes = draw(excluded).geometry;
  if (!holes) return drawn;
  const rest = difference(featureCollection([feature(drawn.geometry), feature(holes)]))?.geometry;
  if (!rest) return drawn;
  const polygons = rest.type === "Polygon" ? [rest.coordinates] : rest.coordinates;
  const repaired = repairPolygons(polygons as Array<Array<Array<[number, number]>>>);
  return repaired.ok && !repaired.selfIntersects ? { geometry: repaired.geometry, why: "" } : drawn;
}

/** Polygons (a ring, its holes) to one valid RFC 7946 geometry, or why not. A ring that crosses itself is not valid. */
function draw(polygons: Ring[][]): { geometry?: AreaGeometry; why: string } {
  const repaired = repairPolygons(polygons);
  if (!repaired.ok) return { why: repaired.message };
  if (repaired.selfIntersects) return { why: "a ring crosses itself" };
  const violations = checkAreaGeometry(repaired.geometry);
  if (violations.length > 0) return { why: violations.map((v) => v.message).join("; ") };
  return { geometry: repaired.geometry, why: "" };
}

/**
 * The largest distance from `centre` to any vertex, metres: @turf/distance's, to the vertex whose haversine term is
 * the largest (the distance grows with it), so that only one vertex pays for the whole formula.
 */
export function farthestM(geometry: AreaGeometry, centre: { lat: number; lon: number }): number {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  const cosLat1 = Math.cos(degreesToRadians(centre.lat));
  let best: [number, number] | undefined;
  let bestA = -1;
  for (const poly of polygons)
    for (const ring of poly)
      for (const p of ring) {
        const dLat = degreesToRadians(p[1] - centre.lat);
        const dLon = degreesToRadians(p[0] - centre.lon);
        const a = Math.sin(dLat / 2) ** 2 + Math.sin(dLon / 2) ** 2 * cosLat1 * Math.cos(degreesToRadians(p[1]));
        if (a > bestA) [best, bestA] = [p, a];
      }
  return best ? roughDistanceM(centre, { lat: best[1], lon: best[0] }) : 0;
}
