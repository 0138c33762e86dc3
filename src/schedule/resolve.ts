// Parsed groups to readings: dates placed on the calendar inside [B, C] (docs/design.md §3), weekdays as sets.
// A bare day number is the date with that number inside [B, C]; only when [B, C] holds it more than once
// does the month carried from earlier in the text decide. Where the text allows two readings, both are kept.
import { civilFromDays, DAY_MS } from "../model/time.js";
import type { DateRef, DayItem, Group, ParseIssue, TimeRange } from "./ast.js";
import type { Validity } from "./validity.js";

/** One group with its days resolved to day numbers (days since 1970-01-01, UTC). */
export interface ResolvedGroup {
  /** Every day of [B, C] (no day selector, with or without DAILY). */
  every: boolean;
  /** Weekdays as bits: bit d for weekday d (0 = Sunday); see `hasWeekday`. */
  weekdays: number;
  dates: ReadonlySet<number>;
  exceptWeekdays: number;
  exceptDates: ReadonlySet<number>;
  times: TimeRange[];
  /** Absolute continuous intervals, epoch ms. */
  spans: Array<[number, number]>;
  /** Weekly continuous intervals (`FRI 1200-SUN 2000`). */
  weekly: Array<{ fromDay: number; fromMinutes: number; toDay: number; toMinutes: number }>;
}

export type Reading = ResolvedGroup[];

export interface Window {
  first: number;
  /** Last day of [B, C] (inclusive); Infinity for PERM. */
  last: number;
}

/** How far a bare day number is looked for after B when C is PERM. */
const PERM_SEARCH_DAYS = 366;

export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** Whether weekday `d` (0 = Sunday) is in a group's `weekdays` or `exceptWeekdays`. */
export const hasWeekday = (mask: number, d: number) => (mask & (1 << d)) !== 0;

/** Shared by the groups that select no date (most): never added to. */
const NO_DATES: ReadonlySet<number> = new Set();

export function windowOf(v: Validity): Window {
  const first = dayOf(v.b);
  return { first, last: v.c === undefined ? Number.POSITIVE_INFINITY : dayOf(v.c - 1) };
}

/** A window with B's calendar date, worked out once for all the dates of one text. */
interface CalendarWindow extends Window {
  start: { y: number; m: number; d: number };
}

export function resolveGroups(groups: readonly Group[], v: Validity): { readings: Reading[]; issues: ParseIssue[] } {
  const { first, last } = windowOf(v);
  const w: CalendarWindow = { first, last, start: civilFromDays(first) };
  const issues: ParseIssue[] = [];
  const base = groups.map((g) => resolveGroup(g, w, issues));
  const readings: Reading[] = [base];
  // `MON 0535-1800, 1900-2100`: the bare times may also belong to the group before them
  if (groups.some((g) => g.bareAfterSelector)) {
    readings.push(
      base.map((r, i) => {
        const prev = i > 0 ? base[i - 1] : undefined;
        return groups[i]!.bareAfterSelector && prev ? { ...prev, times: r.times, spans: [], weekly: [] } : r;
      }),
    );
    const at = groups.find((g) => g.bareAfterSelector)!.at;
    issues.push({ code: "schedule.ambiguous.bareTimes", at, text: ",", level: "assumption" });
  }
  // an EXC in the last of several groups may be meant for all of them
  const lastExc = groups.length > 1 && groups[groups.length - 1]!.except.length > 0;
  if (lastExc && groups.slice(0, -1).every((g) => g.except.length === 0)) {
    const last = base[base.length - 1]!;
    readings.push(
      base.map((r) => ({
        ...r,
        exceptDates: new Set([...r.exceptDates, ...last.exceptDates]),
        exceptWeekdays: r.exceptWeekdays | last.exceptWeekdays,
      })),
    );
    issues.push({
      code: "schedule.ambiguous.excScope",
      at: groups[groups.length - 1]!.at,
      text: "EXC",
      level: "assumption",
    });
  }
  issues.push(...exceptionDoubts(groups, base));
  return { readings, issues };
}

