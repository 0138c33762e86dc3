// Spherical geodesy for drawing arcs and circles (OpenAir DA/DB/DC, NOTAM circles).
// A sphere of the FAI radius is accurate to ~0.5 % against WGS 84, far below chart precision.

const EARTH_RADIUS_M = 6_371_000;
export const METERS_PER_NM = 1852;
const RAD = Math.PI / 180;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Great-circle distance in metres. */
export function distanceM(a: LatLon, b: LatLon): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b in degrees, 0..360 clockwise from true north. */
export function bearingDeg(a: LatLon, b: LatLon): number {
  const φ1 = a.lat * RAD;
  const φ2 = b.lat * RAD;
  const Δλ = (b.lon - a.lon) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

/** The point at `distance` metres from `from` along initial bearing `bearing` degrees. */
export function destination(from: LatLon, bearing: number, distance: number): LatLon {
  const δ = distance / EARTH_RADIUS_M;
  const θ = bearing * RAD;
  const φ1 = from.lat * RAD;
  const λ1 = from.lon * RAD;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: φ2 / RAD, lon: ((λ2 / RAD + 540) % 360) - 180 };
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

/** A closed circle ring of `segments` segments (≥ 32 per DESIGN), counter-clockwise, as [lon, lat]. */
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
