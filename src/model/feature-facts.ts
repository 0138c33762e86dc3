// What a published feature says beyond its fields, read the same by the map page, its map form and the vector tiles:
// a limit in feet, the intervals of the day that make it active, whether it is an obstacle.
import type { Feature, Interval, VerticalLimit } from "./contract.js";

/** A limit in feet: metres converted, flight levels ×100, GND 0. */
export function feet(l: VerticalLimit): number {
  if (l.referenceDatum === 0 && l.value === 0) return 0;
  if (l.unit === 6) return l.value * 100;
  if (l.unit === 0) return Math.round(l.value * 3.28084);
  return l.value;
}

/** The intervals of the day that make the feature active: its activation times and its schedule rows. */
export function intervalsOf(f: Pick<Feature, "properties">): Interval[] {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  return [
    ...m.airspaceActivationTimes,
    ...m.dynamicScheduleAndVerticalLimits.map(({ start, end }) => ({ start, end })),
  ];
}

export const isObstacle = (f: Pick<Feature, "properties">): boolean =>
  f.properties.iscraneobstacle === 1 ||
  f.properties.iswindturbineobstacle === 1 ||
  f.properties.ismastortowerobstacle === 1 ||
  f.properties.ispoleorpylonobstacle === 1;