/**
 * `<times> EXC <day>, <day> <other times>`: the excepted day gets times of its own, and whether an overnight period
 * of the day before still runs into it is not certain; nor is it for `2200-0600 EXC SUN` (does Saturday's night
 * end on Sunday?). Both are read (the selected days' ranges, as written) but never as `exact`.
 */
function exceptionDoubts(groups: readonly Group[], base: readonly ResolvedGroup[]): ParseIssue[] {
  const out: ParseIssue[] = [];
  base.forEach((r, i) => {
    if (r.exceptDates.size === 0 && r.exceptWeekdays === 0) return;
    const at = groups[i]!.at;
    const replaced = base.some(
      (o, j) =>
        j !== i &&
        ([...o.dates].some((d) => r.exceptDates.has(d) || hasWeekday(r.exceptWeekdays, (d + 4) % 7)) ||
          (o.weekdays & r.exceptWeekdays) !== 0),
    );
    if (replaced) out.push({ code: "schedule.ambiguous.excReplaced", at, text: "EXC", level: "assumption" });
    // continuous ranges with EXC have the same doubt at the excepted day's edges
    if (r.times.some(overnightRange) || r.spans.length > 0 || r.weekly.length > 0)
      out.push({ code: "schedule.ambiguous.excOvernight", at, text: "EXC", level: "assumption" });
  });
  return out;
}

/** `2200-0600`, `SS-SR`, `1500-0700`: a range that ends on the next day. */
function overnightRange(t: TimeRange): boolean {
  if (t.start.kind === "clock" && t.end.kind === "clock") return t.end.minutes <= t.start.minutes;
  if (t.start.kind === "sun" && t.end.kind === "sun") return t.start.event === "SS" && t.end.event === "SR";
  // SS-0300 ends after midnight; 2000-SR too
  return (t.start.kind === "sun" && t.start.event === "SS") || (t.end.kind === "sun" && t.end.event === "SR");
}

function resolveGroup(g: Group, w: CalendarWindow, issues: ParseIssue[]): ResolvedGroup {
  const r: ResolvedGroup = {
    // `18-19 DAILY 0725-1015`: DAILY after days means each of those days, not every day of [B, C]
    every: g.items.length === 0,
    weekdays: 0,
    dates: NO_DATES,
    exceptWeekdays: 0,
    exceptDates: NO_DATES,
    times: g.times,
    spans: [],
    weekly: [],
  };
  if (g.items.length > 0) [r.weekdays, r.dates] = days(g.items, w, issues);
  if (g.except.length > 0) [r.exceptWeekdays, r.exceptDates] = days(g.except, w, issues);
  for (const c of g.continuous) {
    if ("date" in c.from && "date" in c.to) {
      const from = resolveDate(c.from.date, w, issues)[0];
      const to = from === undefined ? undefined : resolveEnd(c.to.date, from, w, issues);
      if (from !== undefined && to !== undefined) {
        r.spans.push([from * DAY_MS + c.from.minutes * 60_000, to * DAY_MS + c.to.minutes * 60_000]);
      }
    } else if ("weekday" in c.from && "weekday" in c.to) {
      r.weekly.push({
        fromDay: c.from.weekday,
        fromMinutes: c.from.minutes,
        toDay: c.to.weekday,
        toMinutes: c.to.minutes,
      });
    }
  }
  // a group of continuous ranges only selects nothing else
  if (g.continuous.length > 0 && g.times.length === 0) r.every = false;
  return r;
}

/** The weekdays (as bits) and dates that day items select. */
function days(items: readonly DayItem[], w: CalendarWindow, issues: ParseIssue[]): [number, ReadonlySet<number>] {
  let weekdays = 0;
  let dates: Set<number> | undefined;
  for (const item of items) {
    switch (item.kind) {
      case "weekday":
        weekdays |= 1 << item.day;
        break;
      case "weekdayRange":
        for (let d = item.from; ; d = (d + 1) % 7) {
          weekdays |= 1 << d;
          if (d === item.to) break;
        }
        break;
      case "date":
        dates ??= new Set();
        for (const d of resolveDate(item.date, w, issues)) dates.add(d);
        break;
      case "dateRange": {
        const from = resolveDate(item.from, w, issues)[0];
        const to = from === undefined ? undefined : resolveEnd(item.to, from, w, issues);
        if (from === undefined || to === undefined) break;
        dates ??= new Set();
        for (let d = from; d <= to; d++) dates.add(d);
      }
    }
  }
  return [weekdays, dates ?? NO_DATES];
}

