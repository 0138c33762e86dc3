// src/resolve — one UTC day's activity: evidence, AIP hours, NOTAM and AUP links, the decision table, style.
// Base activity of an airspace for one UTC day: the rows of the docs/design.md §4 decision table that need
// neither a linked NOTAM nor an AUP allocation. NOTAM and AUP rows come first in the table and are
// layered on top of this result by the resolver stages that read those sources.

import type { AipHours } from "../model/hours.js";
import { clipToDay, intersectSpans, type Span, type UtcDay, unionSpans } from "../model/time.js";
import type { ActivationType, IsActive } from "../model/vocab.js";
import { AirspaceType } from "../model/vocab.js";
import { type SourceEvidence, type Verdict, verdictFor } from "./evidence.js";
import { hoursOnDay } from "./hours.js";
import { activeAt, type NowWindow } from "./now-window.js";

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
  /** Its designator appears in the AUP data: the AUP decides (docs/design.md §4 "AMC-manageable"). */
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
    | "linkedEnded"
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

/** Types active whenever they exist (docs/design.md §4 "permanent airspace"). */
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
  const hoursNote: HoursNote = hours ? { hours: { text: hours.text, from: hours.from, kind: hours.kind } } : {};
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
    const decided = aipHoursActivity(a, hours, spans, needs, hoursNote, ctx);
    if (decided) return decided;
  }
  if (needs.length > 0) return conditionalActivity(a, needs, hoursNote, ctx);
  return unconditionalActivity(a, windows.length > 0, inDay, ctx);
}

/** The AIP hours that decided or were weighed, as `explain` shows them (none when none were). */
type HoursNote = Pick<Activity, "hours">;

/**
 * The rows the AIP's own (known) hours decide; `undefined` when they leave the day to the conditional rows, whose
 * sources `needs` then lists (hours with `+` add the NOTAM source).
 */
function aipHoursActivity(
  a: ActivitySubject,
  hours: AipHours,
  spans: Span[],
  needs: Array<keyof ActivitySources>,
  hoursNote: HoursNote,
  ctx: ActivityContext,
): Activity | undefined {
  if (spans.length > 0 && activeAt(spans, ctx) === "Yes") {
    return { isActive: "Yes", activationType: "isActive", spans, rule: "aipHours", ...hoursNote };
  }
  const otherwise = needs.length > 0 || hours.plusNotam === true;
  if (hours.kind === "dates" || (spans.length === 0 && otherwise)) {
    // a temporary area's dates are its existence, like a validity window: over is over; `+`, byNotam and the
    // like make it conditional on the rows below
    if (spans.length > 0) return { isActive: "No", activationType: "isActive", spans, rule: "aipHours", ...hoursNote };
    if (hours.plusNotam && !needs.includes("notam")) needs.push("notam");
    if (needs.length > 0) return undefined;
    return { isActive: "No", activationType: "isNotActiveAirspace", spans, rule: "aipHoursOff", ...hoursNote };
  }
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

/** The conditional rows: silence counts only from a fresh source that briefs its FIR. */
function conditionalActivity(
  a: ActivitySubject,
  needs: Array<keyof ActivitySources>,
  hoursNote: HoursNote,
  ctx: ActivityContext,
): Activity {
  // every source that could activate it must say so
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

/** The rows of an airspace that needs no source: active in its validity windows, else all day. */
function unconditionalActivity(a: ActivitySubject, windowed: boolean, inDay: Span[], ctx: ActivityContext): Activity {
  const spans = windowed ? inDay : [[ctx.day.start, ctx.day.end] as const];
  const classified = a.type === AirspaceType.OTHER && a.icaoClass <= 6;
  const permanent = PERMANENT_TYPES.has(a.type) || classified;
  return {
    isActive: activeAt(spans, ctx),
    activationType: permanent || windowed ? "isActive" : "isOtherActiveAirspace",
    spans,
    rule: windowed ? "validityWindow" : permanent ? "permanent" : "other",
  };
}

/** What each kind of source says of an airspace of `fir`: fresh and briefing it, or why not. */
export function evidenceFor(
  kinds: ReadonlyArray<keyof ActivitySources>,
  fir: string,
  ctx: ActivityContext,
): EvidenceNote[] {
  return kinds.map((kind) => note(kind, verdictFor(ctx.sources[kind], fir)));
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
