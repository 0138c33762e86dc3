// Item D tokens to groups (docs/design.md §3). A group is `[selector] times [EXC selector]`; groups are separated by
// commas, or by a new selector after times when the comma is missing (`MON 0930-1730 TUE-FRI 0900-1730`).
//   DEC 27-29 1600-0100, 30 1600-2330      dates, month carried across the comma
//   06-10 13-17 APR 0800-1700              day-first: the month after the days applies to them
//   FRI 1200-SUN 2000, FEB 08 0800-MAR 12 2000   continuous ranges
import type { Continuous, DateRef, DayItem, Group, ParseIssue, TimePoint, TimeRange } from "./ast.js";
import { type Token, tokenize } from "./tokens.js";

export interface Parsed {
  groups: Group[];
  issues: ParseIssue[];
}

const END_OF_DAY = 24 * 60;

export function parseItemD(text: string): Parsed {
  return new Parser(tokenize(text)).run();
}

class Parser {
  private i = 0;
  private lastMonth: number | undefined;
  private readonly groups: Group[] = [];
  private readonly issues: ParseIssue[] = [];
  private cur: Group;

  constructor(private readonly tokens: Token[]) {
    this.cur = newGroup(0, false);
  }

  run(): Parsed {
    while (this.i < this.tokens.length) this.step(this.tokens[this.i]!);
    const last = this.tokens[this.tokens.length - 1];
    // `MON 0800-1600,` or `… AND`: the text may have been cut off
    if (last && (last.kind === "comma" || last.kind === "dash" || (last.kind === "word" && last.value === "AND"))) {
      if (!this.issues.some((i) => i.code === "schedule.syntax.dangling")) this.issue("schedule.syntax.dangling", last);
    }
    // `FRI 10 0800-1000`: Friday the 10th, or every Friday and the 10th? read as the latter, widened. Not over
    // `groups.concat(cur)`: a concat given a plain object takes V8's slow path (40 % of the parser's time)
    for (const g of this.groups) this.weekdayAndDate(g);
    this.weekdayAndDate(this.cur);
    this.close();
    return { groups: this.groups, issues: this.issues };
  }

  private weekdayAndDate(g: Group): void {
    const hasWeekday = g.items.some((i) => i.kind === "weekday" || i.kind === "weekdayRange");
    const hasDate = g.items.some((i) => i.kind === "date" || i.kind === "dateRange");
    if (hasWeekday && hasDate)
      this.issues.push({ code: "schedule.ambiguous.weekdayAndDate", at: g.at, text: "", level: "assumption" });
  }

  private peek(k = 0): Token | undefined {
    return this.tokens[this.i + k];
  }

  private issue(code: string, t: Token, level: ParseIssue["level"] = "fatal"): void {
    this.issues.push({ code, at: t.at, text: t.text, level });
  }

  private hasTimes(): boolean {
    return this.cur.times.length > 0 || this.cur.continuous.length > 0;
  }

  private close(): void {
    const g = this.cur;
    if (g.items.length === 0 && !g.daily && !this.hasTimes() && g.except.length === 0) return;
    this.groups.push(g);
  }

  /** A selector after times starts a new group even without a comma. */
  private selectorStarts(t: Token): void {
    if (this.hasTimes()) {
      this.close();
      this.cur = newGroup(t.at, false);
    }
  }

  private step(t: Token): void {
    switch (t.kind) {
      case "comma": {
        this.i++;
        if (!this.hasTimes()) return; // a comma inside a list of days
        const hadSelector = this.cur.items.length > 0 || this.cur.daily;
        this.close();
        this.cur = newGroup(t.at, false);
        const next = this.peek();
        this.cur.bareAfterSelector = hadSelector && next !== undefined && isTimeStart(next);
        return;
      }
      case "word":
        this.word(t);
        return;
      case "day":
      case "month":
      case "weekday":
        this.selectorStarts(t);
        this.cur.items.push(...this.items(this.cur));
        return;
      case "time":
      case "sun":
        this.timeRange();
        return;
      case "unsupported":
        this.issue(`schedule.unsupported.${t.text.replace(/[^A-Z]/g, "")}`, t, "unsupported");
        this.i++;
        return;
      default:
        this.issue(t.kind === "unknown" ? "schedule.token.unknown" : "schedule.syntax.unexpected", t);
        this.i++;
    }
  }

