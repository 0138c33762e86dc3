// Generators and an independent model for the Item D property tests (test/schedule/property.test.ts).
// A schedule MODEL (validity window, groups of day selector + clock ranges + EXC weekdays) is printed to Item D
// text in many equivalent spellings, and its intervals for one day are computed here without the parser.
import fc from "fast-check";

export const DAY_MS = 86_400_000;
export const MIN_MS = 60_000;

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const MONTHS_LONG = [
  "JANUARY",
  "FEBRUARY",
  "MARCH",
  "APRIL",
  "MAY",
  "JUNE",
  "JULY",
  "AUGUST",
  "SEPT",
  "OCTOBER",
  "NOVEMBER",
  "DECEMBER",
];
/** getUTCDay order, 0 = Sunday. */
const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const WEEKDAYS_LONG = ["SUNDAY", "MONDAY", "TUES", "WEDNESDAY", "THUR", "FRIDAY", "SATURDAY"];

/** Minutes after 00:00. `end` 1440 is the end of the day; `end <= start` runs overnight into the next day. */
export interface ClockRange {
  start: number;
  end: number;
}

export type SelectorModel =
  | { kind: "none" }
  | { kind: "daily" }
  | { kind: "weekdays"; days: number[] }
  /** Day numbers (days since 1970-01-01), sorted, all inside the window. */
  | { kind: "dates"; days: number[] };

/** A day selector with clock ranges and EXC; or one unbroken interval (`FEB 08 0800-MAR 12 2000`, weekly `FRI 1200-SUN 2000`). */
export type GroupModel =
  | {
      kind: "times";
      selector: SelectorModel;
      times: ClockRange[];
      /** EXC weekdays (0 = Sunday), maybe empty. */
      except: number[];
      /** EXC dates (day numbers inside the window), maybe empty. */
      exceptDates: number[];
    }
  /** From (day, minute) to (day, minute), both days inside the window; end minute 1440 = end of that day. */
  | { kind: "span"; from: DayMinute; to: DayMinute }
  /** Every week from (weekday, minute) to the next (weekday, minute); starts on days of the window only. */
  | { kind: "weekly"; from: DayMinute; to: DayMinute };

export interface DayMinute {
  /** A day number for `span`, a weekday (0 = Sunday) for `weekly`. */
  day: number;
  minute: number;
}

export interface ValidityModel {
  /** Day of B and minute of B. */
  bDay: number;
  bMinute: number;
  /** Day of C and minute as written (1439 = `2359` = end of that day). */
  cDay: number;
  cMinute: number;
  est: boolean;
}

export interface ScheduleModel {
  validity: ValidityModel;
  groups: GroupModel[];
}

// ---------------------------------------------------------------------------------------------------------------
// The model's own semantics (independent of src/schedule)

export const bMs = (v: ValidityModel) => v.bDay * DAY_MS + v.bMinute * MIN_MS;
export const cMs = (v: ValidityModel) => v.cDay * DAY_MS + (v.cMinute === 1439 ? 1440 : v.cMinute) * MIN_MS;
/** First and last day that [B, C) touches. */
export const firstDay = (v: ValidityModel) => v.bDay;
export const lastDay = (v: ValidityModel) => Math.floor((cMs(v) - 1) / DAY_MS);

const dom = (day: number) => new Date(day * DAY_MS).getUTCDate();
const monthOf = (day: number) => new Date(day * DAY_MS).getUTCMonth();
const weekdayOf = (day: number) => new Date(day * DAY_MS).getUTCDay();

function selects(s: SelectorModel, day: number): boolean {
  switch (s.kind) {
    case "none":
    case "daily":
      return true;
    case "weekdays":
      return s.days.includes(weekdayOf(day));
    case "dates":
      return s.days.includes(day);
  }
}

/**
 * Expected activity on `day`: every selected day of the window yields its ranges; clipped, sorted, merged. The eve
 * of B's day counts too for what runs past midnight (an overnight range of a daily or weekday group, a weekly
 * span begun before B): its tail is active from B (docs/design.md §3 as amended by issue 15).
 */
