// A reading to activity intervals on one UTC day: each selected day yields its time ranges (an overnight
// range starts on the selected day and ends on the next), plus continuous ranges; all clipped to [B, C]
// and the day, merged where they touch. Sunrise and sunset are computed at the NOTAM's position.
import { DAY_MS, type Span, unionSpans } from "../model/time.js";
import type { TimePoint } from "./ast.js";
import { hasWeekday, type Reading, type ResolvedGroup, type Window, windowOf } from "./resolve.js";
import { type SunTimes, sunTimesOnDay } from "./sun.js";
import type { Validity } from "./validity.js";

export interface Position {
  lat: number;
  lon: number;
}

export interface Expansion {
  spans: Span[];
  /** SR/SS was needed without a position (or in polar day/night): the whole day was assumed. */
  sunGuessed: boolean;
}

const MINUTE = 60_000;

/** Intervals of the reading meeting [from, to) in days (`to` exclusive), unclipped. */
export function readingSpans(
  reading: Reading,
  v: Validity,
  fromDay: number,
  toDay: number,
  position?: Position,
): Expansion {
  const w = windowOf(v);
  const out: Span[] = [];
  let sunGuessed = false;
  let suns: Map<number, SunTimes> | undefined;
  const at = (day: number, p: TimePoint, isEnd: boolean): number => {
    if (p.kind === "clock") return day * DAY_MS + p.minutes * MINUTE;
    suns ??= new Map();
    let sun = position ? suns.get(day) : undefined;
    if (position && !sun) {
      sun = sunTimesOnDay(day, position.lat, position.lon);
      suns.set(day, sun);
    }
    const t = p.event === "SR" ? sun?.sunrise : sun?.sunset;
    if (t === undefined) {
      sunGuessed = true;
      return (isEnd ? day + 1 : day) * DAY_MS;
    }
    // NOTAM times are whole minutes: so are computed sunrise and sunset
    return Math.round(t / MINUTE) * MINUTE + p.offset * MINUTE;
  };
  for (const g of reading) {
    // an overnight range selected the day before still runs into `fromDay`, also when that day is B's eve: a
    // Sunday–Thursday night period with B on Monday 02:00 is active from B (the tail of Sunday's night)
    for (let day = fromDay - 1; day < toDay; day++) {
      const eve = day === w.first - 1 && !g.dates.size && selected(g, day, { first: day, last: w.last });
      if (!selected(g, day, w) && !eve) continue;
      for (const t of g.times) {
        const start = at(day, t.start, false);
        let end = at(day, t.end, true);
        if (end <= start) end = at(day + 1, t.end, true);
        else if (eve) continue;
        if (end > start) out.push([start, end]);
      }
    }
    if (g.spans.length === 0 && g.weekly.length === 0) continue;
    const excluded = (day: number) => g.exceptDates.has(day) || hasWeekday(g.exceptWeekdays, weekday(day));
    const hasExc = g.exceptDates.size > 0 || g.exceptWeekdays !== 0;
    for (const s of g.spans) out.push(...(hasExc ? withoutDays(s, excluded) : [s]));
    for (const k of g.weekly) {
      // a week-long pattern begun up to a week before still runs into `fromDay`, also from before B (clipped to B)
      for (let day = fromDay - 7; day < toDay; day++) {
        if (weekday(day) !== k.fromDay || day > w.last) continue;
        const start = day * DAY_MS + k.fromMinutes * MINUTE;
        let endDay = day + ((k.toDay - k.fromDay + 7) % 7);
        if (endDay * DAY_MS + k.toMinutes * MINUTE <= start) endDay += 7;
        const span: Span = [start, endDay * DAY_MS + k.toMinutes * MINUTE];
        out.push(...(hasExc ? withoutDays(span, excluded) : [span]));
      }
    }
  }
  const lo = (fromDay - 1) * DAY_MS;
  const hi = (toDay + 1) * DAY_MS;
  let n = 0;
  for (const span of out) if (span[1] > lo && span[0] < hi) out[n++] = span;
  if (n < out.length) out.length = n; // setting the length is a call into the runtime, even unchanged
  return { spans: out, sunGuessed };
}

/** Intervals of the reading on day `day`, clipped to [B, C] and the day, merged. */
export function expandDay(reading: Reading, v: Validity, day: number, position?: Position): Expansion {
  const e = readingSpans(reading, v, day, day + 1, position);
  const lo = Math.max(v.b, day * DAY_MS);
  const hi = Math.min(v.c ?? Number.POSITIVE_INFINITY, (day + 1) * DAY_MS);
  let n = 0;
  for (const [s, end] of e.spans) {
    const a = s > lo ? s : lo;
    const b = end < hi ? end : hi;
    if (a < b) e.spans[n++] = [a, b];
  }
  if (n < e.spans.length) e.spans.length = n;
  if (n > 1) e.spans = unionSpans(e.spans);
  return e;
}

/** A continuous span without the whole days EXC removes (`08 0800-12 2000 EXC FRI`). */
function withoutDays([start, end]: Span, excluded: (day: number) => boolean): Span[] {
  const out: Span[] = [];
  let from = start;
  for (let day = Math.floor(start / DAY_MS); day * DAY_MS < end; day++) {
    if (!excluded(day)) continue;
    if (day * DAY_MS > from) out.push([from, day * DAY_MS]);
    from = Math.max(from, (day + 1) * DAY_MS);
  }
  if (from < end) out.push([from, end]);
  return out;
}

function selected(g: ResolvedGroup, day: number, w: Window): boolean {
  if (day < w.first || day > w.last) return false;
  const wd = weekday(day);
  const chosen = g.every || hasWeekday(g.weekdays, wd) || g.dates.has(day);
  return chosen && !hasWeekday(g.exceptWeekdays, wd) && !g.exceptDates.has(day);
}

/** 1970-01-01 was a Thursday. `| 0`: a day number from Math.floor may be held as a double, whose `%` is a call. */
export const weekday = (day: number) => ((day + 4) | 0) % 7;
export { isoDay as isoDate } from "../model/time.js";
