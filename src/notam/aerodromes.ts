// Where an aerodrome is, as its own NOTAMs say: a NOTAM about one aerodrome (Q-line scope `A`, one location in Item A)
// is centred on its reference point with a radius of a few NM (`LFEE/QMRLC/IV/NBO/A/000/999/4735N00732E005` at
// LFSB). The linker places a kind named without a place (`TRAINING … PROHIBITED WITHIN TMA.` at LFSB, whose own
// Q-line circle is 69 NM wide and centred 60 km west of the aerodrome) by that point. No aerodrome table is needed:
// the briefing that names the aerodrome brings its position. Pure: NOTAMs in, points out.
import type { Notam } from "../model/notam.js";

export type LatLon = { lat: number; lon: number };

/** An aerodrome NOTAM's circle is its reference point when no wider than this. */
const MAX_RADIUS_NM = 5;

/** Each aerodrome's reference point: the centre its aerodrome NOTAMs give most often. */
export function aerodromePoints(notams: Iterable<Notam>): Map<string, LatLon> {
  const counts = new Map<string, Map<string, { point: LatLon; n: number }>>();
  for (const n of notams) {
    const q = n.q;
    const location = n.itemA.length === 1 ? n.itemA[0]! : undefined;
    if (!location || !q?.centre || q.scope !== "A" || (q.radiusNm ?? Number.POSITIVE_INFINITY) > MAX_RADIUS_NM) {
      continue;
    }
    const byPoint = counts.get(location) ?? new Map<string, { point: LatLon; n: number }>();
    counts.set(location, byPoint);
    const key = `${q.centre.lat.toFixed(4)} ${q.centre.lon.toFixed(4)}`;
    const seen = byPoint.get(key) ?? { point: q.centre, n: 0 };
    seen.n++;
    byPoint.set(key, seen);
  }
  const out = new Map<string, LatLon>();
  for (const [location, byPoint] of counts) {
    let best: { point: LatLon; n: number } | undefined;
    for (const p of byPoint.values()) if (!best || p.n > best.n) best = p;
    out.set(location, best!.point);
  }
  return out;
}
