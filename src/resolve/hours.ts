// An airspace's own hours (src/model/hours.ts) as intervals of one UTC day. Local days and wall-clock times go
// through luxon with the country's zone, so a German MON-FRI area is active from Sunday 22:00Z in summer and a
// `1 HR EARLIER IN SUMMER` time moves with the country's summer time, whatever the date.
import { DateTime } from "luxon";
import type { AipHours } from "../model/hours.js";
import { DAY_MS, type Span, type UtcDay, unionSpans } from "../model/time.js";

export interface HoursOnDay {
  /** Active intervals on the day, clipped, sorted, merged. */
  spans: Span[];
  /** Active on the day at times nobody publishes (`HX`, `MON-FRI HX`, an undated temporary area). */
  unknown: boolean;
}

const MIN = 60_000;

export function hoursOnDay(h: AipHours, day: UtcDay, zone: string | undefined): HoursOnDay {
  switch (h.kind) {
    case "h24":
      return { spans: [[day.start, day.end]], unknown: false };
    case "unknown":
      return { spans: [], unknown: true };
    case "notam":
      return { spans: [], unknown: false };
    case "dates": {
      if (!zone) return { spans: [], unknown: true };
      const picked = localDays(day, zone).filter((d) =>
        h.dates?.some((x) => x.month === d.month - 1 && x.day === d.day),
      );
      return {
        spans: clip(
          picked.map((d) => [d.toMillis(), d.plus({ days: 1 }).toMillis()]),
          day,
        ),
        unknown: false,
      };
    }
    case "weekly": {
      const spans = weekly(h, day, zone);
      if (spans === undefined) return { spans: [], unknown: true };
      return { spans, unknown: h.hoursUnknown === true && spans.length > 0 };
    }
  }
}

/** undefined when local days or times are needed and the country's zone is not known. */
function weekly(h: AipHours, day: UtcDay, zone: string | undefined): Span[] | undefined {
  const days = new Set(h.weekdays ?? []);
  const out: Span[] = [];
  if (h.clock === "local") {
    if (!zone) return undefined;
    for (const d of localDays(day, zone)) {
      if (!days.has(d.weekday % 7)) continue;
      if (!h.times) out.push([d.toMillis(), d.plus({ days: 1 }).toMillis()]);
      for (const [s, e] of h.times ?? []) {
        const start = d.plus({ minutes: s });
        const end = e > s ? d.plus({ minutes: e }) : d.plus({ days: 1, minutes: e });
        out.push([start.toMillis(), end.toMillis()]);
      }
    }
    return clip(out, day);
  }
  // UTC days; an overnight range of the day before runs into this one
  for (const start of [day.start - DAY_MS, day.start]) {
    if (!days.has(new Date(start).getUTCDay())) continue;
    const summer =
      h.clock === "utcWinter" && zone ? DateTime.fromMillis(start + 12 * 3_600_000, { zone }).isInDST : false;
    if (h.clock === "utcWinter" && !zone) return undefined;
    const shift = summer ? -60 * MIN : 0;
    for (const [s, e] of h.times ?? [[0, 24 * 60]]) {
      const end = e > s ? e : e + 24 * 60;
      out.push([start + s * MIN + shift, start + end * MIN + shift]);
    }
  }
  return clip(out, day);
}

/** The local midnights of the calendar days that overlap the UTC day. */
function localDays(day: UtcDay, zone: string): DateTime[] {
  const first = DateTime.fromMillis(day.start, { zone }).startOf("day");
  const out: DateTime[] = [];
  for (let d = first; d.toMillis() < day.end; d = d.plus({ days: 1 })) out.push(d);
  return out;
}

function clip(spans: Span[], day: UtcDay): Span[] {
  return unionSpans(
    spans.map(([s, e]): Span => [Math.max(s, day.start), Math.min(e, day.end)]).filter(([s, e]) => s < e),
  );
}
