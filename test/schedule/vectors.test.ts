// The Item D vectors of fixtures/schedule (svoop/notam, ogosselet/xctools, EUROCONTROL: see PROVENANCE.md there),
// one test per vector, named by its id. Item D is evaluated day by day with evaluateItemD, the intervals of the days
// are merged, and the result is compared with the intervals the vector's expectation describes over a checking window.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CompactSchedule } from "../../src/model/contract.js";
import { DAY_MS, isoInstant, type Span, unionSpans, utcDay } from "../../src/model/time.js";

type CompactGroup = CompactSchedule["groups"][number];

import { evaluateItemD, type ScheduleResult } from "../../src/schedule/evaluate.js";
import type { Position } from "../../src/schedule/expand.js";
import { sunTimes } from "../../src/schedule/sun.js";
import { parseStamp, parseValidity, type Validity } from "../../src/schedule/validity.js";
import { FIXTURES } from "../helpers.js";

/** One svoop schedule: the days selected by `actives` minus `inactives`, each active at `times`. */
interface Entry {
  actives: string[];
  times: string[];
  inactives: string[];
}

interface Vector {
  id: string;
  input: string;
  context: Record<string, string>;
  expected: unknown;
  note?: string;
}

const FILE = path.join(FIXTURES, "schedule", "itemD_test_vectors.json");
const { vectors } = JSON.parse(readFileSync(FILE, "utf8")) as { description: string; vectors: Vector[] };

const MINUTE = 60_000;
const WEEKDAY_NAMES = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

// ---- days, instants, validity ----------------------------------------------------------------------------------

/** Day number (days since 1970-01-01) of `YYYY-MM-DD`. */
function dayNumber(date: string): number {
  const d = utcDay(date);
  if (!d) throw new Error(`not a date: ${date}`);
  return d.start / DAY_MS;
}

const dayOfMs = (ms: number) => Math.floor(ms / DAY_MS);
const isoDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const hhmm = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
/** `2000-02-05T11:30` (UTC) to epoch ms. */
const instant = (text: string) => Date.parse(`${text}:00Z`);

/** `YYMMDDhhmm` of an instant, as written in Items B and C. */
function stamp(ms: number): string {
  const s = new Date(ms).toISOString();
  return s.slice(2, 4) + s.slice(5, 7) + s.slice(8, 10) + s.slice(11, 13) + s.slice(14, 16);
}

