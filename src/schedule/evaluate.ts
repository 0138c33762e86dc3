// Item D for one UTC day: parse, resolve, expand, and decide the status by certainty (docs/design.md §3).
// `exact` needs one reading, no assumption and passing consistency checks; `partial` names its assumption
// and may be widened; `fallback` and `unsupported` stand for [B, C]. A wrong `exact` is the worst defect.

import type { CompactSchedule } from "../model/contract.js";
import { DAY_MS, type Span, unionSpans } from "../model/time.js";
import type { ScheduleStatus } from "../model/vocab.js";
import type { ParseIssue } from "./ast.js";
import { compactSchedule } from "./compact.js";
import { expandDay, type Position, readingSpans } from "./expand.js";
import { parseItemD } from "./parse.js";
import { dayOf, type Reading, resolveGroups, windowOf } from "./resolve.js";
import { isBlank } from "./tokens.js";
import type { Validity } from "./validity.js";

/** Changes whenever a result can change (docs/contract.md §9). */
export const PARSER_VERSION = "itemd-1.2.0";

export interface ScheduleIssue {
  /** Stable code, e.g. `schedule.token.unknown`. */
  code: string;
  /** Character offset in Item D. */
  at: number;
  text: string;
}

export interface ScheduleResult {
  status: ScheduleStatus;
  parserVersion: string;
  /** Activity on the day, clipped to [B, C] and the day, sorted and merged. */
  intervals: Span[];
  issues: ScheduleIssue[];
  /** The resolved schedule of the (first) reading; null when not understood. */
  schedule: CompactSchedule | null;
}

export function evaluateItemD(itemD: string, v: Validity, day: number, position?: Position): ScheduleResult {
  const whole = (status: ScheduleStatus, issues: ParseIssue[]): ScheduleResult => ({
    status,
    parserVersion: PARSER_VERSION,
    intervals: clip([[v.b, v.c ?? Number.POSITIVE_INFINITY]], v, day),
    issues: issues.map(publicIssue),
    schedule: null,
  });
  if (isBlank(itemD)) return whole("fallback", [{ code: "schedule.empty", at: 0, text: "", level: "fatal" }]);
  const parsed = parseItemD(itemD);
  if (parsed.issues.some((i) => i.level === "unsupported")) return whole("unsupported", parsed.issues);
  if (parsed.groups.length === 0 && parsed.issues.length === 0) {
    parsed.issues.push({ code: "schedule.times.missing", at: 0, text: itemD.slice(0, 20), level: "fatal" });
  }
  const noTimes = parsed.groups.find((g) => g.times.length === 0 && g.continuous.length === 0);
  if (noTimes) parsed.issues.push({ code: "schedule.times.missing", at: noTimes.at, text: "", level: "fatal" });
  if (parsed.issues.some((i) => i.level === "fatal")) return whole("fallback", parsed.issues);

  const { readings, issues: resolveIssues } = resolveGroups(parsed.groups, v);
  const issues = parsed.issues.concat(resolveIssues);
  if (issues.some((i) => i.level === "fatal")) return whole("fallback", issues);

  const expansions = readings.map((r) => expandDay(r, v, day, position));
  const first = readings[0]!;
  if (expansions.some((e) => e.sunGuessed)) {
    issues.push({
      code: "schedule.sun.noPosition",
      at: itemD.search(/S[RS]|H[JN]/i),
      text: "SR/SS",
      level: "assumption",
    });
  }
  for (const i of consistency(first, v, position, expansions[0]!.spans.length > 0)) issues.push(i);
  if (v.est) issues.push({ code: "schedule.validity.estimated", at: 0, text: "EST", level: "assumption" });
  const exact = readings.length === 1 && issues.length === 0;
  const intervals = expansions.length === 1 ? expansions[0]!.spans : unionSpans(expansions.flatMap((e) => e.spans));
  return new Result(exact ? "exact" : "partial", intervals, issues.map(publicIssue), first);
}

/** A result whose compact schedule is built when first read (most callers only want the intervals). */
class Result implements ScheduleResult {
  readonly parserVersion = PARSER_VERSION;
  #schedule: CompactSchedule | undefined;
  constructor(
    readonly status: ScheduleStatus,
    readonly intervals: Span[],
    readonly issues: ScheduleIssue[],
    private readonly reading: Reading,
  ) {}

  get schedule(): CompactSchedule {
    this.#schedule ??= compactSchedule(this.reading);
    return this.#schedule;
  }