const dateParts = civilFromDays;

/** The day number of (year, month, day), or undefined when that date does not exist; `month` may run past 11. */
function calendarDay(y: number, m: number, d: number): number | undefined {
  const first = Date.UTC(y, m, 1) / DAY_MS;
  return d >= 1 && first + d - 1 < Date.UTC(y, m + 1, 1) / DAY_MS ? first + d - 1 : undefined;
}

/** Candidate days for a date reference: usually one; several only when the text cannot tell. */
function resolveDate(ref: DateRef, w: CalendarWindow, issues: ParseIssue[]): number[] {
  const note = (code: string, level: ParseIssue["level"] = "assumption") =>
    issues.push({ code, at: ref.at, text: String(ref.day), level });
  if (ref.month !== undefined) return [inMonth(ref.month, ref.day, w, note)].filter((d) => d !== undefined);
  const inWindow: number[] = [];
  const last = Math.min(w.last, w.first + PERM_SEARCH_DAYS);
  const start = w.start;
  // month by month from B's: the date ref.day of each that has it
  let monthStart = Date.UTC(start.y, start.m, 1) / DAY_MS;
  for (let k = 1; monthStart <= last; k++) {
    const next = Date.UTC(start.y, start.m + k, 1) / DAY_MS;
    const d = monthStart + ref.day - 1;
    if (ref.day >= 1 && d < next && d >= w.first && d <= last) inWindow.push(d);
    monthStart = next;
  }
  if (inWindow.length === 1) return inWindow;
  if (inWindow.length > 1) {
    // before any month is named, dates are in B's month (`05 MAY 19` from B in April: 05 is April 5)
    const month = ref.carry ?? w.start.m;
    const carried = inWindow.filter((d) => dateParts(d).m === month);
    if (carried.length === 1) return carried;
    note("schedule.date.ambiguous");
    return inWindow;
  }
  if (ref.carry !== undefined) return [inMonth(ref.carry, ref.day, w, note)].filter((d) => d !== undefined);
  note("schedule.date.outsideValidity");
  return [];
}

/** (month, day) in the year that puts it inside [B, C]; else the nearest such date, with an issue. */
function inMonth(month: number, day: number, w: CalendarWindow, note: (code: string) => void): number | undefined {
  const y0 = w.start.y;
  const candidates = [y0 - 1, y0, y0 + 1, y0 + 2]
    .map((y) => calendarDay(y, month, day))
    .filter((d): d is number => d !== undefined);
  const inside = candidates.filter((d) => d >= w.first && d <= w.last);
  if (inside.length >= 1) return inside[0];
  if (candidates.length === 0) {
    note("schedule.date.invalid");
    return undefined;
  }
  note("schedule.date.outsideValidity");
  return candidates.reduce((a, b) => (Math.abs(b - w.first) < Math.abs(a - w.first) ? b : a));
}

/** The end of a range: the first date on or after `from` that matches (`29-02` crosses into the next month). */
function resolveEnd(ref: DateRef, from: number, w: Window, issues: ParseIssue[]): number | undefined {
  const start = dateParts(from);
  // month by month (a date exists at most once in each), up to 400 days on
  for (let k = 0; k <= 14; k++) {
    const d = calendarDay(start.y, start.m + k, ref.day);
    if (d === undefined || d < from) continue;
    if (d > from + 400) break;
    if (ref.month !== undefined && (start.m + k) % 12 !== ref.month) continue;
    if (d > w.last)
      issues.push({ code: "schedule.date.outsideValidity", at: ref.at, text: String(ref.day), level: "assumption" });
    return d;
  }
  issues.push({ code: "schedule.date.invalid", at: ref.at, text: String(ref.day), level: "fatal" });
  return undefined;
}
