// An airspace's activity on the day with its linked NOTAMs and AUP allocations (docs/design.md §4 decision table):
// AUP allocations and activation NOTAMs (A, and R/V that name it) add their intervals; an `exact`
// deactivation NOTAM subtracts its intervals, anything less subtracts nothing; with nothing left the airspace
// is No and the NOTAM stays listed. Intervals of different sources are listed side by side (docs/contract.md §2.6).
import { timeZoneOf } from "../geo/time-zones.js";
import type { AupUupRecord, LinkedNotam, ScheduleRow, VerticalLimit } from "../model/contract.js";
import { intersectSpans, isoInstant, type Span, unionSpans } from "../model/time.js";
import type { ActivationType } from "../model/vocab.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import {
  type Activity,
  type ActivityContext,
  type ActivitySources,
  baseActivity,
  evidenceFor,
  type NotamEffect,
} from "./activity.js";
import type { DayAllocation } from "./aup.js";
import { linkedNotam, notamRows, rowOf } from "./linked-notam.js";
import type { DayNotam } from "./notams.js";
import { activeAt } from "./now-window.js";

export interface AirspaceDay {
  activity: Activity;
  /** Activation intervals per source (may overlap across sources, docs/contract.md §2.6). */
  intervals: Span[];
  rows: ScheduleRow[];
  notams: LinkedNotam[];
  aupuups: AupUupRecord[];
}

export interface Linked {
  notams?: readonly DayNotam[];
  /** Activation NOTAMs that name this airspace's area but not certainly this volume (docs/design.md §4 "unsure"). */
  unsure?: readonly DayNotam[];
  allocations?: readonly DayAllocation[];
  /** Its designator appears in the AUP data (AMC-manageable): conditional on the AUP. */
  amcManaged?: boolean;
}

/**
 * The day of one airspace (the decision table's rows from `linked` down), then the rows that keep a `No` from being
 * said without certainty: a current activation NOTAM that names its area but not certainly this volume, or a NOTAM
 * that changes its hours or status, makes it `Unknown` (never `No`).
 */
export function airspaceDay(a: NormalizedAirspace, ctx: ActivityContext, linked: Linked = {}): AirspaceDay {
  const day = decidedDay(a, ctx, linked);
  const activity = day.activity;
  if (activity.isActive !== "No" || activity.rule === "outsideValidity" || activity.rule === "deactivated") return day;
  const current = (dns: readonly DayNotam[]) => dns.filter((dn) => activeAt(dn.spans, ctx) === "Yes");
  const unsure = current(linked.unsure ?? []);
  const changing = unsure.length > 0 ? [] : current((linked.notams ?? []).filter((dn) => isChange(dn)));
  const why = unsure.length > 0 ? unsure : changing;
  if (why.length === 0) return day;
  return {
    ...day,
    activity: {
      ...activity,
      isActive: "Unknown",
      activationType: "isOtherActiveAirspace",
      rule: unsure.length > 0 ? "notamUnsure" : "notamChanged",
      reasons: why.map((dn) => dn.notam.id),
    },
  };
}

/** A NOTAM about the airspace that changes its hours, limits or status without activating or deactivating it. */
const isChange = (dn: DayNotam) => dn.kind !== "D" && dn.effect === "change";

/**
 * A deactivation takes time away only when its time is certain: an `exact` Item D, or no Item D and an Item E that
 * gives no times of its own (`CTR LOURDES DESACTIVEE : ATS NON ASSURES : 0200-0400 2230-2330` is off at those
 * times only, and [B, C] would say all day).
 */
function trustedDeactivation(dn: DayNotam): boolean {
  if (dn.schedule) return dn.schedule.status === "exact";
  return !/\b[0-2]\d[0-5]\d ?- ?[0-2]\d[0-5]\d\b/.test(dn.notam.itemE);
}

/** An activating NOTAM, with what exact deactivations leave of its time. */
interface Activating {
  dn: DayNotam;
  spans: Span[];
}

/** An active AUP/UUP allocation, with what exact deactivations leave of its time. */
interface Allocated {
  x: DayAllocation;
  spans: Span[];
}

