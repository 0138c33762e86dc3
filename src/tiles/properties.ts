// A feature's properties in a vector tile: flat scalars (an MVT value is a string, number or boolean), with the day's
// intervals as minutes of the UTC day so that a MapLibre filter tests "active at t" without parsing a date:
//
//   ["any", ["all", ["<=", ["get", "s0"], t], [">", ["get", "e0"], t]], …, up to s15/e15]    (t: minutes since 00:00Z)
//
// The intervals are those the map page reads (activation times and schedule rows, model/feature-facts.ts), clipped to
// the day and merged where they touch. Past INTERVALS, the last pair spans from the last kept start to the end of the
// last one: a tile may show a feature active where it is not between two late intervals, never the other way round.
import type { Feature } from "../model/contract.js";
import { feet, intervalsOf, isObstacle } from "../model/feature-facts.js";
import type { UtcDay } from "../model/time.js";

/** Start/end pairs a tile feature carries (s0/e0 … s15/e15). */
export const INTERVALS = 16;
const MINUTE = 60_000;

export type TileValue = string | number | boolean;

/** The properties of `f` in a tile of `day`. */
export function tileProperties(f: Feature, day: UtcDay): Record<string, TileValue> {
  const p = f.properties;
  const v = p.vendor;
  const m = v.dynamicAirspaceMapping;
  const s = m.dynamicStyle;
  const out: Record<string, TileValue> = {
    _id: p._id,
    name: p.name,
    type: p.type,
    featureCategory: p.featureCategory,
    country: p.country,
    upperLimit: v.formattedUpperLimit,
    lowerLimit: v.formattedLowerLimit,
    upperFt: feet(p.upperLimit),
    lowerFt: feet(p.lowerLimit),
    isActive: m.isActive,
    activationType: m.activationType,
    obstacle: isObstacle(f),
  };
  const pairs = minutesOfDay(
    intervalsOf(f).flatMap((i) => [Date.parse(i.start), Date.parse(i.end)]),
    day,
  );
  out.intervals = pairs.length / 2;
  for (let k = 0; k < pairs.length / 2; k++) {
    out[`s${k}`] = pairs[2 * k]!;
    out[`e${k}`] = pairs[2 * k + 1]!;
  }
  if (s) {
    out.fillColor = s.fillColor;
    out.fillOpacity = s.fillOpacity;
    out.lineColor = s.lineColor;
    out.lineWidth = s.lineWidth;
    out.lineOpacity = s.lineOpacity;
    out.lineDasharray = s.lineDasharray.join(",");
    out.priority = s.priority;
    out.polygonPaintDirection = s.polygonPaintDirection;
    if (s.complexStyle !== null) out.complexStyle = s.complexStyle;
  }
  return out;
}

/**
 * Epoch-ms pairs [start, end, …] as minutes of `day` [0, 1440], clipped, sorted and merged where they meet; at most
 * {@link INTERVALS} pairs, the last one covering every later interval. Bounds are rounded outwards to the minute.
 */
export function minutesOfDay(flat: readonly number[], day: UtcDay): number[] {
  const spans: Array<[number, number]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const s = Math.max(flat[i]!, day.start);
    const e = Math.min(flat[i + 1]!, day.end);
    if (e > s) spans.push([Math.floor((s - day.start) / MINUTE), Math.ceil((e - day.start) / MINUTE)]);
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const sp of spans) {
    const last = merged.at(-1);
    if (last && sp[0] <= last[1]) last[1] = Math.max(last[1], sp[1]);
    else merged.push([sp[0], sp[1]]);
  }
  if (merged.length > INTERVALS) {
    const tail = merged.splice(INTERVALS - 1);
    merged.push([tail[0]![0], Math.max(...tail.map((t) => t[1]))]);
  }
  return merged.flat();
}
