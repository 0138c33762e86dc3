// AIXM 5.1 `aixm:Timesheet` schedules expanded into concrete intervals inside an activation's validTime:
//   <aixm:Timesheet><aixm:timeReference>UTC</aixm:timeReference><aixm:startDate>10-05</aixm:startDate>
//     <aixm:day>ANY</aixm:day><aixm:startTime>06:00</aixm:startTime><aixm:endTime>15:30</aixm:endTime>
//     <aixm:excluded>NO</aixm:excluded></aixm:Timesheet>
// Included sheets are united, `excluded YES` sheets subtracted, the rest clipped to validTime; intervals are half-open.
// An end at or before the start ends the next day (`23:00`–`06:00`, `00:00`–`00:00` is the whole day).
import type { Severity } from "../model/diagnostic.js";
import { code, DAY, MINUTE } from "./xml-node.js";

export interface Span {
  start: number;
  end: number;
}

export type Report = (code: string, severity: Severity, message: string) => void;

/** Sheets are expanded over at most this many days of validTime. */
export const MAX_SCHEDULE_DAYS = 370;

const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

interface Sheet {
  /** UTC weekdays (0 = Sunday), null = every day. */
  days: ReadonlySet<number> | null;
  /** Annual date window as month × 100 + day, inclusive; may wrap over the new year. */
  dates: readonly [number, number] | null;
  /** Minutes after 00:00 UTC of the selected day. */
  start: number;
  end: number;
  excluded: boolean;
  daylightSaving: boolean;
}

/** `HH:MM` (up to `24:00`) → minutes. */
function minutes(hhmm: string): number | undefined {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(hhmm);
  if (!m || (m[1] === "24" && m[2] !== "00")) return undefined;
  return Number(m[1]) * 60 + Number(m[2]);
}

/** `DD-MM` → month × 100 + day; `""` → null (no bound). */
function dayMonth(ddmm: string): number | null | undefined {
  if (ddmm === "") return null;
  const m = /^(\d{2})-(\d{2})$/.exec(ddmm);
  const [d, mo] = [Number(m?.[1]), Number(m?.[2])];
  return m && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 ? mo * 100 + d : undefined;
}

/** Reads one sheet; a string says why it cannot be used. */
function readSheet(node: unknown): Sheet | string {
  const get = (key: string) => code(node, key);
  const event = get("startEvent") || get("endEvent");
  if (event) return `event-relative time "${event}" is not supported`;
  const reference = get("timeReference") || "UTC";
  const zone = /^UTC(?:([+-])(\d{1,2}))?$/.exec(reference);
  if (!zone) return `timeReference "${reference}" is not UTC±hh`;
  const shift = zone[2] === undefined ? 0 : (zone[1] === "-" ? -1 : 1) * Number(zone[2]) * 60;
  const [startText, endText] = [get("startTime") || "00:00", get("endTime") || "24:00"];
  const [start, end] = [minutes(startText), minutes(endText)];
  if (start === undefined || end === undefined) return `time "${startText}"–"${endText}" is not HH:MM`;
  const day = get("day") || "ANY";
  const til = get("dayTil") || day;
  let days: Set<number> | null = null;
  if (day !== "ANY" && day !== "DAILY") {
    const from = WEEKDAYS.indexOf(day);
    const to = til === "ANY" ? from : WEEKDAYS.indexOf(til);
    if (from < 0 || to < 0) return `day "${day}"${til === day ? "" : ` to "${til}"`} is not supported`;
    days = new Set();
    for (let i = from; ; i = (i + 1) % 7) {
      days.add(i);
      if (i === to) break;
    }
  }
  const [first, last] = [dayMonth(get("startDate")), dayMonth(get("endDate"))];
  if (first === undefined || last === undefined) return `date "${get("startDate")}"–"${get("endDate")}" is not DD-MM`;
  const dates = first === null && last === null ? null : ([first ?? 101, last ?? 1231] as const);
  // Times in UTC+h are h hours ahead of UTC.
  return {
    days,
    dates,
    start: start - shift,
    end: end - shift,
    excluded: get("excluded") === "YES",
    daylightSaving: get("daylightSavingAdjust") === "YES",
  };
}

function selects(sheet: Sheet, day: number): boolean {
  const date = new Date(day);
  if (sheet.days && !sheet.days.has(date.getUTCDay())) return false;
  if (!sheet.dates) return true;
  const key = (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
  const [from, to] = sheet.dates;
  return from <= to ? key >= from && key <= to : key >= from || key <= to;
}

/** Sorted union: overlapping or touching spans become one. */
function union(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** `a` minus `b` (both sorted unions). */
function subtract(a: Span[], b: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of a) {
    let from = s.start;
    for (const x of b) {
      if (x.end <= from || x.start >= s.end) continue;
      if (x.start > from) out.push({ start: from, end: x.start });
      from = Math.max(from, x.end);
    }
    if (from < s.end) out.push({ start: from, end: s.end });
  }
  return out;
}

/** The activation's intervals: validTime itself without sheets, else the expanded sheets clipped to it. */
export function expandTimesheets(sheets: unknown[], period: Span, report: Report): Span[] {
  if (sheets.length === 0) return [period];
  const first = Math.floor(period.start / DAY) * DAY - DAY;
  const stop = Math.min(period.end, first + MAX_SCHEDULE_DAYS * DAY);
  if (stop < period.end) {
    report("aup.time.tooLong", "warning", `validTime longer than ${MAX_SCHEDULE_DAYS} days; expanded over that many`);
  }
  const on: Span[] = [];
  const off: Span[] = [];
  let included = 0;
  for (const node of sheets) {
    if (code(node, "excluded") !== "YES") included++;
    const sheet = readSheet(node);
    if (typeof sheet === "string") {
      report("aup.time.timesheetUnsupported", "skipped", `${sheet}; this timesheet is not applied`);
      continue;
    }
    if (sheet.daylightSaving) {
      report("aup.time.daylightSaving", "warning", "daylightSavingAdjust YES not applied: times read as written");
    }
    for (let day = first; day < stop; day += DAY) {
      if (!selects(sheet, day)) continue;
      const start = day + sheet.start * MINUTE;
      let end = day + sheet.end * MINUTE;
      if (end <= start) end += DAY;
      (sheet.excluded ? off : on).push({ start, end });
    }
  }
  // Only exclusions: the whole validTime except them.
  const base = included === 0 ? [period] : union(on);
  return subtract(base, union(off))
    .map((s) => ({ start: Math.max(s.start, period.start), end: Math.min(s.end, period.end) }))
    .filter((s) => s.start < s.end);
}
