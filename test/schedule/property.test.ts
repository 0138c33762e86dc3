// Property-based tests of the Item D schedule parser (docs/design.md §3): a printed model round-trips to its own
// intervals, `exact` is honest, and no input (random strings, token soups) breaks the output invariants.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateItemD, type ScheduleResult } from "../../src/schedule/evaluate.js";
import { parseValidity, type Validity } from "../../src/schedule/validity.js";
import {
  bMs,
  caseMappingSoupArb,
  cMs,
  DAY_MS,
  dateSoupArb,
  expectedIntervals,
  firstDay,
  lastDay,
  printItemD,
  printValidity,
  type ScheduleModel,
  scheduleModelArb,
  stampOf,
  styleArb,
  tokenSoupArb,
} from "./arbitraries.js";

/** `PROPERTY_RUNS_SCALE=20 npx vitest run test/schedule/property.test.ts` for a longer hunt. */
const runs = (n: number) => Math.round(n * Number(process.env.PROPERTY_RUNS_SCALE ?? 1));
const STATUSES = ["exact", "partial", "fallback", "unsupported"];
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const isoSpans = (spans: readonly (readonly [number, number])[]) => spans.map(([s, e]) => `${iso(s)}/${iso(e)}`);
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

function validityOf(itemB: string, itemC: string): Validity {
  const v = parseValidity(itemB, itemC);
  if (!v.ok) throw new Error(`test generated an invalid validity ${itemB} ${itemC}: ${v.reason}`);
  return v.value;
}

/** A printed model with a day of its window (or, with `outside`, a day just outside it). */
const caseArb = (where: "inside" | "outside") =>
  scheduleModelArb.chain((model) => {
    const first = firstDay(model.validity);
    const last = lastDay(model.validity);
    const day =
      where === "inside"
        ? fc.integer({ min: first, max: last })
        : fc.oneof(fc.integer({ min: first - 3, max: first - 1 }), fc.integer({ min: last + 1, max: last + 3 }));
    return fc.record({ style: styleArb, day }).map(({ style, day }) => {
      const { itemB, itemC } = printValidity(model.validity, style);
      // printed first so that a failure shows the text, B, C and the day before the model
      return { text: printItemD(model, style), itemB, itemC, date: isoDay(day), day, model };
    });
  });

function roundTrip(c: { text: string; itemB: string; itemC: string; day: number; model: ScheduleModel }) {
  const v = validityOf(c.itemB, c.itemC);
  // the model's own reading of B and C agrees with parseValidity (C at 2359 ends that day)
  expect([iso(v.b), iso(v.c!)]).toEqual([iso(bMs(c.model.validity)), iso(cMs(c.model.validity))]);
  return { result: evaluateItemD(c.text, v, c.day), expected: expectedIntervals(c.model, c.day) };
}

