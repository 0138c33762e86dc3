// UTC days and half-open intervals in epoch milliseconds; ISO 8601 at the boundaries (STYLE habit 8).

export const DAY_MS = 86_400_000;

/** A UTC day D = [start, end). */
export interface UtcDay {
  /** `YYYY-MM-DD` */
  date: string;
  start: number;
  end: number;
}

/** Half-open interval [start, end) in epoch milliseconds. */
export type Span = readonly [start: number, end: number];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC day of a `YYYY-MM-DD` string, or undefined when it is not a real calendar date. */
export function utcDay(date: string): UtcDay | undefined {
  const m = DATE.exec(date);
  if (!m) return undefined;
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (isoInstant(start).slice(0, 10) !== date) return undefined;
  return { date, start, end: start + DAY_MS };
}

/** `2026-09-14T08:00:00Z`: seconds precision, no milliseconds, always Z. */
export function isoInstant(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Parses an ISO 8601 instant with a zone; undefined when invalid. */
export function parseInstant(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Intersection of a span with the day, or undefined when they do not meet. */
export function clipToDay(span: Span, day: UtcDay): Span | undefined {
  const start = Math.max(span[0], day.start);
  const end = Math.min(span[1], day.end);
  return start < end ? [start, end] : undefined;
}

/** Sorted union of spans; touching spans merge. */
export function unionSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
