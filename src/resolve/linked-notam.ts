// The LinkedNotam record of docs/contract.md §2.9, and the schedule rows a NOTAM contributes (docs/contract.md §2.8).
import type { LinkedNotam, ScheduleRow, VerticalLimit } from "../model/contract.js";
import { isoInstant, type Span } from "../model/time.js";
import type { NotamGeometry } from "../notam/geometry.js";
import type { DayNotam } from "./notams.js";

export function linkedNotam(dn: DayNotam, geometry?: NotamGeometry): LinkedNotam {
  const n = dn.notam;
  return {
    NotamId: n.id,
    NotamIsOfKind: dn.kind,
    ...(n.itemD ? { ItemD: n.itemD } : {}),
    ...(dn.schedule
      ? {
          ItemDParsedSchedule: {
            status: dn.schedule.status,
            schedule: dn.schedule.schedule,
            parserVersion: dn.schedule.parserVersion,
          },
        }
      : {}),
    ItemE: n.itemE,
    ...(dn.upper ? { notamUpperLimit: dn.upper } : {}),
    ...(dn.lower ? { notamLowerLimit: dn.lower } : {}),
    ...(geometry ? { GeoJSONGeometry: { source: geometry.source, geometry: geometry.geometry } } : {}),
  };
}

const same = (a: VerticalLimit | undefined, b: VerticalLimit) =>
  a !== undefined && a.value === b.value && a.unit === b.unit && a.referenceDatum === b.referenceDatum;

type Limits = { upper?: VerticalLimit | undefined; lower?: VerticalLimit | undefined };

/** One row for an interval, with a source's temporary limits where they differ from the feature's own. */
export function rowOf([s, e]: Span, limits: Limits, own: { upper: VerticalLimit; lower: VerticalLimit }): ScheduleRow {
  return {
    start: isoInstant(s),
    end: isoInstant(e),
    ...(limits.upper && !same(limits.upper, own.upper) ? { upperLimit: limits.upper } : {}),
    ...(limits.lower && !same(limits.lower, own.lower) ? { lowerLimit: limits.lower } : {}),
  };
}

/** One row per activity interval of a NOTAM. */
export function notamRows(dn: DayNotam, own: { upper: VerticalLimit; lower: VerticalLimit }): ScheduleRow[] {
  return dn.spans.map((span) => rowOf(span, dn, own));
}
