// The `schedule` of ItemDParsedSchedule (SPEC §2.9): the resolved reading in a compact, stable JSON form.
// Documented in docs/item-d-schedule.md.
import type { TimePoint } from "./ast.js";
import { isoDate } from "./expand.js";
import type { Reading } from "./resolve.js";
import { WEEKDAYS } from "./tokens.js";

export interface CompactGroup {
  /** `"every"` day of [B, C], or the selected weekdays and/or dates. */
  days: "every" | { weekdays?: string[]; dates?: string[] };
  /** `[start, end]`: `HH:MM` (`24:00` = end of day) or `SR`/`SS` with a signed offset in minutes (`SR-30`). */
  times: Array<[string, string]>;
  except?: { weekdays?: string[]; dates?: string[] };
  /** Unbroken intervals `[start, end]` as ISO instants (`FEB 08 0800-MAR 12 2000`). */
  continuous?: Array<[string, string]>;
  /** Weekly unbroken intervals `["FRI 12:00", "SUN 20:00"]`. */
  weekly?: Array<[string, string]>;
}

export interface CompactSchedule {
  groups: CompactGroup[];
}

export function compactSchedule(r: Reading): CompactSchedule {
  return {
    groups: r.map((g) => {
      const days = g.every ? ("every" as const) : selection(g.weekdays, g.dates);
      const out: CompactGroup = { days, times: g.times.map((t) => [point(t.start), point(t.end)]) };
      if (g.exceptDates.size + g.exceptWeekdays.size > 0) out.except = selection(g.exceptWeekdays, g.exceptDates);
      if (g.spans.length > 0) out.continuous = g.spans.map(([s, e]) => [instant(s), instant(e)]);
      if (g.weekly.length > 0) {
        out.weekly = g.weekly.map((k) => [
          `${WEEKDAYS[k.fromDay]} ${hhmm(k.fromMinutes)}`,
          `${WEEKDAYS[k.toDay]} ${hhmm(k.toMinutes)}`,
        ]);
      }
      return out;
    }),
  };
}

function selection(weekdays: Set<number>, dates: Set<number>): { weekdays?: string[]; dates?: string[] } {
  const out: { weekdays?: string[]; dates?: string[] } = {};
  if (weekdays.size > 0)
    out.weekdays = [...weekdays].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => WEEKDAYS[d]!);
  if (dates.size > 0) out.dates = [...dates].sort((a, b) => a - b).map(isoDate);
  return out;
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const point = (p: TimePoint) =>
  p.kind === "clock" ? hhmm(p.minutes) : `${p.event}${p.offset === 0 ? "" : p.offset > 0 ? `+${p.offset}` : p.offset}`;
const instant = (ms: number) => `${new Date(ms).toISOString().slice(0, 16)}Z`;