export function expectedIntervals(m: ScheduleModel, day: number): Array<[number, number]> {
  const lo = Math.max(bMs(m.validity), day * DAY_MS);
  const hi = Math.min(cMs(m.validity), (day + 1) * DAY_MS);
  const raw: Array<[number, number]> = [];
  const add = (start: number, end: number) => {
    const s = Math.max(lo, start);
    const e = Math.min(hi, end);
    if (s < e) raw.push([s, e]);
  };
  const at = (day: number, minute: number) => day * DAY_MS + minute * MIN_MS;
  for (const g of m.groups) {
    if (g.kind === "span") add(at(g.from.day, g.from.minute), at(g.to.day, g.to.minute));
    const first = firstDay(m.validity);
    for (let d = first - 7; d <= lastDay(m.validity); d++) {
      if (g.kind === "weekly" && weekdayOf(d) === g.from.day) {
        let end = at(d + ((g.to.day - g.from.day + 7) % 7), g.to.minute);
        if (end <= at(d, g.from.minute)) end += 7 * DAY_MS;
        add(at(d, g.from.minute), end);
      }
      const eve = d === first - 1 && g.kind === "times" && g.selector.kind !== "dates";
      if (d < first && !eve) continue;
      if (g.kind !== "times" || !selects(g.selector, d)) continue;
      if (g.except.includes(weekdayOf(d)) || g.exceptDates.includes(d)) continue;
      for (const t of g.times) {
        if (eve && t.end > t.start) continue;
        add(at(d, t.start), at(t.end <= t.start ? d + 1 : d, t.end));
      }
    }
  }
  raw.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of raw) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Generators

const DAY_2026_01_01 = Date.UTC(2026, 0, 1) / DAY_MS;
const DAY_2026_12_01 = Date.UTC(2026, 11, 1) / DAY_MS;

export const minuteArb = fc.integer({ min: 0, max: 1439 });

export const validityModelArb: fc.Arbitrary<ValidityModel> = fc
  .record({
    bDay: fc.integer({ min: DAY_2026_01_01, max: DAY_2026_12_01 }),
    bMinute: fc.oneof(minuteArb, fc.constant(0)),
    days: fc.integer({ min: 1, max: 40 }),
    cMinute: fc.oneof(minuteArb, fc.constantFrom(1439, 0)),
    est: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true)),
  })
  .map(({ bDay, bMinute, days, cMinute, est }) => ({ bDay, bMinute, cDay: bDay + days, cMinute, est }));

/** 1–3 clock ranges in time order that do not overlap in the 24 h cycle; the last may run overnight. */
export const clockRangesArb: fc.Arbitrary<ClockRange[]> = fc
  .integer({ min: 1, max: 3 })
  .chain((n) =>
    fc.tuple(
      fc.uniqueArray(
        fc.oneof(
          minuteArb,
          fc.integer({ min: 0, max: 48 }).map((h) => Math.min(h * 30, 1439)),
        ),
        {
          minLength: 2 * n,
          maxLength: 2 * n,
        },
      ),
      fc.boolean(),
    ),
  )
  .map(([points, overnight]) => {
    const v = [...points].sort((a, b) => a - b);
    const out: ClockRange[] = [];
    // an end written 2359 means the end of the day: the model says 1440
    const end = (m: number) => (m === 1439 ? 1440 : m);
    if (!overnight) for (let i = 0; i < v.length; i += 2) out.push({ start: v[i]!, end: end(v[i + 1]!) });
    else {
      for (let i = 1; i + 1 < v.length; i += 2) out.push({ start: v[i]!, end: end(v[i + 1]!) });
      out.push({ start: v[v.length - 1]!, end: v[0]! });
    }
    return out;
  });

const weekdaySetArb = (max: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: max }).map((d) => [...d].sort());