  private word(t: Extract<Token, { kind: "word" }>): void {
    switch (t.value) {
      case "AND":
        this.i++;
        if (this.peek() === undefined) this.issue("schedule.syntax.dangling", t);
        return;
      case "TO":
        // `0730 TO 1500` is read by timeRange(); a TO anywhere else (`MON TO FRI`?) is not understood
        this.issue("schedule.syntax.unexpected", t);
        this.i++;
        return;
      case "EVERY":
        this.selectorStarts(t);
        this.i++;
        if (this.peek()?.kind !== "weekday") this.issue("schedule.syntax.dangling", t);
        return;
      case "DAILY":
        this.selectorStarts(t);
        this.cur.daily = true;
        this.i++;
        return;
      case "EXC": {
        this.i++;
        const items = this.items(undefined);
        if (items.length === 0) this.issue("schedule.exc.empty", t);
        this.cur.except.push(...items);
        return;
      }
      case "H24":
      case "HJ":
      case "HN": {
        this.i++;
        const sun = (event: "SR" | "SS"): TimePoint => ({ kind: "sun", event, offset: 0 });
        const [start, end]: [TimePoint, TimePoint] =
          t.value === "H24"
            ? [clock(0), clock(END_OF_DAY)]
            : t.value === "HJ"
              ? [sun("SR"), sun("SS")]
              : [sun("SS"), sun("SR")];
        this.cur.times.push({ start, end, at: t.at });
      }
    }
  }