/** [B, C] from Items B and C; without C, C = B + 400 days. */
function validity(itemB: string, itemC?: string): Validity {
  const b = parseStamp(itemB);
  if (b === undefined) throw new Error(`bad Item B ${itemB}`);
  const parsed = parseValidity(itemB, itemC ?? stamp(b + 400 * DAY_MS));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

/** The vector's [B, C]: B = `base_date` 00:00Z or `itemB`; C = `itemC` or B + 400 days. */
function contextValidity(v: Vector): Validity {
  const { base_date: base, itemB, itemC } = v.context;
  if (base !== undefined) return validity(stamp(dayNumber(base) * DAY_MS));
  if (itemB !== undefined) return validity(itemB, itemC);
  throw new Error(`${v.id}: no base_date or itemB in the context`);
}

// ---- evaluation --------------------------------------------------------------------------------------------------

interface Run {
  results: ScheduleResult[];
  /** The intervals of all days, merged (touching intervals merge across midnight). */
  spans: Span[];
}

/** evaluateItemD for each day `from`..`to` (inclusive). */
function evaluateDays(itemD: string, v: Validity, from: number, to: number, position?: Position): Run {
  const results: ScheduleResult[] = [];
  for (let day = from; day <= to; day++) results.push(evaluateItemD(itemD, v, day, position));
  return { results, spans: unionSpans(results.flatMap((r) => r.intervals)) };
}

/** Every day's status is `exact` or `partial` (never `fallback`/`unsupported`) and carries a parser version. */
function expectUnderstood(run: Run): void {
  const failed = run.results
    .filter((r) => r.status === "fallback" || r.status === "unsupported")
    .map((r) => ({ status: r.status, issues: r.issues }));
  expect(failed).toEqual([]);
  for (const r of run.results) {
    expect(typeof r.parserVersion).toBe("string");
    expect(r.parserVersion.length).toBeGreaterThan(0);
  }
}

const show = (spans: readonly Span[]) => spans.map(([s, e]) => `${isoInstant(s)} – ${isoInstant(e)}`);

/** Same intervals, each bound within `tolerance` ms (the diff shows the actual bounds where they are off). */
function expectSpans(actual: readonly Span[], expected: readonly Span[], tolerance = 0): void {
  const near = (a: number, e: number | undefined) => (e !== undefined && Math.abs(a - e) <= tolerance ? e : a);
  const snapped = actual.map(([s, e], i): Span => [near(s, expected[i]?.[0]), near(e, expected[i]?.[1])]);
  expect(show(snapped)).toEqual(show(expected));
}

// ---- expected intervals from svoop schedules ---------------------------------------------------------------------

type Point = { kind: "clock"; minutes: number } | { kind: "sun"; event: "SR" | "SS"; offset: number };

/** `11:30`, `24:00`, `SR`, `SR-30min`, `SS+30min`. */
function point(text: string): Point {
  if (/^\d{2}:\d{2}$/.test(text)) return { kind: "clock", minutes: hhmm(text) };
  const m = /^(SR|SS)(?:([+-]\d+)min)?$/.exec(text);
  if (!m) throw new Error(`bad time ${text}`);
  return { kind: "sun", event: m[1] as "SR" | "SS", offset: Number(m[2] ?? 0) };
}

/** `11:30-13:30`, `SR-30min-15:00`, `10:00-SS+30min` split into its two points as written. */
function splitRange(text: string): [string, string] {
  const m = /^(\d{2}:\d{2}|S[RS](?:[+-]\d+min)?)-(\d{2}:\d{2}|S[RS](?:[+-]\d+min)?)$/.exec(text);
  if (!m) throw new Error(`bad time range ${text}`);
  return [m[1]!, m[2]!];
}

const timeRange = (text: string): [Point, Point] => {
  const [start, end] = splitRange(text);
  return [point(start), point(end)];
};

/** The compact-schedule form of svoop times (`SR-30min-15:00` → `["SR-30", "15:00"]`). */
const compactTimes = (times: string[]) =>
  times.map((t) => splitRange(t).map((p) => p.replace(/min$/, "")) as [string, string]);

/** Does a selector (`2000-02-05`, `a..b`, `MON`, `MON..TUE`, `ANY`) select `day`? */
function selects(selector: string, day: number): boolean {
  if (selector === "ANY") return true;
  const [a, b = a] = selector.split("..") as [string, string?];
  const from = WEEKDAY_NAMES.indexOf(a);
  if (from >= 0) {
    const to = WEEKDAY_NAMES.indexOf(b);
    const wd = new Date(day * DAY_MS).getUTCDay();
    return (wd - from + 7) % 7 <= (to - from + 7) % 7;
  }
  return dayNumber(a) <= day && day <= dayNumber(b);
}

/** The days of `a..b` / `a` date selectors, as ISO dates. */
const selectedDates = (selectors: string[]) =>
  selectors.flatMap((s) => {
    const [a, b = a] = s.split("..") as [string, string?];
    const out: string[] = [];
    for (let d = dayNumber(a); d <= dayNumber(b); d++) out.push(isoDate(d));
    return out;
  });

/**
 * How sunrise/sunset become instants: at a position (whole minutes, like the parser), or, without one, widened to the
 * whole day as the parser does (a start at SR/SS → 00:00, an end → 24:00).
 */
function sunAt(position: Position | undefined) {
  return (day: number, p: Extract<Point, { kind: "sun" }>, isEnd: boolean): number => {
    if (!position) return (isEnd ? day + 1 : day) * DAY_MS;
    const sun = sunTimes(isoDate(day), position.lat, position.lon);
    const t = p.event === "SR" ? sun.sunrise : sun.sunset;
    if (t === undefined) throw new Error(`no ${p.event} on ${isoDate(day)}`);
    return Math.round(t / MINUTE) * MINUTE + p.offset * MINUTE;
  };
}

/**
 * The intervals svoop's schedules describe on days `from`..`to`, clipped to [B, C] and the window, merged.
 *
 * svoop writes an overnight range as two schedules: `22:00-24:00` on the day and a tail `00:00-04:00` on the next.
 * A tail on B's day belongs to a range that started on B's eve, outside [B, C]; docs/design.md §3 as amended by issue 15
 * keeps it (the night period of the day before runs into the published day, clipped to B), as svoop does.
 */
function expectedSpans(entries: Entry[], v: Validity, from: number, to: number, position?: Position): Span[] {
  const sun = sunAt(position);
  const at = (day: number, p: Point, isEnd: boolean) =>
    p.kind === "clock" ? day * DAY_MS + p.minutes * MINUTE : sun(day, p, isEnd);
  const out: Span[] = [];
  entries.forEach((entry) => {
    for (let day = from; day <= to; day++) {
      if (!entry.actives.some((s) => selects(s, day)) || entry.inactives.some((s) => selects(s, day))) continue;
      for (const t of entry.times) {
        const [start, end] = timeRange(t);
        out.push([at(day, start, false), at(day, end, true)]);
      }
    }
  });
  const lo = Math.max(v.b, from * DAY_MS);
  const hi = Math.min(v.c ?? Number.POSITIVE_INFINITY, (to + 1) * DAY_MS);
  return unionSpans(out.map(([s, e]): Span => [Math.max(s, lo), Math.min(e, hi)]).filter(([s, e]) => s < e));
}

/**
 * The checking window: the context's `window` when it names one; else from B's day to the last date the vector
 * names + 2 days, and at least 21 days when it selects weekdays or every day.
 */
function checkingWindow(v: Vector, entries: Entry[], val: Validity): [number, number] {
  const named = /=>\s*(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})/.exec(v.context.window ?? "");
  if (named) return [dayNumber(named[1]!), dayNumber(named[2]!)];
  const from = dayOfMs(val.b);
  const selectors = entries.flatMap((e) => [...e.actives, ...e.inactives]);
  const dates = selectors.flatMap((s) => s.split("..")).filter((s) => /^\d{4}-/.test(s));
  let to = dates.length > 0 ? Math.max(...dates.map(dayNumber)) + 2 : from;
  if (entries.some((e) => e.actives.some((s) => !/^\d{4}-/.test(s)))) to = Math.max(to, from + 20);
  return [from, to];
}