function selectorArb(v: ValidityModel, first: boolean): fc.Arbitrary<SelectorModel> {
  const span = lastDay(v) - firstDay(v);
  const dates = fc
    .uniqueArray(fc.integer({ min: 0, max: span }), { minLength: 1, maxLength: Math.min(8, span + 1) })
    .map((ks) => ({ kind: "dates" as const, days: ks.map((k) => firstDay(v) + k).sort((a, b) => a - b) }));
  // runs of consecutive dates, so that ranges get printed
  const runs = fc.tuple(fc.integer({ min: 0, max: span }), fc.integer({ min: 0, max: span })).map(([a, b]) => {
    const [from, to] = a <= b ? [a, b] : [b, a];
    return {
      kind: "dates" as const,
      days: Array.from({ length: to - from + 1 }, (_, i) => firstDay(v) + from + i),
    };
  });
  const options: Array<fc.Arbitrary<SelectorModel>> = [
    fc.constant({ kind: "daily" as const }),
    weekdaySetArb(7).map((days) => ({ kind: "weekdays" as const, days })),
    dates,
    runs,
  ];
  if (first) options.push(fc.constant({ kind: "none" as const }));
  return fc.oneof(...options);
}

const windowDayArb = (v: ValidityModel) => fc.integer({ min: firstDay(v), max: lastDay(v) });
/** An end minute: 1439 is written `2359`, which means the end of the day. */
const endMinuteArb = minuteArb.map((m) => (m === 1439 ? 1440 : m));

const timesGroupArb = (v: ValidityModel, first: boolean): fc.Arbitrary<GroupModel> =>
  fc.record({
    kind: fc.constant("times" as const),
    selector: selectorArb(v, first),
    times: clockRangesArb,
    except: fc.oneof({ weight: 3, arbitrary: fc.constant<number[]>([]) }, weekdaySetArb(3)),
    exceptDates: fc.oneof(
      { weight: 4, arbitrary: fc.constant<number[]>([]) },
      fc.uniqueArray(windowDayArb(v), { minLength: 1, maxLength: 3 }).map((ds) => [...ds].sort((a, b) => a - b)),
    ),
  });

const spanGroupArb = (v: ValidityModel): fc.Arbitrary<GroupModel> =>
  fc
    .record({
      from: fc.record({ day: windowDayArb(v), minute: minuteArb }),
      to: fc.record({ day: windowDayArb(v), minute: endMinuteArb }),
    })
    .filter(({ from, to }) => from.day * 1440 + from.minute < to.day * 1440 + to.minute)
    .map(({ from, to }) => ({ kind: "span" as const, from, to }));

const weeklyGroupArb: fc.Arbitrary<GroupModel> = fc
  .tuple(fc.integer({ min: 0, max: 6 }), minuteArb, fc.integer({ min: 0, max: 6 }), endMinuteArb)
  .map(([d1, m1, d2, m2]) => ({ kind: "weekly" as const, from: { day: d1, minute: m1 }, to: { day: d2, minute: m2 } }));

const groupArb = (v: ValidityModel, first: boolean): fc.Arbitrary<GroupModel> =>
  fc.oneof(
    { weight: 8, arbitrary: timesGroupArb(v, first) },
    { weight: 1, arbitrary: spanGroupArb(v) },
    { weight: 1, arbitrary: weeklyGroupArb },
  );

export const scheduleModelArb: fc.Arbitrary<ScheduleModel> = validityModelArb.chain((validity) =>
  fc
    .integer({ min: 1, max: 3 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => groupArb(validity, i === 0))))
    .map((groups) => ({ validity, groups })),
);

/** Style choices for the printer; all zeros is the canonical spelling (and what shrinking heads for). */
export const styleArb = fc.array(fc.nat({ max: 999 }), { minLength: 48, maxLength: 48 });

// ---------------------------------------------------------------------------------------------------------------
// Printer

class Choices {
  private i = 0;
  constructor(private readonly xs: readonly number[]) {}
  /** 0..n-1; 0 once the choices run out. */
  pick(n: number): number {
    const x = this.xs[this.i++];
    return x === undefined ? 0 : x % n;
  }
  /** True with probability ~1/n (never when canonical). */
  sometimes(n = 4): boolean {
    return this.pick(n) === n - 1;
  }
}

const pad2 = (n: number) => String(n).padStart(2, "0");
const hhmm = (m: number) => `${pad2(Math.floor(m / 60))}${pad2(m % 60)}`;

export function stampOf(day: number, minute: number): string {
  const d = new Date(day * DAY_MS);
  return `${pad2(d.getUTCFullYear() % 100)}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${hhmm(minute)}`;
}