function decidedDay(a: NormalizedAirspace, ctx: ActivityContext, linked: Linked): AirspaceDay {
  const notamsIn = linked.notams ?? [];
  const allocationsIn = linked.allocations ?? [];
  const zone = timeZoneOf(a.country);
  const base = baseActivity({ ...a, amcManaged: linked.amcManaged ?? false, ...(zone ? { zone } : {}) }, ctx);
  const own = { upper: a.upperLimit, lower: a.lowerLimit };
  const notams = notamsIn.map((dn) => linkedNotam(dn));
  const aupuups = allocationsIn.map(aupRecord);
  // only a trusted schedule (or a NOTAM without Item D and without times in E: its [B, C]) may take time away
  const subtract = unionSpans(
    notamsIn.filter((dn) => dn.kind === "D" && trustedDeactivation(dn)).flatMap((dn) => dn.spans),
  );
  // what activates is what the NOTAM is about and says is active; a change or a contact update activates nothing
  const activating: Activating[] = notamsIn
    .filter((dn) => dn.kind !== "D" && dn.effect === "activate")
    .map((dn) => ({ dn, spans: minus(dn.spans, subtract) }));
  const active: Allocated[] = allocationsIn
    .filter((x) => x.status === "ACTIVE")
    .map((x) => ({ x, spans: minus(x.spans, subtract) }));
  const byNotam = activating.some((n) => n.spans.length > 0);
  const byAup = active.some((x) => x.spans.length > 0);
  const baseSpans = minus(base.spans, subtract);
  const effect = notamEffectOf(base, baseSpans, notamsIn, subtract, activating, active);
  const touched = effect.deactivatedBy.length + effect.untrusted.length > 0;
  if (byNotam || byAup) {
    // the union per source, sources side by side (docs/contract.md §2.6); the same interval from two sources is listed
    // once, so a whole day stays one 00:00Z→00:00Z interval
    const spans = distinct([
      ...baseSpans,
      ...unionSpans(activating.flatMap((n) => n.spans)),
      ...unionSpans(active.flatMap((x) => x.spans)),
    ]);
    const rows = linkedRows(baseSpans, activating, active, own);
    const activationType: ActivationType =
      byNotam && byAup
        ? "isActivatedByAUPAndNOTAMAirspace"
        : byAup
          ? "isActivatedByAUPAirspace"
          : "isActivatedByNOTAMAirspace";
    const isActive = activeAt(spans, ctx);
    // its linked activations are over for the day: `No` only where every source that could activate it again is
    // fresh and briefs it: those its own row weighs (the AUP for an AUP-conditional area, the NOTAM source for a
    // NOTAM-conditional one) and those that activated it today. A NOTAM source four days old says nothing of the
    // rest of the day.
    const again = new Set<keyof ActivitySources>((base.evidence ?? []).map((e) => e.kind));
    if (byNotam) again.add("notam");
    if (byAup) again.add("aup");
    const evidence = isActive === "No" ? evidenceFor([...again].sort(), a.fir, ctx) : [];
    const ended = isActive === "No" && (base.isActive === "Unknown" || evidence.some((e) => e.state !== "fresh"));
    const activity: Activity = ended
      ? { isActive: "Unknown", activationType, spans, rule: "linkedEnded", notamEffect: effect, evidence }
      : { isActive, activationType, spans, rule: "linked", notamEffect: effect };
    return {
      activity,
      intervals: sortSpans(spans),
      rows: sortRows(rows),
      notams,
      aupuups,
    };
  }
  if (subtract.length > 0 && base.spans.length > 0) return trimmedDay(base, baseSpans, effect, ctx, notams, aupuups);
  const activity = touched ? { ...base, notamEffect: effect } : base;
  return { activity, intervals: base.spans, rows: rowsOf(base.spans), notams, aupuups };
}

/**
 * What the NOTAMs did, for explain: the time exact deactivations removed (of any source's activity), who removed
 * it, which deactivations were not trusted to remove anything, and who activated what.
 */
