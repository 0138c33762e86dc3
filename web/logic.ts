// What the map page decides, without the DOM: which features are active at a minute of the UTC day, whether
// limits meet an altitude band, which filters let a feature through, how to word limits and intervals. Tested
// in Node (test/web/logic.test.ts) and bundled into the page.
import type { Feature as FullFeature, Interval, VerticalLimit } from "../src/model/contract.js";

/** What the page needs of a feature: its properties (the geometry lives in the canvas's packed arrays). */
type Feature = Pick<FullFeature, "properties">;

export interface Filters {
  /** Airspace types shown; empty = all. */
  types: ReadonlySet<number>;
  /** Activation types shown; empty = all. */
  activationTypes: ReadonlySet<string>;
  /** Altitude band in feet (MSL, GND taken as 0). */
  bandFt: readonly [number, number];
  graphicalNotams: boolean;
  obstacles: boolean;
}

export const ALL: Filters = {
  types: new Set(),
  activationTypes: new Set(),
  bandFt: [0, 66_000],
  graphicalNotams: true,
  obstacles: true,
};

/** A limit in feet: metres converted, flight levels ×100, GND 0. */
export function feet(l: VerticalLimit): number {
  if (l.referenceDatum === 0 && l.value === 0) return 0;
  if (l.unit === 6) return l.value * 100;
  if (l.unit === 0) return Math.round(l.value * 3.28084);
  return l.value;
}

/** Whether [lower, upper] of the feature meets the band (touching counts). */
export function meetsBand(f: Feature, [lo, hi]: readonly [number, number]): boolean {
  return feet(f.properties.lowerLimit) <= hi && feet(f.properties.upperLimit) >= lo;
}

export const isObstacle = (f: Feature): boolean =>
  f.properties.iscraneobstacle === 1 ||
  f.properties.iswindturbineobstacle === 1 ||
  f.properties.ismastortowerobstacle === 1 ||
  f.properties.ispoleorpylonobstacle === 1;

/** Whether the filters hide the feature altogether (a feature outside the band is faded, not hidden). */
export function hidden(f: Feature, filters: Filters): boolean {
  const p = f.properties;
  if (filters.types.size > 0 && !filters.types.has(p.type)) return true;
  const activation = p.vendor.dynamicAirspaceMapping.activationType;
  if (filters.activationTypes.size > 0 && !filters.activationTypes.has(activation)) return true;
  if (p.featureCategory === "graphicalNotam" && !filters.graphicalNotams) return true;
  if (isObstacle(f) && !filters.obstacles) return true;
  return false;
}

/** The intervals of the day that make the feature active: its activation times and its schedule rows. */
export function intervalsOf(f: Feature): Interval[] {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  return [
    ...m.airspaceActivationTimes,
    ...m.dynamicScheduleAndVerticalLimits.map(({ start, end }) => ({ start, end })),
  ];
}

/** Each feature's intervals as epoch ms [start, end, start, end, …], parsed once (the page asks per repaint). */
const parsed = new WeakMap<Feature, Float64Array>();

/** Active at the instant: inside one of its intervals ([start, end)). */
export function activeAt(f: Feature, instant: number): boolean {
  let ms = parsed.get(f);
  if (!ms) {
    ms = Float64Array.from(intervalsOf(f).flatMap((i) => [Date.parse(i.start), Date.parse(i.end)]));
    parsed.set(f, ms);
  }
  for (let i = 0; i < ms.length; i += 2) if (ms[i]! <= instant && instant < ms[i + 1]!) return true;
  return false;
}

/** The schedule row in force at the instant, when it carries temporary limits. */
export function limitsAt(f: Feature, instant: number): { lower?: VerticalLimit; upper?: VerticalLimit } | undefined {
  const row = f.properties.vendor.dynamicAirspaceMapping.dynamicScheduleAndVerticalLimits.find(
    (r) => Date.parse(r.start) <= instant && instant < Date.parse(r.end),
  );
  if (!row || (!row.lowerLimit && !row.upperLimit)) return undefined;
  return { ...(row.lowerLimit ? { lower: row.lowerLimit } : {}), ...(row.upperLimit ? { upper: row.upperLimit } : {}) };
}

export function formatLimit(l: VerticalLimit): string {
  if (l.referenceDatum === 0 && l.value === 0) return "GND";
  if (l.unit === 6) return l.value >= 999 ? "UNL" : `FL${String(l.value).padStart(3, "0")}`;
  const unit = l.unit === 0 ? "m" : "ft";
  return `${l.value} ${unit} ${l.referenceDatum === 0 ? "AGL" : l.referenceDatum === 1 ? "MSL" : "STD"}`;
}

/** `06:00–22:00` (UTC); a bound outside the day is shown with its date. */
export function formatInterval(i: Interval, day: string): string {
  const t = (iso: string) =>
    iso.slice(0, 10) === day ? iso.slice(11, 16) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  return `${t(i.start)}–${t(i.end)}`;
}

/** The minute of the UTC day as `HH:MM`. */
export const hhmm = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** Draw order: low priority first, so higher-priority airspaces lie on top. */
export const byPriority = (a: Feature, b: Feature): number =>
  (a.properties.vendor.dynamicAirspaceMapping.dynamicStyle?.priority ?? 0) -
  (b.properties.vendor.dynamicAirspaceMapping.dynamicStyle?.priority ?? 0);