export function printValidity(v: ValidityModel, style: readonly number[]): { itemB: string; itemC: string } {
  const c = new Choices(style);
  const est = v.est ? (c.sometimes(2) ? " EST" : "EST") : "";
  return { itemB: stampOf(v.bDay, v.bMinute), itemC: `${stampOf(v.cDay, v.cMinute)}${est}` };
}

/** What the printer needs while it writes one text, in text order. */
interface Ctx {
  c: Choices;
  v: ValidityModel;
  /** A bare day number that occurs more than once in [B, C]. */
  ambiguous: (day: number) => boolean;
  /** The last month named so far in the text: the carry that places an ambiguous bare day number (docs/design.md §3). */
  carry: number | undefined;
  dash: () => string;
}

/** Item D text for the model. Assumes the model keeps to what the grammar reads one way (see property.test.ts). */
export function printItemD(m: ScheduleModel, style: readonly number[]): string {
  const c = new Choices(style);
  const counts = new Map<number, number>();
  for (let d = firstDay(m.validity); d <= lastDay(m.validity); d++) counts.set(dom(d), (counts.get(dom(d)) ?? 0) + 1);
  const ctx: Ctx = {
    c,
    v: m.validity,
    ambiguous: (d) => (counts.get(dom(d)) ?? 0) > 1,
    carry: undefined,
    dash: () => ["-", "-", "-", " - ", "–"][c.pick(5)]!,
  };
  const parts: string[] = [];
  m.groups.forEach((g, i) => {
    if (i > 0) {
      // a missing comma is read as a new group when a selector follows times (never after an EXC list)
      const prev = m.groups[i - 1]!;
      const prevExc = prev.kind === "times" && prev.except.length + prev.exceptDates.length > 0;
      parts.push([", ", ",\n", ",", " ,", "; ", " "][c.pick(prevExc ? 5 : 6)]!);
    }
    parts.push(groupText(g, ctx));
  });
  let out = parts.join("");
  if (c.sometimes(5)) out = out.toLowerCase();
  if (c.sometimes(8)) out = `  ${out}\n`;
  return out;
}

function groupText(g: GroupModel, ctx: Ctx): string {
  const { c, dash } = ctx;
  const end = (minute: number) => (minute === 1440 ? "2359" : hhmm(minute));
  const sep = () => [dash(), dash(), " TO "][c.pick(3)]!;
  if (g.kind === "weekly") {
    const long = c.sometimes(5);
    const name = (d: number) => (long ? WEEKDAYS_LONG : WEEKDAYS)[d]!;
    return `${name(g.from.day)} ${hhmm(g.from.minute)}${sep()}${name(g.to.day)} ${end(g.to.minute)}`;
  }
  if (g.kind === "span") {
    const [from, to] = spanDatesText(g.from.day, g.to.day, ctx);
    return `${from} ${hhmm(g.from.minute)}${sep()}${to} ${end(g.to.minute)}`;
  }
  let text = selectorText(g.selector, ctx);
  const times = timesText(g.times, ctx);
  text = text === "" ? times : `${text}${c.sometimes(6) ? "\n" : " "}${times}`;
  if (g.except.length + g.exceptDates.length > 0) {
    const what: string[] = [];
    if (g.except.length > 0) what.push(weekdaysText(g.except, ctx));
    if (g.exceptDates.length > 0) what.push(datesText(g.exceptDates, ctx, false));
    text += ` ${c.sometimes() ? "EXCEPT" : "EXC"} ${what.join(c.sometimes(3) ? " AND " : " ")}`;
  }
  return text;
}

const dd = (d: number, c: Choices) => (c.sometimes(6) && dom(d) < 10 ? String(dom(d)) : pad2(dom(d)));

/** A bare start date is one date when its number occurs once in [B, C], or when the carry names its month. */
function bareStartOk(d: number, ctx: Ctx): boolean {
  return !ctx.ambiguous(d) || (ctx.carry === monthOf(d) && ctx.c.sometimes(2));
}

/** The end of a bare range is the first date with that number on or after the start. */
function bareEndOk(from: number, to: number): boolean {
  let d = from;
  while (dom(d) !== dom(to)) d++;
  return d === to;
}

