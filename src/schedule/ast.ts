// src/schedule — NOTAM Item D: tokens, grammar, dates in [B, C], day expansion, sun times, status.
// The parsed, not yet resolved, shape of an Item D text: groups of day selectors and time ranges.
// Dates keep what the text said (a day number, maybe a month); resolve.ts places them in [B, C].

export interface DateRef {
  day: number;
  /** Month 0–11 when the text names it for this date (`FEB 05`, `05 FEB`). */
  month?: number;
  /** The last month named before this date anywhere in the text (the carry of docs/design.md §3). */
  carry?: number;
  at: number;
}

export type DayItem =
  | { kind: "date"; date: DateRef }
  | { kind: "dateRange"; from: DateRef; to: DateRef }
  | { kind: "weekday"; day: number }
  | { kind: "weekdayRange"; from: number; to: number };

export type TimePoint = { kind: "clock"; minutes: number } | { kind: "sun"; event: "SR" | "SS"; offset: number };

export interface TimeRange {
  start: TimePoint;
  end: TimePoint;
  at: number;
}

/** `FEB 08 0800-MAR 12 2000` (dates) or `FRI 1200-SUN 2000` (every week): one unbroken interval. */
export interface Continuous {
  from: { date: DateRef; minutes: number } | { weekday: number; minutes: number };
  to: { date: DateRef; minutes: number } | { weekday: number; minutes: number };
  at: number;
}

export interface Group {
  /** `DAILY`/`DLY` was written: every day of [B, C] when the group names no days, else each day it names. */
  daily: boolean;
  items: DayItem[];
  times: TimeRange[];
  continuous: Continuous[];
  except: DayItem[];
  /** Bare times right after a comma that followed a group with a selector (`MON 0535-1800, 1900-2100`). */
  bareAfterSelector: boolean;
  at: number;
}

export interface ParseIssue {
  code: string;
  at: number;
  text: string;
  /** fatal: not understood (fallback); unsupported: refers outside the text; assumption: understood with a guess. */
  level: "fatal" | "unsupported" | "assumption";
}