  toJSON(): Omit<ScheduleResult, never> {
    const { status, parserVersion, intervals, issues, schedule } = this;
    return { status, parserVersion, intervals, issues, schedule };
  }
}

/**
 * Checks that the reading agrees with [B, C]: it is active somewhere inside them, and a schedule of dates
 * only starts at B and ends at C (the NOTAM rules write B and C as the first start and last end).
 */
function consistency(r: Reading, v: Validity, position: Position | undefined, activeOnDay: boolean): ParseIssue[] {
  const w = windowOf(v);
  const out: ParseIssue[] = [];
  const datesOnly = r.every((g) => !g.every && g.weekdays === 0 && g.weekly.length === 0);
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const g of r) {
    for (const d of g.dates) [from, to] = [Math.min(from, d), Math.max(to, d + 2)];
    for (const [s, e] of g.spans) [from, to] = [Math.min(from, dayOf(s)), Math.max(to, dayOf(e - 1) + 2)];
  }
  if (datesOnly && from < to) {
    const [head, tail] = endSpans(r, from, to, position);
    if (!startAgrees(head, v.b)) out.push({ code: "schedule.check.startNotB", at: 0, text: "", level: "assumption" });
    if (v.c !== undefined && !v.est && !endAgrees(tail, v.c)) {
      out.push({ code: "schedule.check.endNotC", at: 0, text: "", level: "assumption" });
    }
    return out;
  }
  // weekdays or every day: at least one selected day must fall inside [B, C]
  const last = Math.min(w.last, w.first + 400);
  let any = activeOnDay;
  for (let d = w.first; d <= last && !any; d++) any = expandDay(r, v, d, position).spans.length > 0;
  if (!any) out.push({ code: "schedule.check.noActivity", at: 0, text: "", level: "assumption" });
  return out;
}

/**
 * The intervals that decide the first start and the last end of a dates-only reading whose dates lie in [from, to):
 * those of its first two and last three days, when every time is a clock time (a date's intervals then lie within it
 * and the next day, so none outside can come first or last); all of them otherwise, or when the ends are not found.
 */
function endSpans(r: Reading, from: number, to: number, position: Position | undefined): [Span[], Span[]] {
  const spans = (a: number, b: number) =>
    readingSpans(r, { b: -Infinity, c: undefined, est: false }, a, b, position).spans;
  const clockOnly = r.every((g) => g.times.every((t) => t.start.kind === "clock" && t.end.kind === "clock"));
  if (clockOnly && to - from > 8) {
    const head = spans(from, from + 2);
    const tail = spans(to - 3, to);
    // days after from + 1 start at from + 2 or later, days before to - 4 end by to - 3: an earlier start and a later
    // end are the first and the last, ties included
    if (head.some((s) => s[0] < (from + 2) * DAY_MS) && tail.some((s) => s[1] > (to - 3) * DAY_MS)) return [head, tail];
  }
  const all = spans(from, to);
  return [all, all];
}

/**
 * B agrees with a schedule of dates when it is the first start, falls inside the first interval (a NOTAM
 * issued once the activity had begun), or precedes the first start on the same UTC day. Anything else
 * (B days before or after the first listed date) suggests the dates were read wrongly.
 */
function startAgrees(spans: readonly Span[], b: number): boolean {
  if (spans.length === 0) return false;
  const first = spans.reduce((a, x) => (x[0] < a[0] ? x : a));
  return b === first[0] || (b > first[0] && b < first[1]) || (b < first[0] && dayOf(b) === dayOf(first[0]));
}

/** C agrees when it is the last end, falls inside the last interval, or follows the last end on the same day. */
function endAgrees(spans: readonly Span[], c: number): boolean {
  if (spans.length === 0) return false;
  const last = spans.reduce((a, x) => (x[1] > a[1] ? x : a));
  return c === last[1] || (c > last[0] && c < last[1]) || (c > last[1] && dayOf(c - 1) === dayOf(last[1] - 1));
}

function clip(spans: Span[], v: Validity, day: number): Span[] {
  const lo = Math.max(v.b, day * DAY_MS);
  const hi = Math.min(v.c ?? Number.POSITIVE_INFINITY, (day + 1) * DAY_MS);
  return unionSpans(spans.map(([s, e]): Span => [Math.max(s, lo), Math.min(e, hi)]).filter(([s, e]) => s < e));
}

const publicIssue = ({ code, at, text }: ParseIssue): ScheduleIssue => ({ code, at, text });
