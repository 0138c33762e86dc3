// A YAIXM volume boundary to one raw ring: `line` points, `arc`s around a centre to a point (cw/ccw, radius in
// nm or km), or one `circle`. Arcs start at the ring's current last point and end exactly on `to`.
//            to ●
//               \     arc: {dir: cw, radius: 10 nm, centre: C, to: …}
//      C ●       )
//               /
//     (last) ●
import { arcPoints, bearingDeg, circleRing, distanceM, type LatLon, METERS_PER_NM } from "../geo/geodesy.js";
import type { RawRing } from "../model/airspace.js";

export type Segment =
  | { line: string[] }
  | { arc: { centre: string; dir: "cw" | "ccw"; radius: string; to: string } }
  | { circle: { centre: string; radius: string } };

/** Arc densification step in degrees (as OpenAir arcs). */
const ARC_STEP_DEG = 5;
const CIRCLE_SEGMENTS = 64;
/** An arc end further than this from its radius is reported (YAIXM writes whole seconds: ~30 m). */
export const ARC_TOLERANCE_M = 50;

/** `572153N 0015835W` → degrees. */
export function latLon(text: string): LatLon {
  const m = /^(\d{2})(\d{2})(\d{2})([NS]) (\d{3})(\d{2})(\d{2})([EW])$/.exec(text)!;
  const lat = Number(m[1]) + Number(m[2]) / 60 + Number(m[3]) / 3600;
  const lon = Number(m[5]) + Number(m[6]) / 60 + Number(m[7]) / 3600;
  return { lat: m[4] === "S" ? -lat : lat, lon: m[8] === "W" ? -lon : lon };
}

const radiusM = (text: string) => {
  const [n, unit] = text.split(" ");
  return Number(n) * (unit === "km" ? 1000 : METERS_PER_NM);
};

export interface BoundaryRing {
  ring: RawRing;
  warnings: Array<{ code: string; message: string }>;
  /** Largest distance between an arc's ends and its circle, metres (the data's own consistency). */
  worstArcEndM: number;
}

export function boundaryRing(boundary: readonly Segment[]): BoundaryRing {
  const points: LatLon[] = [];
  const warnings: BoundaryRing["warnings"] = [];
  let worst = 0;
  for (const s of boundary) {
    if ("circle" in s) {
      const ring = circleRing(latLon(s.circle.centre), radiusM(s.circle.radius), CIRCLE_SEGMENTS);
      return { ring, warnings, worstArcEndM: 0 };
    }
    if ("line" in s) {
      points.push(...s.line.map(latLon));
      continue;
    }
    const centre = latLon(s.arc.centre);
    const to = latLon(s.arc.to);
    const from = points[points.length - 1];
    const r = radiusM(s.arc.radius);
    if (!from) {
      warnings.push({ code: "yaixm.arc.noStart", message: "an arc begins the boundary; drawn from its end" });
      points.push(to);
      continue;
    }
    const off = Math.max(Math.abs(distanceM(centre, from) - r), Math.abs(distanceM(centre, to) - r));
    worst = Math.max(worst, off);
    if (off > ARC_TOLERANCE_M) {
      warnings.push({
        code: "yaixm.arc.radius",
        message: `arc ends lie ${Math.round(off)} m off its ${s.arc.radius} radius`,
      });
    }
    const arc = arcPoints(
      centre,
      r,
      bearingDeg(centre, from),
      bearingDeg(centre, to),
      s.arc.dir === "cw",
      ARC_STEP_DEG,
    );
    points.push(...arc.slice(1, -1), to);
  }
  const ring: RawRing = points.map((p) => [p.lon, p.lat]);
  return { ring, warnings, worstArcEndM: worst };
}