describe("Item D round trip: a printed schedule model evaluates to the model's own intervals", () => {
  it("gives exactly the expected intervals, with status exact or partial", () => {
    fc.assert(
      fc.property(caseArb("inside"), (c) => {
        const { result, expected } = roundTrip(c);
        expect({ status: result.status, intervals: isoSpans(result.intervals), issues: result.issues }).toMatchObject({
          status: expect.stringMatching(/^(exact|partial)$/),
          intervals: isoSpans(expected),
        });
        expect(result.intervals).toEqual(expected);
      }),
      { numRuns: runs(3000) },
    );
  });

  it("never says exact with issues (status honesty)", () => {
    fc.assert(
      fc.property(caseArb("inside"), (c) => {
        const { result } = roundTrip(c);
        if (result.status === "exact") expect(result.issues).toEqual([]);
      }),
      { numRuns: runs(1000) },
    );
  });

  it("canonical spellings of a few fixed models (sanity of the printer and model)", () => {
    const feb = Date.UTC(2026, 1, 1) / DAY_MS;
    const model: ScheduleModel = {
      validity: { bDay: feb, bMinute: 0, cDay: feb + 27, cMinute: 1439, est: false },
      groups: [
        {
          kind: "times",
          selector: { kind: "weekdays", days: [1, 2, 3, 4, 5] },
          times: [{ start: 480, end: 960 }],
          except: [],
          exceptDates: [],
        },
        {
          kind: "times",
          selector: { kind: "dates", days: [feb + 6, feb + 7] },
          times: [{ start: 1320, end: 240 }],
          except: [],
          exceptDates: [],
        },
        { kind: "weekly", from: { day: 5, minute: 1200 }, to: { day: 6, minute: 1200 } },
        { kind: "span", from: { day: feb + 9, minute: 600 }, to: { day: feb + 12, minute: 1440 } },
      ],
    };
    expect(printItemD(model, [])).toBe("MON-FRI 0800-1600, 07 08 2200-0400, FRI 2000-SAT 2000, 10 1000-13 2359");
    expect(stampOf(feb, 0)).toBe("2602010000");
    // Sunday 08 Feb: only the overnight tail of Saturday 07 and Sunday's own 22:00
    expect(isoSpans(expectedIntervals(model, feb + 7))).toEqual([
      "2026-02-08T00:00/2026-02-08T04:00",
      "2026-02-08T22:00/2026-02-09T00:00",
    ]);
    // Friday 13 Feb: weekdays, the end of the span (2359 = end of day) and the start of the weekly interval
    expect(isoSpans(expectedIntervals(model, feb + 12))).toEqual(["2026-02-13T00:00/2026-02-14T00:00"]);
    expect(isoSpans(expectedIntervals(model, feb + 13))).toEqual(["2026-02-14T00:00/2026-02-14T20:00"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Robustness: any text, any validity

const DAY_2020 = Date.UTC(2020, 0, 1) / DAY_MS;
const DAY_2030 = Date.UTC(2030, 0, 1) / DAY_MS;

interface AnyValidity {
  itemB: string;
  itemC: string;
  v: Validity;
  first: number;
  /** Last day of [B, C); Infinity for PERM. */
  last: number;
}

const anyValidityArb = (perm: boolean): fc.Arbitrary<AnyValidity> =>
  fc
    .record({
      bDay: fc.integer({ min: DAY_2020, max: DAY_2030 }),
      bMinute: fc.integer({ min: 0, max: 1439 }),
      // C up to 400 days after B, down to one minute after it
      cAfter: fc.oneof(
        fc.integer({ min: 1, max: 3 * 1440 }),
        fc.integer({ min: 1, max: 400 * 1440 }),
        fc.integer({ min: 1, max: 400 }).map((d) => d * 1440),
      ),
      cKind: fc.constantFrom(...(perm ? (["stamp", "est", "perm"] as const) : (["stamp", "est"] as const))),
    })
    .map(({ bDay, bMinute, cAfter, cKind }) => {
      const itemB = stampOf(bDay, bMinute);
      const cAbs = bDay * 1440 + bMinute + cAfter;
      const cStamp = stampOf(Math.floor(cAbs / 1440), cAbs % 1440);
      const itemC = cKind === "perm" ? "PERM" : cKind === "est" ? `${cStamp}EST` : cStamp;
      const v = validityOf(itemB, itemC);
      return {
        itemB,
        itemC,
        v,
        first: Math.floor(v.b / DAY_MS),
        last: v.c === undefined ? Number.POSITIVE_INFINITY : Math.floor((v.c - 1) / DAY_MS),
      };
    });

const textArb = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme-ascii", maxLength: 60 }),
  tokenSoupArb,
  tokenSoupArb,
  dateSoupArb,
  // printed schedules with random edits
  fc
    .tuple(caseArb("inside"), fc.nat(), fc.nat({ max: 8 }), fc.constantFrom("", "-", " ", "05", "FEB", ",", "EXC"))
    .map(([c, at, cut, ins]) => {
      const i = at % (c.text.length + 1);
      return `${c.text.slice(0, i)}${ins}${c.text.slice(i + cut)}`;
    }),
);

const positionArb = fc.option(
  fc.record({
    lat: fc.double({ min: -89, max: 89, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
  }),
  { nil: undefined },
);

/** Output invariants of every result: sorted, disjoint, non-empty, inside the day and [B, C]. */
function checkInvariants(r: ScheduleResult, v: Validity, day: number): void {
  expect(STATUSES).toContain(r.status);
  const lo = Math.max(v.b, day * DAY_MS);
  const hi = Math.min(v.c ?? Number.POSITIVE_INFINITY, (day + 1) * DAY_MS);
  r.intervals.forEach(([s, e], i) => {
    expect(Number.isInteger(s) && Number.isInteger(e)).toBe(true);
    expect(s).toBeLessThan(e);
    expect(s).toBeGreaterThanOrEqual(lo);
    expect(e).toBeLessThanOrEqual(hi);
    const next = r.intervals[i + 1];
    if (next) expect(e).toBeLessThan(next[0]);
  });
  if (r.status === "fallback" || r.status === "unsupported") {
    expect(isoSpans(r.intervals)).toEqual(lo < hi ? isoSpans([[lo, hi]]) : []);
  }
  if (r.status === "exact") expect(r.issues).toEqual([]);
}

/** The result, or undefined when the parser throws (that is the first robustness property's to report). */
function tryEvaluate(...args: Parameters<typeof evaluateItemD>): ScheduleResult | undefined {
  try {
    return evaluateItemD(...args);
  } catch {
    return undefined;
  }
}

const dayNear = (w: AnyValidity, offset: number) =>
  w.first + (w.last === Number.POSITIVE_INFINITY ? offset : offset % (w.last - w.first + 4));

describe("Item D robustness: any text", () => {
  it("never throws", () => {
    fc.assert(
      fc.property(textArb, anyValidityArb(true), fc.integer({ min: -3, max: 500 }), positionArb, (text, w, k, pos) => {
        evaluateItemD(text, w.v, dayNear(w, k), pos);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("keeps the output invariants: a known status, sorted disjoint intervals inside the day and [B, C]", () => {
    fc.assert(
      fc.property(textArb, anyValidityArb(true), fc.integer({ min: -3, max: 500 }), positionArb, (text, w, k, pos) => {
        const day = dayNear(w, k);
        const r = tryEvaluate(text, w.v, day, pos);
        if (r) checkInvariants(r, w.v, day);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("gives no interval on a day outside [B, C] (random text)", () => {
    fc.assert(
      fc.property(
        textArb,
        anyValidityArb(false),
        fc.boolean(),
        fc.integer({ min: 1, max: 30 }),
        (text, w, before, k) => {
          const r = tryEvaluate(text, w.v, before ? w.first - k : w.last + k);
          if (r) expect(r.intervals).toEqual([]);
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  it("gives no interval on a day outside [B, C] (printed schedules)", () => {
    fc.assert(
      fc.property(caseArb("outside"), (c) => {
        expect(evaluateItemD(c.text, validityOf(c.itemB, c.itemC), c.day).intervals).toEqual([]);
      }),
      { numRuns: runs(500) },
    );
  });

  it("does not read non-ASCII letters as Item D words (ß is not SS, ſ is not S)", () => {
    // toUpperCase() maps ß to SS, ſ to S, ı to I and ligatures to ASCII letters: a text that no rule
    // describes then gets a meaning, with every later offset shifted
    const w = validityOf("2604010000", "2604302359");
    const day = Date.UTC(2026, 3, 10) / DAY_MS;
    const statuses = ["0800-ß", "ſR-1600", "frı 0800-1000"].map((text) => ({
      text,
      status: evaluateItemD(text, w, day, { lat: 50, lon: 8 }).status,
    }));
    expect(statuses).toEqual(statuses.map(({ text }) => ({ text, status: "fallback" })));
  });

  it("reports issues at character offsets inside the text", () => {
    fc.assert(
      fc.property(fc.oneof(textArb, caseMappingSoupArb), anyValidityArb(false), positionArb, (text, w, position) => {
        for (const issue of tryEvaluate(text, w.v, w.first, position)?.issues ?? []) {
          expect(issue.at).toBeGreaterThanOrEqual(0);
          expect(issue.at).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: runs(1500) },
    );
  });
});
