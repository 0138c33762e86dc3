// src/resolve — one UTC day's activity: evidence, AIP hours, NOTAM and AUP links, the decision table, style.
// Base activity of an airspace for one UTC day: the rows of the DESIGN §4 decision table that need
// neither a linked NOTAM nor an AUP allocation. NOTAM and AUP rows come first in the table and are
// layered on top of this result by the resolver stages that read those sources.

import type { Explanation } from "../model/explain.js";
import type { AipHours } from "../model/hours.js";
import { clipToDay, intersectSpans, type Span, type UtcDay, unionSpans } from "../model/time.js";
import type { ActivationType, IsActive } from "../model/vocab.js";
import { AirspaceType } from "../model/vocab.js";
import { type SourceEvidence, type Verdict, verdictFor } from "./evidence.js";
import { hoursOnDay } from "./hours.js";

/** The sources the activity of conditional airspaces depends on, each with its standing and coverage. */
export interface ActivitySources {
  /** NOTAM feeds: activate `byNotam`, `onDemand` and `onRequest` airspaces. */
  notam: readonly SourceEvidence[];
  /** AUP/UUP: activates AMC-manageable airspaces (TRA, TSA). */
  aup: readonly SourceEvidence[];
}

/** What one kind of source said about the airspace, as `explain` shows it. */
export interface EvidenceNote {
  kind: "notam" | "aup";
  state: Verdict["state"];
  /** The source that decided (the fresh covering one, or the first covering one that is not fresh). */
  source?: string;
  asOf?: number;
  reason?: string;
  /** Off-region: the FIRs the sources brief instead (the reason names the sources too). */
  briefs?: string[];
}

export interface ActivityContext {
  day: UtcDay;
  /** Reference instant for `isActive` ("active now or later on the day"). */
  now: number;
  sources: ActivitySources;
  /** Records every comparison with `now`, so a later run knows which instants would change the result. */
  window?: NowWindow;
}

/** What the base activity needs to know of an airspace. */
export interface ActivitySubject {
  type: number;
  /** Four-letter FIR holding it: a source must brief this FIR for its silence to count. */
  fir: string;
  icaoClass: number;
  byNotam: boolean;
  onDemand: boolean;
  onRequest: boolean;
  activeTimes: ReadonlyArray<{ start: string; end: string }>;
  /** Its designator appears in the AUP data: the AUP decides (DESIGN §4 "AMC-manageable"). */
  amcManaged?: boolean;
  /** Its own published hours, when its source states them. */
  hours?: AipHours;
  /** The IANA time zone of its country, for hours in local time. */
  zone?: string;
}

export interface Activity {
  isActive: IsActive;
  activationType: ActivationType;
  /** Activation intervals on the day, sorted and merged. */
  spans: Span[];
  /** The decision-table row that won, for `explain` and the report. */
  rule:
    | "outsideValidity"
    | "conditionalUnknown"
    | "conditionalInactive"
    | "permanent"
    | "validityWindow"
    | "other"
    | "aipHours"
    | "aipHoursOff"
    | "aipHoursMayExtend"
    | "hoursUnknown"
    | "linked"
    | "deactivated"
    | "notamUnsure"
    | "notamChanged";
  /** For the conditional rows: what each source that could activate it said. */
  evidence?: EvidenceNote[];
  /** The AIP hours that decided or were weighed, as written and where. */
  hours?: { text: string; from: string; kind: string };
  /** What linked NOTAMs did to the day, for `explain` (set by airspaceDay). */
  notamEffect?: NotamEffect;
  /** NOTAMs that made a `No` `Unknown` (rules notamUnsure, notamChanged), for `explain`. */
  reasons?: string[];
}

/** How linked NOTAMs changed an airspace's day: `explain` names them beside the row that fired. */
export interface NotamEffect {
  /** Activating NOTAMs (A, and R/V that name it) with what they add, after deactivations. */
  activatedBy: Array<{ id: string; spans: Span[] }>;
  /** Active AUP/UUP allocations with what they add, after deactivations. */
  allocatedBy: Array<{ designator: string; spans: Span[] }>;
  /** Exact deactivation NOTAMs that removed time, and the time they removed. */
  deactivatedBy: string[];
  removed: Span[];
  /** Deactivation NOTAMs that remove nothing because their Item D is not exact. */
  untrusted: string[];
  /** The airspace's own row and what is left of its own intervals (under a linked activation or a deactivation). */
  own: { rule: Activity["rule"]; spans: Span[] };
}