/** Item D over the checking window against the svoop schedules. */
function checkEntries(v: Vector, entries: Entry[], itemD = v.input): Run {
  const val = contextValidity(v);
  const [from, to] = checkingWindow(v, entries, val);
  const run = evaluateDays(itemD, val, from, to);
  expectUnderstood(run);
  expectSpans(run.spans, expectedSpans(entries, val, from, to));
  return run;
}

// ---- checks by kind of vector ------------------------------------------------------------------------------------

/** SR/SS without a position: `partial` for that reason, symbolic times in the schedule, days widened. */
function checkSunWithoutPosition(v: Vector, entries: Entry[]): void {
  const val = contextValidity(v);
  const [from, to] = checkingWindow(v, entries, val);
  const run = evaluateDays(v.input, val, from, to);
  expectUnderstood(run);
  for (const r of run.results) {
    expect(r.status).toBe("partial");
    expect(r.issues.map((i) => i.code)).toContain("schedule.sun.noPosition");
    expect(r.schedule?.groups).toEqual(entries.map((e) => ({ days: "every", times: compactTimes(e.times) })));
  }
  expectSpans(run.spans, expectedSpans(entries, val, from, to));
}

/** `svoop.dates_from.*`: dates only, made a schedule with ` 0000-2359` (the whole of each day). */
function checkDates(v: Vector): void {
  const dates = v.expected as string[];
  checkEntries(v, [{ actives: dates, times: ["00:00-24:00"], inactives: [] }], `${v.input} 0000-2359`);
}

/** xctools: the explicit UTC intervals over the whole [B, C]. */
function checkUtcIntervals(v: Vector): void {
  const val = contextValidity(v);
  const run = evaluateDays(v.input, val, dayOfMs(val.b), dayOfMs(val.c! - 1));
  expectUnderstood(run);
  const { intervals_utc: expected } = v.expected as { intervals_utc: Array<[string, string]> };
  expectSpans(run.spans, unionSpans(expected.map(([s, e]): Span => [instant(s), instant(e)])));
}