/** The dates of `FEB 08 0800-MAR 12 2000`: month-first or day-first, bare where that is still one date. */
function spanDatesText(from: number, to: number, ctx: Ctx): [string, string] {
  const { c } = ctx;
  const dayFirst = c.sometimes(3);
  const ref = (d: number, bare: boolean) => {
    if (bare) return dd(d, c);
    ctx.carry = monthOf(d);
    return dayFirst ? `${dd(d, c)} ${MONTHS[monthOf(d)]}` : `${MONTHS[monthOf(d)]} ${dd(d, c)}`;
  };
  const fromText = ref(from, bareStartOk(from, ctx) && !c.sometimes(3));
  return [fromText, ref(to, bareEndOk(from, to) && !c.sometimes(3))];
}

function timesText(times: ClockRange[], { c, dash }: Ctx): string {
  const only = times.length === 1 ? times[0]! : undefined;
  if (only && only.start === 0 && only.end === 1440 && c.sometimes(2)) return "H24";
  const range = (t: ClockRange) => {
    const sep = [dash(), dash(), "/", " TO "][c.pick(4)]!;
    const end = t.end === 1440 ? (c.sometimes(3) ? "2400" : "2359") : hhmm(t.end);
    return `${hhmm(t.start)}${sep}${end}`;
  };
  return times.map(range).join(c.sometimes(5) ? " AND " : " ");
}

function weekdaysText(days: number[], { c, dash }: Ctx): string {
  const long = c.sometimes(5);
  const name = (d: number) => (long ? WEEKDAYS_LONG : WEEKDAYS)[d]!;
  // Monday-first order and runs of consecutive days
  const order = [1, 2, 3, 4, 5, 6, 0].filter((d) => days.includes(d));
  const runs: number[][] = [];
  for (const d of order) {
    const run = runs[runs.length - 1];
    if (run && (run[run.length - 1]! + 1) % 7 === d) run.push(d);
    else runs.push([d]);
  }
  // SAT-MON: a run that wraps through Sunday into Monday
  if (runs.length > 1 && runs[0]![0] === 1 && runs[runs.length - 1]!.at(-1) === 0 && c.sometimes(2)) {
    const wrap = [...runs.pop()!, ...runs.shift()!];
    runs.push(wrap);
  }
  const items = runs.flatMap((run) => {
    const asRange = run.length >= 3 ? !c.sometimes(5) : run.length === 2 && c.sometimes(3);
    return asRange ? [`${name(run[0]!)}${dash()}${name(run[run.length - 1]!)}`] : run.map(name);
  });
  return items.join(c.sometimes(5) ? " AND " : " ");
}

function selectorText(s: SelectorModel, ctx: Ctx): string {
  switch (s.kind) {
    case "none":
      return "";
    case "daily":
      return ctx.c.sometimes(3) ? "DLY" : "DAILY";
    case "weekdays":
      return `${ctx.c.sometimes(4) ? "EVERY " : ""}${weekdaysText(s.days, ctx)}`;
    case "dates":
      // `26-27 DAILY 0800-1900`: DAILY after days still selects just those days (issue 22)
      return `${datesText(s.days, ctx, true)}${ctx.c.sometimes(8) ? " DAILY" : ""}`;
  }
}