/** Types active whenever they exist (DESIGN §4 "permanent airspace"). */
const PERMANENT_TYPES: ReadonlySet<number> = new Set([
  AirspaceType.PROHIBITED,
  AirspaceType.CTR,
  AirspaceType.TMZ,
  AirspaceType.RMZ,
  AirspaceType.TMA,
  AirspaceType.FIR,
  AirspaceType.UIR,
  AirspaceType.ADIZ,
  AirspaceType.ATZ,
  AirspaceType.MATZ,
  AirspaceType.AIRWAY,
  AirspaceType.HTZ,
  AirspaceType.TRP,
  AirspaceType.TIZ,
  AirspaceType.TIA,
  AirspaceType.CTA,
  AirspaceType.ACC_SECTOR,
  AirspaceType.VFR_SECTOR,
  AirspaceType.FIS_SECTOR,
  AirspaceType.LTA,
  AirspaceType.UTA,
  AirspaceType.MCTR,
]);

/** Types whose activation the network manager plans in the AUP (AMC-manageable by nature). */
const AMC_TYPES: ReadonlySet<number> = new Set([AirspaceType.TRA, AirspaceType.TSA]);

/** Which sources decide whether a conditional airspace is active; empty for unconditional ones. */
export function neededSources(a: ActivitySubject): Array<keyof ActivitySources> {
  const needs: Array<keyof ActivitySources> = [];
  if (a.byNotam || a.onDemand || a.onRequest || a.hours?.kind === "notam") needs.push("notam");
  if (AMC_TYPES.has(a.type) || a.amcManaged) needs.push("aup");
  return needs;
}

export function baseActivity(a: ActivitySubject, ctx: ActivityContext): Activity {
  const { day } = ctx;
  const windows = a.activeTimes.map((w): Span => [Date.parse(w.start), Date.parse(w.end)]);
  const inDay = unionSpans(windows.map((w) => clipToDay(w, day)).filter((w): w is Span => w !== undefined));
  if (windows.length > 0 && inDay.length === 0) {
    return { isActive: "No", activationType: "isNotActiveAirspace", spans: [], rule: "outsideValidity" };
  }
  const needs = neededSources(a);
  const hours = a.hours && !needs.includes("aup") ? a.hours : undefined;
  const hoursNote = hours ? { hours: { text: hours.text, from: hours.from, kind: hours.kind } } : {};
  if (hours && hours.kind !== "notam") {
    // the AIP's own hours decide (an AMC-managed area is decided by the AUP instead)
    const own = hoursOnDay(hours, day, a.zone);
    const spans = windows.length > 0 ? intersectSpans(own.spans, inDay) : own.spans;
    if (own.unknown) {
      // HX, or weekdays at unpublished times: never No
      return {
        isActive: "Unknown",
        activationType: "isOtherActiveAirspace",
        spans: [],
        rule: "hoursUnknown",
        ...hoursNote,
      };
    }
    if (spans.length > 0 && activeAt(spans, ctx) === "Yes") {
      return { isActive: "Yes", activationType: "isActive", spans, rule: "aipHours", ...hoursNote };
    }
    const otherwise = needs.length > 0 || hours.plusNotam === true;
    if (hours.kind === "dates" || (spans.length === 0 && otherwise)) {
      // a temporary area's dates are its existence, like a validity window: over is over; `+`, byNotam and the
      // like make it conditional on the rows below
      if (spans.length > 0)
        return { isActive: "No", activationType: "isActive", spans, rule: "aipHours", ...hoursNote };
      if (hours.plusNotam && !needs.includes("notam")) needs.push("notam");
      if (needs.length === 0) {
        return { isActive: "No", activationType: "isNotActiveAirspace", spans, rule: "aipHoursOff", ...hoursNote };
      }
    } else {
      // outside its hours for the rest of the day: published hours are a plan that a NOTAM may extend (UK danger
      // areas "and as notified by NOTAM", French areas activated outside their hours, CTRs extended), so `No` only
      // when a fresh NOTAM source briefs its FIR
      const evidence = [note("notam", verdictFor(ctx.sources.notam, a.fir))];
      if (evidence[0]?.state !== "fresh") {
        const type = "isOtherActiveAirspace";
        return { isActive: "Unknown", activationType: type, spans, rule: "aipHoursMayExtend", evidence, ...hoursNote };
      }
      const activationType = spans.length > 0 ? "isActive" : "isNotActiveAirspace";
      const rule = spans.length > 0 ? "aipHours" : "aipHoursOff";
      return { isActive: "No", activationType, spans, rule, evidence, ...hoursNote };
    }
  }
  if (needs.length > 0) {
    // silence counts only from a fresh source that briefs its FIR; every source that could activate it must say so
    const evidence = needs.map((kind) => note(kind, verdictFor(ctx.sources[kind], a.fir)));
    if (evidence.some((e) => e.state !== "fresh")) {
      return {
        isActive: "Unknown",
        activationType: "isOtherActiveAirspace",
        spans: [],
        rule: "conditionalUnknown",
        evidence,
        ...hoursNote,
      };
    }
    return {
      isActive: "No",
      activationType: "isNotActiveAirspace",
      spans: [],
      rule: "conditionalInactive",
      evidence,
      ...hoursNote,
    };
  }
  const spans = windows.length > 0 ? inDay : [[day.start, day.end] as const];
  const classified = a.type === AirspaceType.OTHER && a.icaoClass <= 6;
  const permanent = PERMANENT_TYPES.has(a.type) || classified;
  return {
    isActive: activeAt(spans, ctx),
    activationType: permanent || windows.length > 0 ? "isActive" : "isOtherActiveAirspace",
    spans,
    rule: windows.length > 0 ? "validityWindow" : permanent ? "permanent" : "other",
  };
}