/**
 * `22 0700-1700 23 0430-1800 24 0430-1400`. svoop rejects date-time groups without commas ("invalid D item"), but
 * real Item D texts have them and docs/design.md §3 ("missing commas") requires that they are read: a new date after times
 * starts a new group. So this vector's expectation is ours, not its source's: three dated groups.
 */
function checkMissingCommas(v: Vector): void {
  const entries: Entry[] = [
    { actives: ["2000-02-22"], times: ["07:00-17:00"], inactives: [] },
    { actives: ["2000-02-23"], times: ["04:30-18:00"], inactives: [] },
    { actives: ["2000-02-24"], times: ["04:30-14:00"], inactives: [] },
  ];
  const run = checkEntries(v, entries);
  for (const r of run.results) {
    const groups = r.schedule?.groups ?? [];
    expect(groups.map((g) => g.times)).toEqual(entries.map((e) => compactTimes(e.times)));
    // a bare day number may fall on several dates of a 400-day [B, C]: each group keeps its own day of the month
    groups.forEach((g, i) => {
      const dates = typeof g.days === "object" ? (g.days.dates ?? []) : [];
      expect(dates).toContain(entries[i]!.actives[0]);
      expect(new Set(dates.map((d) => d.slice(8)))).toEqual(new Set([entries[i]!.actives[0]!.slice(8)]));
    });
  }
}

/** Position of a Q-line centre `4624N00702E004`. */
function qlineCentre(qline: string): Position {
  const m = /(\d{2})(\d{2})([NS])(\d{3})(\d{2})([EW])\d{3}$/.exec(qline);
  if (!m) throw new Error(`no centre in ${qline}`);
  const lat = (Number(m[1]) + Number(m[2]) / 60) * (m[3] === "S" ? -1 : 1);
  const lon = (Number(m[4]) + Number(m[5]) / 60) * (m[6] === "W" ? -1 : 1);
  return { lat, lon };
}

/**
 * The svoop README example (LSAS W0902/22): SR at the Q-line centre, C estimated. B is 09:00 on 11 April, so that
 * day's `SR-15min-19:00` is clipped to 09:00-19:00; the SR-15min start itself is checked with B at 00:00.
 */
function checkLsas(v: Vector): void {
  const position = qlineCentre(v.context.qline!);
  const { schedules, five_day_schedules: fiveDay } = v.expected as { schedules: Entry[]; five_day_schedules: Entry[] };
  const val = contextValidity(v);
  const from = dayOfMs(val.b);
  const to = dayOfMs(val.c! - 1);
  const run = evaluateDays(v.input, val, from, to, position);
  expectUnderstood(run);
  expectSpans(run.spans, expectedSpans(schedules, val, from, to, position), MINUTE);
  for (const r of run.results) {
    expect(r.status).toBe("partial");
    expect(r.issues.map((i) => i.code)).toContain("schedule.validity.estimated");
    expect(r.issues.map((i) => i.code)).not.toContain("schedule.sun.noPosition");
    const groups: CompactGroup[] = schedules.map((e) => ({
      days: { dates: selectedDates(e.actives) },
      times: compactTimes(e.times),
    }));
    expect(r.schedule?.groups).toEqual(groups);
  }

  // svoop's five-day view from 11 April: 11 April (from B, 09:00) and 14 April
  const five = evaluateDays(v.input, val, from, from + 4, position);
  expectSpans(five.spans, expectedSpans(fiveDay, val, from, from + 4), 0);

  // the SR-15min start, unclipped: within 1 min of sunTimes at the centre
  const early = validity("2204110000", v.context.itemC);
  const [first] = evaluateItemD(v.input, early, from, position).intervals;
  const sunrise = sunTimes("2022-04-11", position.lat, position.lon).sunrise!;
  expect(first).toBeDefined();
  expect(Math.abs(first![0] - (sunrise - 15 * MINUTE))).toBeLessThanOrEqual(MINUTE);
  expect(first![1]).toBe(instant("2022-04-11T19:00"));
  // svoop's README says 04:35 (its own solar routine, rounded to 5 min); NOAA at 46.40N 7.03E gives 04:38
  expect(Math.abs(first![0] - instant("2022-04-11T04:35"))).toBeLessThanOrEqual(5 * MINUTE);
}