function notamEffectOf(
  base: Activity,
  baseSpans: Span[],
  notamsIn: readonly DayNotam[],
  subtract: Span[],
  activating: readonly Activating[],
  active: readonly Allocated[],
): NotamEffect {
  const removed = intersectSpans(
    unionSpans([...base.spans, ...activating.flatMap((n) => n.dn.spans), ...active.flatMap((x) => x.x.spans)]),
    subtract,
  );
  return {
    activatedBy: activating
      .filter((n) => n.spans.length > 0)
      .map((n) => ({ id: n.dn.notam.id, spans: unionSpans(n.spans) })),
    allocatedBy: active
      .filter((x) => x.spans.length > 0)
      .map((x) => ({ designator: x.x.designator, spans: unionSpans(x.spans) })),
    deactivatedBy: notamsIn
      .filter(
        (dn) => dn.kind === "D" && trustedDeactivation(dn) && intersectSpans(unionSpans(dn.spans), removed).length > 0,
      )
      .map((dn) => dn.notam.id),
    removed,
    untrusted: notamsIn
      .filter((dn) => dn.kind === "D" && !trustedDeactivation(dn) && dn.spans.length > 0)
      .map((dn) => dn.notam.id),
    own: { rule: base.rule, spans: baseSpans },
  };
}

/** The rows of an activated airspace: its own, then each activating NOTAM's and each active allocation's. */
function linkedRows(
  baseSpans: Span[],
  activating: readonly Activating[],
  active: readonly Allocated[],
  own: { upper: VerticalLimit; lower: VerticalLimit },
): ScheduleRow[] {
  return [
    ...rowsOf(baseSpans),
    ...activating.flatMap((n) => notamRows({ ...n.dn, spans: n.spans }, own)),
    // an area active as the buffer zone around it keeps its own limits (src/resolve/aup.ts allocationLinks)
    ...active.flatMap((x) =>
      x.spans.map((s) => rowOf(s, x.x.asBuffer ? {} : { upper: x.x.upper, lower: x.x.lower }, own)),
    ),
  ];
}

/** The day of an airspace that exact deactivations took time from, with nothing activating it. */
function trimmedDay(
  base: Activity,
  baseSpans: Span[],
  effect: NotamEffect,
  ctx: ActivityContext,
  notams: LinkedNotam[],
  aupuups: AupUupRecord[],
): AirspaceDay {
  if (baseSpans.length === 0) {
    const activity: Activity = {
      isActive: "No",
      activationType: "isNotActiveAirspace",
      spans: [],
      rule: "deactivated",
      notamEffect: effect,
    };
    return { activity, intervals: [], rows: [], notams, aupuups };
  }
  const isActive = activeAt(baseSpans, ctx);
  // what is left of its day is over, and without the deactivation it would not be: the deactivation decided
  const rule = isActive === "No" && activeAt(base.spans, ctx) === "Yes" ? "deactivated" : base.rule;
  const activity = { ...base, spans: baseSpans, isActive, rule, notamEffect: effect };
  return { activity, intervals: baseSpans, rows: rowsOf(baseSpans), notams, aupuups };
}

/** Rows of the airspace's own intervals (its own limits). */
function rowsOf(spans: Span[]): ScheduleRow[] {
  return spans.map(([s, e]) => ({ start: isoInstant(s), end: isoInstant(e) }));
}

/** docs/contract.md §2.11 */
function aupRecord(x: DayAllocation): AupUupRecord {
  // the allocation as planned (it may run past midnight); its share of the day is in the intervals
  return {
    Designator: x.designator,
    Status: x.status,
    StartDT: isoInstant(x.start),
    EndDT: isoInstant(x.end),
    UpperAlt: x.upperText,
    LowerAlt: x.lowerText,
    ...(x.upper ? { aupuupUpperLimit: x.upper } : {}),
    ...(x.lower ? { aupuupLowerLimit: x.lower } : {}),
  };
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

function distinct(spans: Span[]): Span[] {
  const seen = new Set<string>();
  return spans.filter(([s, e]) => {
    const k = `${s}-${e}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const sortSpans = (spans: Span[]) => [...spans].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
const sortRows = (rows: ScheduleRow[]) =>
  [...rows].sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : x.end < y.end ? -1 : 1));
