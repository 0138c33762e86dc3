// An airspace's own published hours (docs/design.md §4 "regular airspace logic"; docs/activation.md §4), as a source
// writes them: `H24`, `HX`, `NOTAM`, `MON-FRI+`, `MON-FRI 0800-1600 LT`, a temporary area's `(3-5 JUL)`.
// Readers and the normaliser fill it; src/resolve/hours.ts turns it into intervals of one UTC day.

export const HOURS_KINDS = ["h24", "weekly", "dates", "unknown", "notam"] as const;
/**
 * h24: always active. weekly: active on some weekdays (all day, or at given times). dates: active on some calendar
 * days (a temporary area). unknown: `HX`, or a temporary area without dates: active at times nobody publishes.
 * notam: active only when a NOTAM says so.
 */
export type HoursKind = (typeof HOURS_KINDS)[number];

/** How the times of `weekly` hours are counted. */
export type HoursClock =
  /** UTC on UTC days (AIP default when nothing is said). */
  | "utc"
  /** Local wall-clock time on local days (`LT`, and days written without times: `MON-FRI`). */
  | "local"
  /** UTC in winter, one hour earlier while the country keeps summer time (`1 HR EARLIER IN SUMMER`). */
  | "utcWinter";

export interface AipHours {
  /** As written in the source: `MON-FRI+`, `H24`, `(3-5 JUL)`. */
  text: string;
  /** Where it was read: the name's last words (the DAeC convention), remarks, YAIXM rules, a RAT name. */
  from: "name" | "remarks" | "rules" | "ratName";
  kind: HoursKind;
  /** weekly: the weekdays, 0 = Sunday … 6 = Saturday. */
  weekdays?: number[];
  /** weekly: time ranges in minutes after midnight; absent = the whole of each selected day. */
  times?: Array<[number, number]>;
  clock?: HoursClock;
  /** weekly: on the selected days the times are not published (`MON-FRI HX`). */
  hoursUnknown?: boolean;
  /** dates: calendar days (month 0–11, day 1–31), local, of whatever year is published. */
  dates?: Array<{ month: number; day: number }>;
  /** `+` or `NOTAM` beside the hours: a NOTAM may activate it outside them. */
  plusNotam?: boolean;
}
