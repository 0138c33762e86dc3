// Geodesy for drawing arcs and circles (OpenAir DA/DB/DC, YAIXM arcs and circles, NOTAM circles) on the WGS 84
// ellipsoid with GeographicLib (Karney). Decision, measured on the 516 arc ends of YAIXM 2026-06: a sphere (our
// former haversine, and @turf/turf's destination/distance) puts them 27 m (median) to 135 m (max) off their
// published radius, the ellipsoid 7 m to 112 m (9 over 50 m, the data's own rounding); cost 0.5 µs a point.
// NOTAM circles (@turf/circle's formula) and tolerance checks (@turf/distance) are on a sphere (8× cheaper): a NOTAM
// circle of ≤ 5 NM moves ≤ 45 m, below the precision of its centre; the ellipsoid halved NOTAM throughput.
import { distance } from "@turf/distance";
import { degreesToRadians, lengthToRadians, radiansToDegrees } from "@turf/helpers";
import geodesic from "geographiclib-geodesic";

const WGS84 = geodesic.Geodesic.WGS84;
const POSITION = geodesic.Geodesic.LATITUDE | geodesic.Geodesic.LONGITUDE;
export const METERS_PER_NM = 1852;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Geodesic distance in metres. */
export function distanceM(a: LatLon, b: LatLon): number {
  return WGS84.Inverse(a.lat, a.lon, b.lat, b.lon, geodesic.Geodesic.DISTANCE).s12 ?? 0;
}

/** Initial azimuth from a to b in degrees, 0..360 clockwise from true north. */
export function bearingDeg(a: LatLon, b: LatLon): number {
  const azi = WGS84.Inverse(a.lat, a.lon, b.lat, b.lon, geodesic.Geodesic.AZIMUTH).azi1 ?? 0;
  return (azi + 360) % 360;
}

/** The point at `distance` metres from `from` along initial azimuth `bearing` degrees. */
export function destination(from: LatLon, bearing: number, distance: number): LatLon {
  const r = WGS84.Direct(from.lat, from.lon, bearing, distance, POSITION);
  return { lat: r.lat2 ?? from.lat, lon: (((r.lon2 ?? from.lon) + 540) % 360) - 180 };
}

/**
 * Points of an arc around `center` from bearing `from` to bearing `to` (degrees), clockwise or not,
 * at most `stepDeg` apart, both ends included. A full circle is from = to with `full` set.
 *
 *        from ●
 *              \   clockwise: bearings grow
 *     center ●  )
 *              /
 *          to ●
 */
export function arcPoints(
  center: LatLon,
  radiusM: number,
  from: number,
  to: number,
  clockwise: boolean,
  stepDeg = 5,
  full = false,
): LatLon[] {
  let sweep = clockwise ? (to - from + 360) % 360 : (from - to + 360) % 360;
  if (full || sweep === 0) sweep = full ? 360 : 0;
  const steps = Math.max(1, Math.ceil(sweep / stepDeg));
  const out: LatLon[] = [];
  for (let i = 0; i <= steps; i++) {
    const b = clockwise ? from + (sweep * i) / steps : from - (sweep * i) / steps;
    out.push(destination(center, b, radiusM));
  }
  return out;
}

/** A closed circle ring of `segments` segments (≥ 32 per docs/design.md), counter-clockwise, as [lon, lat]. */
export function circleRing(center: LatLon, radiusM: number, segments = 64): Array<[number, number]> {
  const ring: Array<[number, number]> = [];
  for (let i = 0; i < segments; i++) {
    // counter-clockwise seen from above = decreasing bearing
    const p = destination(center, 360 - (360 * i) / segments, radiusM);
    ring.push([p.lon, p.lat]);
  }
  const first = ring[0];
  if (first) ring.push([first[0], first[1]]);
  return ring;
}

/** Distance on a sphere (turf), metres: for checks with tolerances of tens of metres or more. */
export function roughDistanceM(a: LatLon, b: LatLon): number {
  return distance([a.lon, a.lat], [b.lon, b.lat], { units: "meters" });
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * A NOTAM circle on a sphere, closed, counter-clockwise, as [lon, lat]: @turf/circle's points to the bit (its
 * destination formula, turf's unit conversions), with the bearings' and the centre's sines computed once per circle
 * and no Feature per point: 2.8× faster than @turf/circle (bit-identical on 100 000 random circles), which was a
 * tenth of the NOTAM benchmark. Rounded to the six decimals the repair keeps, so that it takes each position as it
 * is instead of copying it (a tenth of what drawing the corpus's NOTAMs allocated).
 */
export function roughCircleRing(center: LatLon, radiusM: number, segments: number): Array<[number, number]> {
  const lon1 = degreesToRadians(center.lon);
  const lat1 = degreesToRadians(center.lat);
  const angle = lengthToRadians(radiusM, "meters");
  const [sinLat1, cosLat1, sinAngle, cosAngle] = [Math.sin(lat1), Math.cos(lat1), Math.sin(angle), Math.cos(angle)];
  const ring: Array<[number, number]> = [];
  const table = bearingsOf(segments);
  for (let i = 0; i < table.length; i++) {
    const [sinB, cosB] = table[i]!;
    const lat2 = Math.asin(sinLat1 * cosAngle + cosLat1 * sinAngle * cosB);
    const lon2 = lon1 + Math.atan2(sinB * sinAngle * cosLat1, cosAngle - sinLat1 * Math.sin(lat2));
    ring.push([round6(radiansToDegrees(lon2)), round6(radiansToDegrees(lat2))]);
  }
  const [lon0, lat0] = ring[0]!;
  ring.push([lon0, lat0]);
  return ring;
}

/** Sine and cosine of a circle's bearings as @turf/circle steps them (0, -360/n, …), by number of segments. */
const bearingTables = new Map<number, Array<[number, number]>>();
function bearingsOf(segments: number): Array<[number, number]> {
  let table = bearingTables.get(segments);
  if (!table) {
    table = [];
    for (let i = 0; i < segments; i++) {
      const b = degreesToRadians((i * -360) / segments);
      table.push([Math.sin(b), Math.cos(b)]);
    }
    bearingTables.set(segments, table);
  }
  return table;
}