  /** Day items until something that is not one: dates, date ranges, weekdays, weekday ranges. */
  private items(group: Group | undefined): DayItem[] {
    const out: DayItem[] = [];
    // dates of this run without a month, waiting for a day-first month (`06-10 13-17 APR`)
    let pending: DateRef[] = [];
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.kind === "weekday") {
        this.i++;
        const to = this.rangeWord() && this.peek(1)?.kind === "weekday" ? this.peek(1) : undefined;
        if (to?.kind === "weekday") {
          this.noteTo();
          this.i += 2;
          out.push({ kind: "weekdayRange", from: t.value, to: to.value });
        } else out.push({ kind: "weekday", day: t.value });
      } else if (t.kind === "month" && this.peek(1)?.kind !== "day") {
        // day-first: `01 JUN`, `06-10 13-17 APR`, `20 FEB-25 MAR`
        this.i++;
        this.lastMonth = t.value;
        if (pending.length === 0) this.issue("schedule.month.alone", t);
        for (const d of pending) d.month = t.value;
        pending = [];
        const last = out[out.length - 1];
        if (last?.kind === "date" && this.rangeWord() && isDateStart(this.peek(1))) {
          this.noteTo();
          this.i++;
          const to = this.dateRef();
          if (to.month === undefined) pending.push(to);
          out[out.length - 1] = { kind: "dateRange", from: last.date, to };
        }
      } else if (t.kind === "month" || t.kind === "day") {
        const from = this.dateRef();
        if (from.month === undefined) pending.push(from);
        if (this.rangeWord() && isDateStart(this.peek(1))) {
          this.noteTo();
          this.i++;
          const to = this.dateRef();
          if (to.month === undefined) pending.push(to);
          out.push({ kind: "dateRange", from, to });
        } else out.push({ kind: "date", date: from });
      } else if (t.kind === "comma" && group && !group.times.length && !group.continuous.length && out.length > 0) {
        // `APR 03, 07 0800-1600`: a list of days across a comma, in a selector only (never in EXC)
        if (!isItemStart(this.peek(1))) break;
        this.i++;
      } else if (t.kind === "word" && t.value === "AND") {
        this.i++;
      } else break;
    }
    return out;
  }

  /** A dash, or the word TO, joins the ends of a range of days. */
  private rangeWord(): boolean {
    const t = this.peek();
    return t?.kind === "dash" || (t?.kind === "word" && t.value === "TO");
  }

  /** `MON TO FRI`, `24 TO 27`: a range written in words is read, but not trusted as exact (writers vary). */
  private noteTo(): void {
    const t = this.peek();
    if (t?.kind === "word" && t.value === "TO") this.issue("schedule.words.toRange", t, "assumption");
  }

  /** `05`, `FEB 05`, `05 FEB` (the trailing month is taken by items() for the whole run). */
  private dateRef(): DateRef {
    const t = this.tokens[this.i]!;
    let month: number | undefined;
    if (t.kind === "month") {
      month = t.value;
      this.lastMonth = month;
      this.i++;
    }
    const d = this.tokens[this.i];
    if (d?.kind !== "day") {
      // `05-FEB` at the end, `05 FEB-MAR`: a month with no day
      this.issue("schedule.date.invalid", d ?? t);
      return { day: 0, at: t.at };
    }
    this.i++;
    const ref: DateRef = { day: d.value, at: t.at };
    if (month !== undefined) ref.month = month;
    if (this.lastMonth !== undefined) ref.carry = this.lastMonth;
    if (ref.day < 1 || ref.day > 31) this.issue("schedule.date.invalid", d);
    return ref;
  }

  /** `0800-1600`, `0800/1600`, `0730 TO 1500`, `SR MINUS30-SS PLUS30`, and the continuous `FRI 1200-SUN 2000`. */
  private timeRange(): void {
    const first = this.tokens[this.i]!;
    const start = this.point();
    if (!start) return;
    const sep = this.peek();
    const isSep = sep && (sep.kind === "dash" || sep.kind === "slash" || (sep.kind === "word" && sep.value === "TO"));
    if (!isSep) {
      this.issue("schedule.time.unpaired", first);
      return;
    }
    this.i++;
    if (isItemStart(this.peek()) && start.kind === "clock") {
      this.continuous(first, start.minutes);
      return;
    }
    let end = this.point();
    if (!end) return;
    // 2359 as an end means the end of the day
    if (end.kind === "clock" && end.minutes === END_OF_DAY - 1) end = clock(END_OF_DAY);
    this.cur.times.push({ start, end, at: first.at } satisfies TimeRange);
  }

  private point(): TimePoint | undefined {
    const t = this.tokens[this.i];
    if (t?.kind === "time") {
      this.i++;
      return clock(t.value);
    }
    if (t?.kind === "sun") {
      this.i++;
      const off = this.peek();
      if (off?.kind === "offset") {
        this.i++;
        return { kind: "sun", event: t.value, offset: off.value };
      }
      return { kind: "sun", event: t.value, offset: 0 };
    }
    if (t) {
      this.issue("schedule.time.expected", t);
      this.i++;
    }
    return undefined;
  }

  /** The start is the group's only day item; the end is a date or weekday and a time. */
  private continuous(first: Token, startMinutes: number): void {
    const startItem = this.cur.items.length === 1 ? this.cur.items[0] : undefined;
    const endItems = this.items(undefined);
    const endTime = this.peek();
    const endItem = endItems.length === 1 ? endItems[0] : undefined;
    if (!startItem || !endItem || endTime?.kind !== "time") {
      this.issue("schedule.continuous.malformed", first);
      return;
    }
    this.i++;
    const endMinutes = endTime.value === END_OF_DAY - 1 ? END_OF_DAY : endTime.value;
    let c: Continuous | undefined;
    if (startItem.kind === "date" && endItem.kind === "date") {
      c = {
        from: { date: startItem.date, minutes: startMinutes },
        to: { date: endItem.date, minutes: endMinutes },
        at: first.at,
      };
    } else if (startItem.kind === "weekday" && endItem.kind === "weekday") {
      c = {
        from: { weekday: startItem.day, minutes: startMinutes },
        to: { weekday: endItem.day, minutes: endMinutes },
        at: first.at,
      };
    }
    if (!c) {
      this.issue("schedule.continuous.malformed", first);
      return;
    }
    this.cur.items = [];
    this.cur.continuous.push(c);
  }
}

function newGroup(at: number, bareAfterSelector: boolean): Group {
  return { daily: false, items: [], times: [], continuous: [], except: [], bareAfterSelector, at };
}

const clock = (minutes: number): TimePoint => ({ kind: "clock", minutes });
const isTimeStart = (t: Token | undefined) =>
  t?.kind === "time" || t?.kind === "sun" || (t?.kind === "word" && ["H24", "HJ", "HN"].includes(t.value));
const isDateStart = (t: Token | undefined) => t?.kind === "day" || t?.kind === "month";
const isItemStart = (t: Token | undefined) => isDateStart(t) || t?.kind === "weekday";
