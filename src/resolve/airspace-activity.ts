// An airspace's activity on the day with its linked NOTAMs (DESIGN §4 decision table, NOTAM rows):
// activation NOTAMs (A, and R/V that name it) add their intervals; an `exact` deactivation subtracts its
// intervals, anything less subtracts nothing; with nothing left the airspace is No and the NOTAM stays listed.
import type { LinkedNotam, ScheduleRow } from "../model/contract.js";
import { isoInstant, type Span, unionSpans } from "../model/time.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import { type Activity, type ActivityContext, baseActivity, isActiveBy } from "./activity.js";
import { linkedNotam, notamRows } from "./linked-notam.js";
import type { DayNotam } from "./notams.js";

export interface AirspaceDay {
  activity: Activity;
  /** Activation intervals per source (may overlap across sources, SPEC §2.6). */
  intervals: Span[];
  rows: ScheduleRow[];
  notams: LinkedNotam[];
}

export function airspaceDay(
  a: NormalizedAirspace,
  ctx: ActivityContext,
  linked: readonly DayNotam[] = [],
): AirspaceDay {
  const base = baseActivity(a, ctx);
  const own = { upper: a.upperLimit, lower: a.lowerLimit };
  const notams = linked.map((dn) => linkedNotam(dn));
  const activating = linked.filter((dn) => dn.kind !== "D" && dn.spans.length > 0);
  // only a trusted schedule (or a NOTAM without Item D: its [B, C]) may take time away
  const trusted = (dn: DayNotam) => dn.schedule === undefined || dn.schedule.status === "exact";
  const subtract = unionSpans(linked.filter((dn) => dn.kind === "D" && trusted(dn)).flatMap((dn) => dn.spans));
  const baseSpans = minus(base.spans, subtract);
  const notamSpans = activating.map((dn) => minus(dn.spans, subtract));
  const rowsOf = (spans: Span[]): ScheduleRow[] =>
    spans.map(([s, e]) => ({ start: isoInstant(s), end: isoInstant(e) }));
  if (activating.length > 0 && notamSpans.some((s) => s.length > 0)) {
    const spans = [...baseSpans, ...notamSpans.flat()];
    const rows = [
      ...rowsOf(baseSpans),
      ...activating.flatMap((dn, i) => notamRows({ ...dn, spans: notamSpans[i]! }, own)),
    ];
    return {
      activity: {
        isActive: isActiveBy(spans, ctx.now),
        activationType: "isActivatedByNOTAMAirspace",
        spans,
        rule: "other",
      },
      intervals: sortSpans(spans),
      rows: sortRows(rows),
      notams,
    };
  }
  if (subtract.length > 0 && base.spans.length > 0) {
    if (baseSpans.length === 0) {
      return {
        activity: { isActive: "No", activationType: "isNotActiveAirspace", spans: [], rule: "other" },
        intervals: [],
        rows: [],
        notams,
      };
    }
    const activity = { ...base, spans: baseSpans, isActive: isActiveBy(baseSpans, ctx.now) };
    return { activity, intervals: baseSpans, rows: rowsOf(baseSpans), notams };
  }
  return { activity: base, intervals: base.spans, rows: rowsOf(base.spans), notams };
}

/** `a` without the parts covered by `b` (both sorted, merged). */
function minus(a: readonly Span[], b: readonly Span[]): Span[] {
  if (b.length === 0) return [...a];
  const out: Span[] = [];
  for (const [s0, e0] of a) {
    let s = s0;
    for (const [bs, be] of b) {
      if (be <= s || bs >= e0) continue;
      if (bs > s) out.push([s, bs]);
      s = Math.max(s, be);
    }
    if (s < e0) out.push([s, e0]);
  }
  return out;
}

const sortSpans = (spans: Span[]) => [...spans].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
const sortRows = (rows: ScheduleRow[]) =>
  [...rows].sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : x.end < y.end ? -1 : 1));
