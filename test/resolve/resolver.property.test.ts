// Property tests (fast-check) of the airspace resolver: `airspaceDay` + `airspaceFeature` on generated
// airspaces, source states, reference instants, linked NOTAMs (A/D; hand-made or real Item D schedules)
// and AUP allocations, against docs/design.md §3–§4 and docs/contract.md §2.6–2.8. The oracle below is written from the
// documents, not from the resolver.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import type { Notam } from "../../src/model/notam.js";
import { type Span, unionSpans } from "../../src/model/time.js";
import { ACTIVATION_TYPES } from "../../src/model/vocab.js";
import type { NormalizedAirspace } from "../../src/normalize/airspace.js";
import { validateFeature } from "../../src/publish/validate.js";
import type { ActivityContext } from "../../src/resolve/activity.js";
import { type AirspaceDay, airspaceDay } from "../../src/resolve/airspace-activity.js";
import type { DayAllocation } from "../../src/resolve/aup.js";
import type { SourceEvidence } from "../../src/resolve/evidence.js";
import { airspaceFeature } from "../../src/resolve/feature.js";
import type { DayNotam } from "../../src/resolve/notams.js";
import { evaluateItemD, PARSER_VERSION } from "../../src/schedule/evaluate.js";
import { parseValidity } from "../../src/schedule/validity.js";
import { airspace, DAY } from "../publish/fixtures.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY_MS = 24 * HOUR;
const WHOLE: Span = [DAY.start, DAY.end];
/** Runs per property; raise with PROP_RUNS for a deeper search. */
const RUNS = Number(process.env.PROP_RUNS ?? 1000);

/** The ones an existing airspace may carry (docs/design.md §4 table); all ten are ACTIVATION_TYPES (docs/contract.md §2.7). */
const AIRSPACE_ACTIVATION_TYPES = new Set([
  "isActive",
  "isNotActiveAirspace",
  "isActivatedByNOTAMAirspace",
  "isActivatedByAUPAirspace",
  "isActivatedByAUPAndNOTAMAirspace",
  "isOtherActiveAirspace",
]);
/** openAIP TRA (8) and TSA (9): the AUP plans them (docs/design.md §4 "AMC-manageable"). */
const AMC_TYPES = new Set([8, 9]);

// ---------------------------------------------------------------------------------------------- generators

const flag = fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
/** How the sources of one kind stand towards the generated airspace (FIR EDGG, test/publish/fixtures.ts). */
type SourceCase = "fresh" | "stale" | "empty" | "offRegion" | "missing";
const sourceState = fc.constantFrom<SourceCase>("fresh", "stale", "empty", "offRegion", "missing");
/** The evidence list a case stands for: one source, covering EDGG or (offRegion) only LFFF. */
function evidenceOf(kind: "notam" | "aup", c: SourceCase): SourceEvidence[] {
  if (c === "missing") return [];
  const standing = c === "offRegion" ? "fresh" : c;
  const coverage = c === "offRegion" ? ["LFFF"] : ["EDGG"];
  return [{ name: `${kind}-src`, kind, standing, asOfFrom: "content", coverage, coverageFrom: "content" }];
}
/** Minutes after 00:00 on D, biased to the boundaries that matter (00:00, 06:00, 24:00) and round hours. */
const dayMinute = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, 360, 480, 720, 960, 1080, 1440) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 1440 }) },
);
/** Sorted, disjoint, non-touching spans inside D (as the resolver's inputs are: sorted and merged). */
const daySpans = (maxPairs: number) =>
  fc.uniqueArray(dayMinute, { maxLength: 2 * maxPairs }).map((ms): Span[] => {
    const sorted = [...ms].sort((a, b) => a - b);
    const out: Span[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) out.push([at(sorted[i]!), at(sorted[i + 1]!)]);
    return out;
  });
/** One non-empty span inside D. */
const oneSpan = fc
  .uniqueArray(dayMinute, { minLength: 2, maxLength: 2 })
  .map(([a, b]): Span => [at(Math.min(a!, b!)), at(Math.max(a!, b!))]);

/** Hours relative to D 00:00, from two days before to two days after, biased to the day's edges. */
const windowHour = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(-24, 0, 6, 24, 48) },
  { weight: 1, arbitrary: fc.integer({ min: -48, max: 72 }) },
);
const activeWindow = fc.uniqueArray(windowHour, { minLength: 2, maxLength: 2 }).map(([a, b]) => ({
  start: iso(DAY.start + Math.min(a!, b!) * HOUR),
  end: iso(DAY.start + Math.max(a!, b!) * HOUR),
}));