/** Dates of a selector or of an EXC (`inSelector` false: no comma lists, which EXC does not read). */
function datesText(days: number[], ctx: Ctx, inSelector: boolean): string {
  const { c, dash } = ctx;
  const long = c.sometimes(6);
  const month = (d: number) => (long ? MONTHS_LONG : MONTHS)[monthOf(d)]!;
  const items: Array<[number, number]> = [];
  for (const d of days) {
    const last = items[items.length - 1];
    if (last && last[1] + 1 === d) last[1] = d;
    else items.push([d, d]);
  }
  // runs as ranges, or split into single dates
  const split = items.flatMap(([a, b]): Array<[number, number]> => {
    const asRange = b - a >= 2 ? !c.sometimes(5) : b > a && c.sometimes(2);
    return asRange ? [[a, b]] : Array.from({ length: b - a + 1 }, (_, i) => [a + i, a + i]);
  });
  const join = () => [" ", " ", " ", " AND ", ", "][c.pick(inSelector ? 5 : 4)]!;

  // day-first: `30 MAR-02 APR`, or `05 06 10-12 APR` when every date is in that month (the month applies to all)
  const only = split.length === 1 ? split[0]! : undefined;
  if (only && monthOf(only[0]) !== monthOf(only[1]) && c.sometimes(2)) {
    ctx.carry = monthOf(only[1]);
    return `${dd(only[0], c)} ${month(only[0])}${dash()}${dd(only[1], c)} ${month(only[1])}`;
  }
  const m0 = monthOf(split[0]![0]);
  if (split.every(([a, b]) => monthOf(a) === m0 && monthOf(b) === m0) && c.sometimes(3)) {
    const body = split.map(([a, b], i) => `${i > 0 ? join() : ""}${dd(a, c)}${a === b ? "" : `${dash()}${dd(b, c)}`}`);
    ctx.carry = m0;
    return `${body.join("")} ${month(split[0]![0])}`;
  }
  // month-first: `FEB 05 06`, `05-09`, `MAR 30-APR 02`; the month when needed, and sometimes anyway
  const ref = (d: number, bare: boolean) => {
    const withMonth = !bare || (ctx.carry !== monthOf(d) && c.sometimes(3)) || c.sometimes(8);
    if (!withMonth) return dd(d, c);
    ctx.carry = monthOf(d);
    return `${month(d)} ${dd(d, c)}`;
  };
  return split
    .map(([a, b], i) => {
      const sep = i > 0 ? join() : "";
      const from = ref(a, bareStartOk(a, ctx));
      if (a === b) return `${sep}${from}`;
      const to = ref(b, bareEndOk(a, b) && !(monthOf(a) !== monthOf(b) && c.sometimes(2)));
      return `${sep}${from}${dash()}${to}`;
    })
    .join("");
}

// ---------------------------------------------------------------------------------------------------------------
// Random text

/** Item D vocabulary by kind, a little garbage, and words that point outside the text. */
export const VOCABULARY = {
  day: ["05", "5", "29", "30", "31", "00", "1", "12"],
  month: ["FEB", "MAR", "DEC", "JAN", "SEPT", "APRIL"],
  weekday: ["MON", "TUE", "FRI", "SUN", "MONDAY", "THUR"],
  time: ["0800", "1600", "2200", "0400", "2359", "2400", "0000", "2460", "123", "12345"],
  punctuation: ["-", "-", "–", ",", ";", "/", ".", "(", ":"],
  word: ["EXC", "EXCEPT", "SR", "SS", "PLUS30", "MINUS", "MINUS15", "PLUS", "H24", "H", "HJ", "HN", "DAILY", "DLY"],
  other: ["EVERY", "TO", "AND", "HOL", "SEE AIP SUP", "XYZ", "\n", "ß", "ſ", "ı", "ﬆ", "é"],
} as const;

const soupArb = (words: fc.Arbitrary<string>) =>
  fc
    .array(fc.tuple(words, fc.constantFrom(" ", " ", " ", "", "", ",", "\n", "-")), { maxLength: 12 })
    .map((xs) => xs.map(([w, sep]) => `${w}${sep}`).join(""));

export const tokenSoupArb: fc.Arbitrary<string> = soupArb(
  fc.oneof(...Object.values(VOCABULARY).map((words) => fc.constantFrom(...words))),
);

/** Dates, months and dashes only: the date grammar's corners (`05-FEB`, `30 MAR-02 APR`, `05 FEB 06`). */
export const dateSoupArb: fc.Arbitrary<string> = soupArb(
  fc.oneof(fc.constantFrom(...VOCABULARY.day), fc.constantFrom(...VOCABULARY.month), fc.constantFrom("-", "0800")),
);

/** Letters whose upper case is ASCII (ß → SS, ſ → S, ı → I, ligatures), among Item D words. */
export const caseMappingSoupArb: fc.Arbitrary<string> = soupArb(
  fc.oneof(
    fc.constantFrom("ß", "ſ", "ı", "ﬀ", "ﬆ", "ŉ"),
    fc.constantFrom("SR", "R", "0800", "1600", "FR", "MON", "XYZ", "-"),
  ),
);