/**
 * SR-SS at LFPG on 2025-07-01. svoop rounds sunrise up and sunset down to 5 minutes (vector note), so its
 * 03:50-19:55 says sunrise in (03:45, 03:50] and sunset in [19:55, 20:00); ours must lie there, ±1 min.
 */
function checkLfpg(v: Vector): void {
  const position = { lat: 49.01614, lon: 2.54423 };
  const val = validity("2507010000", "2507020000");
  const day = dayNumber("2025-07-01");
  const run = evaluateDays(v.input, val, day, day, position);
  expectUnderstood(run);
  expect(run.results[0]!.status).toBe("exact");
  expect(run.spans).toHaveLength(1);
  const [[sr, ss]] = run.spans as [Span];
  const t = (hm: string) => instant(`2025-07-01T${hm}`);
  expect(sr).toBeGreaterThan(t("03:45") - MINUTE);
  expect(sr).toBeLessThanOrEqual(t("03:50") + MINUTE);
  expect(ss).toBeGreaterThanOrEqual(t("19:55") - MINUTE);
  expect(ss).toBeLessThan(t("20:00") + MINUTE);
  // and on the whole minute of our own solar calculation
  const sun = sunTimes("2025-07-01", position.lat, position.lon);
  expect(Math.abs(sr - sun.sunrise!)).toBeLessThanOrEqual(MINUTE);
  expect(Math.abs(ss - sun.sunset!)).toBeLessThanOrEqual(MINUTE);
}

/** EUROCONTROL daily rule (7): times keep timeline order; with a position (Frankfurt) the intervals are sorted. */
function checkOrdering(v: Vector): void {
  const { times } = v.expected as { times: string[] };
  const position = { lat: 50.03, lon: 8.57 };
  const val = validity("2609140000", "2609150000");
  const day = dayNumber("2026-09-14");
  const run = evaluateDays(v.input, val, day, day, position);
  expectUnderstood(run);
  const [r] = run.results as [ScheduleResult];
  expect(r.status).toBe("exact");
  expect(r.schedule?.groups.map((g) => g.times)).toEqual([compactTimes(times)]);
  expect(r.schedule?.groups.map((g) => g.days)).toEqual(["every"]);
  expect(r.intervals.every(([s, e], i) => s < e && (i === 0 || r.intervals[i - 1]![1] < s))).toBe(true);
  const entries = [{ actives: ["ANY"], times, inactives: [] }];
  expectSpans(r.intervals, expectedSpans(entries, val, day, day, position), MINUTE);
  // without a position the same schedule, partial
  const blind = evaluateItemD(v.input, val, day);
  expect(blind.status).toBe("partial");
  expect(blind.issues.map((i) => i.code)).toContain("schedule.sun.noPosition");
  expect(blind.schedule?.groups.map((g) => g.times)).toEqual([compactTimes(times)]);
}

const SPECIAL: Record<string, (v: Vector) => void> = {
  "svoop.d.invalid_missing_commas": checkMissingCommas,
  "svoop.readme.lsas_w0902_22": checkLsas,
  "svoop.resolve.lfpg_sr_ss": checkLfpg,
  "dnotam.daily.ordering": checkOrdering,
};

/** The check for a vector: by id, else by the shape of its expectation. */
function checkFor(v: Vector): (v: Vector) => void {
  const special = SPECIAL[v.id];
  if (special) return special;
  if (v.id.startsWith("svoop.dates_from.")) return checkDates;
  if (v.id.startsWith("xctools.")) return checkUtcIntervals;
  const entries = v.expected as Entry[];
  if (entries.some((e) => e.times.some((t) => /S[RS]/.test(t)))) return () => checkSunWithoutPosition(v, entries);
  return () => {
    checkEntries(v, entries);
  };
}

describe("Item D vectors (fixtures/schedule/itemD_test_vectors.json)", () => {
  it("holds 41 vectors with distinct ids", () => {
    expect(vectors).toHaveLength(41);
    expect(new Set(vectors.map((v) => v.id)).size).toBe(41);
  });

  for (const v of vectors) it(v.id, () => checkFor(v)(v));
});