const airspaceArb = fc.record({
  type: fc.integer({ min: 0, max: 36 }),
  icaoClass: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 8),
  byNotam: flag,
  onDemand: flag,
  onRequest: flag,
  amcManaged: flag,
  activeTimes: fc.oneof(
    { weight: 2, arbitrary: fc.constant<Array<{ start: string; end: string }>>([]) },
    { weight: 1, arbitrary: fc.array(activeWindow, { minLength: 1, maxLength: 2 }) },
  ),
});
type AirspaceGen = typeof airspaceArb extends fc.Arbitrary<infer T> ? T : never;

type NotamGen =
  | { kind: "A" | "D"; how: "hand"; status: "exact" | "partial" | "fallback" | "none"; spans: Span[] }
  | { kind: "A" | "D"; how: "itemD"; itemD: string };

const hhmm = (m: number) =>
  m >= 1440 ? "2359" : `${String(Math.floor(m / 60)).padStart(2, "0")}${String(m % 60).padStart(2, "0")}`;
/** Simple Item D texts for D = Monday 2026-09-14, run through the real evaluator. */
const itemDText = fc.oneof(
  fc
    .uniqueArray(dayMinute, { minLength: 2, maxLength: 2 })
    .map(([a, b]) => `${hhmm(Math.min(a!, b!))}-${hhmm(Math.max(a!, b!))}`),
  fc
    .uniqueArray(dayMinute, { minLength: 4, maxLength: 4 })
    .map((ms) => [...ms].sort((x, y) => x - y))
    .map(([a, b, c, d]) => `${hhmm(a!)}-${hhmm(b!)} ${hhmm(c!)}-${hhmm(d!)}`),
  fc.constantFrom(
    "H24",
    "DAILY 2200-0600",
    "MON 0535-1800, 1900-2100",
    "SEE AIP SUP",
    "SEP 20 0800-1600",
    "MON-FRI 0600-2359",
  ),
);
const notamArb: fc.Arbitrary<NotamGen> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom<"A" | "D">("A", "D"),
      how: fc.constant("hand" as const),
      status: fc.constantFrom<"exact" | "partial" | "fallback" | "none">("exact", "partial", "fallback", "none"),
      spans: daySpans(2),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom<"A" | "D">("A", "D"),
      how: fc.constant("itemD" as const),
      itemD: itemDText,
    }),
  },
);

const allocationArb = fc.record({
  status: fc.oneof({ weight: 3, arbitrary: fc.constant("ACTIVE") }, { weight: 1, arbitrary: fc.constant("INACTIVE") }),
  span: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom<Span>([DAY.start, at(360)], [at(360), DAY.end], WHOLE) },
    { weight: 2, arbitrary: oneSpan },
  ),
  levels: fc.boolean(),
});
type AllocationGen = typeof allocationArb extends fc.Arbitrary<infer T> ? T : never;

const nowArb = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(DAY.start - 1, DAY.start, at(360), at(720), DAY.end - 1, DAY.end) },
  { weight: 3, arbitrary: fc.integer({ min: DAY.start - DAY_MS, max: DAY.end + DAY_MS }) },
);