function note(kind: "notam" | "aup", v: Verdict): EvidenceNote {
  const source = "source" in v ? v.source : undefined;
  return {
    kind,
    state: v.state,
    ...(source ? { source: source.name } : {}),
    ...(source?.asOf === undefined ? {} : { asOf: source.asOf }),
    ...(source?.reason ? { reason: source.reason } : {}),
    ...(v.state === "offRegion"
      ? {
          reason: `briefs ${v.sources.map(briefed).join("; ")}`,
          briefs: [...new Set(v.sources.flatMap((s) => (s.coverage === "all" ? [] : s.coverage)))].sort(),
        }
      : {}),
  };
}

const briefed = (s: SourceEvidence) =>
  `${s.name}: ${s.coverage === "all" ? "every FIR" : s.coverage.join(" ") || "no declared FIR"}`;

/** `Yes` when an interval is running at `now` or starts later. */
export function isActiveBy(spans: readonly Span[], now: number): IsActive {
  return spans.some(([, end]) => end > now) ? "Yes" : "No";
}

/** {@link isActiveBy} at the context's `now`, the comparison recorded in its window. */
export function activeAt(spans: readonly Span[], ctx: { now: number; window?: NowWindow }): IsActive {
  ctx.window?.see(spans);
  return isActiveBy(spans, ctx.now);
}

/**
 * The instants around `now` between which a resolution stays what it is (issue 24). `now` enters the resolution
 * only through {@link activeAt}, as `last end > now`; when every such comparison gives the same answer at another
 * instant, every branch taken is the same, so every output is. That holds for `lo <= t < hi`.
 */
export class NowWindow {
  /** The latest interval end at or before `now`, and the earliest after it. */
  lo = Number.NEGATIVE_INFINITY;
  hi = Number.POSITIVE_INFINITY;

  constructor(readonly now: number) {}

  /** {@link isActiveBy} compares the latest end alone with `now`: only that instant can change its answer. */
  see(spans: readonly Span[]): void {
    if (spans.length === 0) return;
    let last = Number.NEGATIVE_INFINITY;
    for (const [, end] of spans) last = Math.max(last, end);
    if (last > this.now) this.hi = Math.min(this.hi, last);
    else this.lo = Math.max(this.lo, last);
  }

  /** The same resolution holds at `t`. */
  holds(t: number): boolean {
    return t >= this.lo && t < this.hi;
  }

  /** Narrows this window to the part `w` (one feature's) shares with it. */
  merge(w: NowWindow): void {
    this.lo = Math.max(this.lo, w.lo);
    this.hi = Math.min(this.hi, w.hi);
  }
}

/** One feature resolved at one instant, with the window its resolution holds in. */
export interface Timed<F> {
  feature: F;
  explanation: Explanation;
  window: NowWindow;
}

/** How one feature was resolved, to resolve it again at a later instant (issue 24: features past their window). */
export interface Track<F> {
  window: NowWindow;
  at(now: number): Timed<F>;
}
