// The `schedule` of ItemDParsedSchedule (docs/contract.md §2.9): the resolved reading in a compact, stable JSON form.
// Schema in model/contract.ts (CompactSchedule); documented in docs/item-d-schedule.md.
import type { CompactSchedule } from "../model/contract.js";
import type { TimePoint } from "./ast.js";
import { isoDate } from "./expand.js";
import { hasWeekday, type Reading } from "./resolve.js";
import { WEEKDAYS } from "./tokens.js";

type CompactGroup = CompactSchedule["groups"][number];
type Selection = Exclude<CompactGroup["days"], "every">;

export function compactSchedule(r: Reading): CompactSchedule {
  return {
    groups: r.map((g) => {
      const days = g.every ? ("every" as const) : selection(g.weekdays, g.dates);
      const out: CompactGroup = { days, times: g.times.map((t) => [point(t.start), point(t.end)]) };
      if (g.exceptDates.size > 0 || g.exceptWeekdays !== 0) out.except = selection(g.exceptWeekdays, g.exceptDates);
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

function selection(weekdays: number, dates: ReadonlySet<number>): Selection {
  const out: Selection = {};
  if (weekdays !== 0) {
    // Monday first; WEEKDAYS holds the three-letter names the schema allows (SUN is index 0)
    const chosen = MONDAY_FIRST.filter((d) => hasWeekday(weekdays, d));
    out.weekdays = chosen.map((d) => WEEKDAYS[d]!) as NonNullable<Selection["weekdays"]>;
  }
  if (dates.size > 0) out.dates = [...dates].sort((a, b) => a - b).map(isoDate);
  return out;
}

const MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0];
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const point = (p: TimePoint) =>
  p.kind === "clock" ? hhmm(p.minutes) : `${p.event}${p.offset === 0 ? "" : p.offset > 0 ? `+${p.offset}` : p.offset}`;
const instant = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