const scenarioArb = fc.record({
  a: airspaceArb,
  sources: fc.record({ notam: sourceState, aup: sourceState }),
  now: nowArb,
  notams: fc.oneof(
    { weight: 1, arbitrary: fc.constant<NotamGen[]>([]) },
    { weight: 2, arbitrary: fc.array(notamArb, { minLength: 1, maxLength: 3 }) },
  ),
  allocations: fc.oneof(
    { weight: 3, arbitrary: fc.constant<AllocationGen[]>([]) },
    { weight: 2, arbitrary: fc.array(allocationArb, { minLength: 1, maxLength: 3 }) },
  ),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------- builders

function at(minute: number): number {
  return DAY.start + minute * MIN;
}
function iso(ms: number): string {
  return new Date(ms).toISOString();
}
/** As the payload writes instants: `2026-09-14T08:00:00Z`. */
const isoSeconds = (ms: number) => `${iso(ms).slice(0, 19)}Z`;

function buildAirspace(g: AirspaceGen): NormalizedAirspace {
  return airspace("asp-1", "DE", 8, {
    name: "ED-R 116",
    type: g.type,
    icaoClass: g.icaoClass,
    byNotam: g.byNotam,
    onDemand: g.onDemand,
    onRequest: g.onRequest,
    activeTimes: g.activeTimes,
  });
}

const VALIDITY = (() => {
  const v = parseValidity("2609140000", "2609150000");
  if (!v.ok) throw new Error(v.reason);
  return v.value;
})();

function buildNotam(g: NotamGen, i: number): DayNotam {
  const id = `A${String(100 + i).padStart(4, "0")}/26`;
  let itemD: string | undefined;
  let schedule: DayNotam["schedule"];
  let spans: Span[];
  if (g.how === "itemD") {
    itemD = g.itemD;
    schedule = evaluateItemD(g.itemD, VALIDITY, DAY.start / DAY_MS);
    spans = schedule.intervals;
  } else if (g.status === "none") {
    // no Item D: [B, C] stands, one span (or none when it does not meet the day)
    spans = g.spans.slice(0, 1);
  } else {
    itemD = "0800-1600";
    schedule = { status: g.status, parserVersion: PARSER_VERSION, intervals: g.spans, issues: [], schedule: null };
    spans = g.spans;
  }
  const notam: Notam = {
    id,
    series: "A",
    number: 100 + i,
    year: 26,
    type: "N",
    itemA: ["EDGG"],
    itemB: "2609140000",
    itemC: "2609150000",
    ...(itemD ? { itemD } : {}),
    itemE: g.kind === "D" ? "ED-R 116 DEACTIVATED" : "ED-R 116 ACTIVE",
    origin: { source: "test", record: i },
  };
  return {
    notam,
    kind: g.kind,
    obstacle: false,
    validity: VALIDITY,
    ...(schedule ? { schedule } : {}),
    spans,
    upper: { value: 100, unit: 6, referenceDatum: 2 },
    lower: { value: 0, unit: 1, referenceDatum: 0 },
    linked: [],
    effect: g.kind === "D" ? "deactivate" : "activate",
    unsure: [],
  };
}

function buildAllocation(g: AllocationGen, i: number): DayAllocation {
  const [s, e] = g.span;
  return {
    designator: "EDR116",
    status: g.status,
    start: s,
    end: e,
    lowerText: g.levels ? "FL095" : "000",
    upperText: g.levels ? "FL245" : "UNL",
    ...(g.levels
      ? {
          lower: { value: 95, unit: 6 as const, referenceDatum: 2 as const },
          upper: { value: 245, unit: 6 as const, referenceDatum: 2 as const },
        }
      : {}),
    origin: { source: "test", record: i },
    spans: [[s, e]],
    plan: { aupDay: s < at(360) ? "2026-09-13" : DAY.date, kind: "UUP", source: "test" },
  };
}

interface Built {
  s: Scenario;
  a: NormalizedAirspace;
  ctx: ActivityContext;
  notams: DayNotam[];
  allocations: DayAllocation[];
  day: AirspaceDay;
  feature: Feature;
}

function build(s: Scenario): Built {
  const a = buildAirspace(s.a);
  const sources = { notam: evidenceOf("notam", s.sources.notam), aup: evidenceOf("aup", s.sources.aup) };
  const ctx: ActivityContext = { day: DAY, now: s.now, sources };
  const notams = s.notams.map(buildNotam);
  const allocations = s.allocations.map(buildAllocation);
  const day = airspaceDay(a, ctx, { notams, allocations, amcManaged: s.a.amcManaged });
  return { s, a, ctx, notams, allocations, day, feature: airspaceFeature(a, day) };
}

// ---------------------------------------------------------------------------------------------- oracle

/** `a` without what `b` covers (any spans in, sorted merged spans out). */
function minus(a: readonly Span[], b: readonly Span[]): Span[] {
  let out = unionSpans(a);
  for (const [bs, be] of unionSpans(b)) {
    out = out.flatMap(([s, e]): Span[] => {
      if (be <= s || bs >= e) return [[s, e]];
      const parts: Span[] = [];
      if (s < bs) parts.push([s, bs]);
      if (be < e) parts.push([be, e]);
      return parts;
    });
  }
  return out;
}
const covers = (outer: readonly Span[], inner: readonly Span[]) => minus(inner, outer).length === 0;
const spanKey = ([s, e]: Span) => `${iso(s)}→${iso(e)}`;

const trusted = (dn: DayNotam) => dn.schedule === undefined || dn.schedule.status === "exact";

/** What docs/design.md §4 says about a scenario, computed from the inputs alone. */
function expectations(b: Built) {
  const { s, notams, allocations } = b;
  const needs: Array<"notam" | "aup"> = [];
  if (s.a.byNotam || s.a.onDemand || s.a.onRequest) needs.push("notam");
  if (AMC_TYPES.has(s.a.type) || s.a.amcManaged) needs.push("aup");
  const conditional = needs.length > 0;
  const notFresh = needs.some((x) => s.sources[x] !== "fresh");
  const windows = s.a.activeTimes.map((w): Span => [Date.parse(w.start), Date.parse(w.end)]);
  const windowsInDay = unionSpans(
    windows.map(([ws, we]): Span => [Math.max(ws, DAY.start), Math.min(we, DAY.end)]).filter(([x, y]) => x < y),
  );
  const existsOnDay = windows.length === 0 || windowsInDay.length > 0;
  const subtract = unionSpans(notams.filter((n) => n.kind === "D" && trusted(n)).flatMap((n) => n.spans));
  // per source, after exact deactivation (docs/design.md §4: "the union per source, clipped to D")
  const byNotam = minus(
    notams.filter((n) => n.kind !== "D").flatMap((n) => n.spans),
    subtract,
  );
  const byAup = minus(
    allocations.filter((x) => x.status === "ACTIVE").flatMap((x) => x.spans),
    subtract,
  );
  const base = conditional || !existsOnDay ? [] : minus(windows.length > 0 ? windowsInDay : [WHOLE], subtract);
  return { needs, conditional, notFresh, existsOnDay, subtract, byNotam, byAup, base };
}

const mappingOf = (f: Feature) => f.properties.vendor.dynamicAirspaceMapping;
const spansOf = (list: ReadonlyArray<{ start: string; end: string }>): Span[] =>
  list.map((x): Span => [Date.parse(x.start), Date.parse(x.end)]);

const check = (prop: (b: Built) => void) =>
  fc.assert(
    fc.property(scenarioArb, (s) => prop(build(s))),
    { numRuns: RUNS },
  );

// ---------------------------------------------------------------------------------------------- properties

describe("airspace resolver properties (docs/design.md §3–§4, docs/contract.md §2.6–2.8)", () => {
  it("1. activation times are sorted by start, non-empty, inside the UTC day", () => {
    check(({ day, feature }) => {
      const times = spansOf(mappingOf(feature).airspaceActivationTimes);
      expect(times).toEqual(day.intervals.map(([x, y]) => [x, y]));
      for (const [i, [s, e]] of times.entries()) {
        expect(s, `interval ${i} empty`).toBeLessThan(e);
        expect(s).toBeGreaterThanOrEqual(DAY.start);
        expect(e).toBeLessThanOrEqual(DAY.end);
        if (i > 0) expect(times[i - 1]![0], "sorted by start").toBeLessThanOrEqual(s);
      }
    });
  });

  it("2. a source active all day gives the one interval 00:00Z → next 00:00Z (no split at midnight or 06:00)", () => {
    check((b) => {
      const x = expectations(b);
      const keys = mappingOf(b.feature).airspaceActivationTimes.map((t) => `${t.start}→${t.end}`);
      const whole = `${isoSeconds(DAY.start)}→${isoSeconds(DAY.end)}`;
      for (const [source, spans] of [
        ["base", x.base],
        ["NOTAM", x.byNotam],
        ["AUP", x.byAup],
      ] as const) {
        if (spans.length === 1 && spans[0]![0] === DAY.start && spans[0]![1] === DAY.end) {
          expect(keys, `${source} covers the whole day`).toContain(whole);
        }
      }
      // docs/design.md §4: the intervals are the union per source, so when every active source is whole-day, no
      // piece of one (an AUP split at 06:00, two NOTAMs meeting at noon, overlapping allocations) is listed
      const sources = [x.base, x.byNotam, x.byAup].filter((sp) => sp.length > 0);
      if (sources.length > 0 && sources.every((sp) => sp.length === 1 && spanKey(sp[0]!) === spanKey(WHOLE))) {
        expect(new Set(keys)).toEqual(new Set([whole]));
      }
    });
  });

  it("3. schedule rows lie within the intervals and cover every interval", () => {
    check(({ day, feature }) => {
      const m = mappingOf(feature);
      const intervals = spansOf(m.airspaceActivationTimes);
      const rows = spansOf(m.dynamicScheduleAndVerticalLimits);
      for (const [s, e] of rows) expect(s).toBeLessThan(e);
      expect(covers(intervals, rows), "rows inside the union of intervals").toBe(true);
      expect(covers(rows, intervals), "intervals covered by rows").toBe(true);
      expect(rows.length).toBe(day.rows.length);
    });
  });

  it("4. isActive agrees with the intervals and now; Unknown only for silent non-fresh sources; never No without fresh evidence", () => {
    check((b) => {
      const x = expectations(b);
      const m = mappingOf(b.feature);
      const intervals = spansOf(m.airspaceActivationTimes);
      const activated = x.byNotam.length > 0 || x.byAup.length > 0;
      const silentUnfresh = x.conditional && x.notFresh && !activated && x.existsOnDay;
      // issue 58: a linked activation over for the day leaves it Unknown unless every source that could activate it
      // again (its own row's, and those that activated it) is fresh
      const again = new Set([
        ...(x.existsOnDay ? x.needs : []),
        ...(x.byNotam.length > 0 ? ["notam"] : []),
        ...(x.byAup.length > 0 ? ["aup"] : []),
      ]);
      const over = activated && !intervals.some(([, e]) => e > b.s.now);
      const endedUnsure =
        over &&
        ([...again].some((k) => b.s.sources[k as "notam" | "aup"] !== "fresh") ||
          (x.conditional && x.notFresh && x.existsOnDay));
      if (m.isActive === "Unknown" && activated) {
        expect(endedUnsure, "Unknown after a linked activation only when it is over and a source is not fresh").toBe(
          true,
        );
      } else if (m.isActive === "Unknown") {
        expect(silentUnfresh, "Unknown only when a needed source is missing/stale and nothing activates").toBe(true);
        expect(intervals).toEqual([]);
      } else {
        expect(m.isActive === "Yes").toBe(intervals.some(([, e]) => e > b.s.now));
      }
      if (silentUnfresh || endedUnsure) expect(m.isActive).toBe("Unknown");
      // docs/design.md §4: silence from a stale source is Unknown, never inactive. A linked activation (table rows above)
      // decides by its intervals; an airspace whose validity windows miss D does not exist on D.
      if (m.isActive === "No" && x.conditional && x.notFresh) {
        expect(!x.existsOnDay && !endedUnsure, "No for a conditional airspace without fresh evidence").toBe(true);
      }
    });
  });

  it("5. exactly one activationType, from the ten of docs/contract.md §2.7, as the decision table says; the feature validates", () => {
    check((b) => {
      const x = expectations(b);
      const m = mappingOf(b.feature);
      expect(typeof m.activationType).toBe("string");
      expect(ACTIVATION_TYPES).toContain(m.activationType);
      expect(AIRSPACE_ACTIVATION_TYPES.has(m.activationType), m.activationType).toBe(true);
      const n = x.byNotam.length > 0;
      const u = x.byAup.length > 0;
      if (n && u) expect(m.activationType).toBe("isActivatedByAUPAndNOTAMAirspace");
      else if (u) expect(m.activationType).toBe("isActivatedByAUPAirspace");
      else if (n) expect(m.activationType).toBe("isActivatedByNOTAMAirspace");
      else {
        expect(m.activationType).not.toMatch(/^isActivatedBy/);
        if (x.conditional && x.existsOnDay) {
          expect(m.activationType).toBe(x.notFresh ? "isOtherActiveAirspace" : "isNotActiveAirspace");
        }
      }
      if (m.activationType === "isNotActiveAirspace") {
        expect(m.isActive).toBe("No");
        expect(m.airspaceActivationTimes).toEqual([]);
      }
      expect(validateFeature(b.feature)).toEqual([]);
    });
  });

  it("6. deactivation honesty: a non-exact D NOTAM never removes time, an exact one never adds time", () => {
    check((b) => {
      for (const [i, dn] of b.notams.entries()) {
        if (dn.kind !== "D") continue;
        const without = airspaceDay(b.a, b.ctx, {
          notams: b.notams.filter((_, j) => j !== i),
          allocations: b.allocations,
          amcManaged: b.s.a.amcManaged,
        });
        if (trusted(dn)) {
          expect(covers(without.intervals, b.day.intervals), `exact D ${dn.notam.id} added time`).toBe(true);
        } else {
          expect(
            covers(b.day.intervals, without.intervals),
            `${dn.schedule?.status} D ${dn.notam.id} removed time`,
          ).toBe(true);
          expect(b.day.activity.isActive).toBe(without.activity.isActive);
        }
      }
    });
  });

  it("7. notams[] lists every linked NOTAM and aupuups[] every linked allocation, whatever the activity", () => {
    check(({ feature, notams, allocations }) => {
      const m = mappingOf(feature);
      expect(m.notams.map((n) => [n.NotamId, n.NotamIsOfKind])).toEqual(notams.map((n) => [n.notam.id, n.kind]));
      for (const [i, n] of notams.entries()) {
        expect(m.notams[i]!.ItemDParsedSchedule?.status).toBe(n.schedule?.status);
      }
      expect(m.aupuups.map((r) => [r.Designator, r.Status, r.StartDT, r.EndDT])).toEqual(
        allocations.map((x) => [x.designator, x.status, isoSeconds(x.spans[0]![0]), isoSeconds(x.spans[0]![1])]),
      );
    });
  });
});
