// Names and geometry agree (docs/design.md §4 linking, issue 50): a NOTAM that carries its own area (Item E's
// coordinates or circle) or its own band (F/G) is linked by name only to volumes that area overlaps and that band
// meets. `EPTR767B` drawn beside the file's `TR 767` (which is really sub-volume A) names the area but not that
// volume: the link is unsure, never an activation. The Q-line circle is too coarse to say anything.
import { area } from "@turf/area";
import { feature, featureCollection } from "@turf/helpers";
import { intersect } from "@turf/intersect";
import { type Bbox, bboxOfPolygons } from "../geo/planar.js";
import type { AreaGeometry, VerticalLimit } from "../model/contract.js";
import { comparableFeet } from "../model/limits.js";
import { LimitUnit, ReferenceDatum } from "../model/vocab.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";

/**
 * The least share of the smaller of the two areas that must lie in both. On the labelled real links whose NOTAM draws
 * its own area, the share is at least 0.995 (a circle standing for a polygon); a sub-volume drawn beside the named
 * one shares only its edge (0.000–0.002).
 */
export const MIN_OVERLAP = 0.25;

/** What a NOTAM says of where it is, besides its names. */
export interface OwnArea {
  /** Item E's area, not the Q-line circle. */
  geometry?: AreaGeometry;
  lower?: VerticalLimit;
  upper?: VerticalLimit;
}

export type Disagreement = "lateral" | "vertical";

/** Why the NOTAM's own area or band cannot be the volume's, or undefined when they agree (or cannot be compared). */
export function disagreement(own: OwnArea, a: NormalizedAirspace): Disagreement | undefined {
  if (own.lower && own.upper && bandsApart(own.lower, own.upper, a.lowerLimit, a.upperLimit)) return "vertical";
  if (own.geometry && overlapShare(own.geometry, a.geometry) < MIN_OVERLAP) return "lateral";
  return undefined;
}

/** The area both hold, as a share of the smaller one (0 when their boxes are apart). */
export function overlapShare(x: AreaGeometry, y: AreaGeometry): number {
  if (!boxesMeet(boxOf(x), boxOf(y))) return 0;
  const [fx, fy] = [feature(x), feature(y)];
  const smaller = Math.min(area(fx), area(fy));
  if (smaller <= 0) return 0;
  try {
    const both = intersect(featureCollection([fx, fy]));
    return both ? area(both) / smaller : 0;
  } catch {
    // a ring the clipper cannot read: say nothing against the name
    return 1;
  }
}

const boxOf = (g: AreaGeometry): Bbox => bboxOfPolygons(g.type === "Polygon" ? [g.coordinates] : g.coordinates);
const boxesMeet = (a: Bbox, b: Bbox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/**
 * Whether two bands lie apart: one's lower limit at or above the other's upper (stacked sub-volumes touch at one
 * level). Compared only within one reference (ground or sea, flight levels as feet of the sea), with 1 000 ft of slack
 * where a flight level meets feet (pressure against altitude); GND is 0 of either.
 */
function bandsApart(lo: VerticalLimit, up: VerticalLimit, aLo: VerticalLimit, aUp: VerticalLimit): boolean {
  return above(lo, aUp) || above(aLo, up);
}

/** Whether `x` (a lower limit) is at or above `y` (an upper limit), certainly. */
function above(x: VerticalLimit, y: VerticalLimit): boolean {
  if (isGround(x)) return false;
  if (isUnlimited(y)) return false;
  const [fx, fy] = [comparableFeet(x), comparableFeet(y)];
  const ground = isGround(y);
  if (!ground && fx.family !== fy.family) return false;
  const slack = (x.unit === LimitUnit.FLIGHT_LEVEL) !== (y.unit === LimitUnit.FLIGHT_LEVEL) ? 1000 : 0;
  return fx.feet >= (ground ? 0 : fy.feet) + slack;
}

const isGround = (l: VerticalLimit) => l.value === 0 && l.referenceDatum === ReferenceDatum.GND;
const isUnlimited = (l: VerticalLimit) => l.unit === LimitUnit.FLIGHT_LEVEL && l.value >= 999;
