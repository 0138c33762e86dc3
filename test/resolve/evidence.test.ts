// "No" only on fresh evidence that covers the airspace (docs/design.md §4, docs/activation.md): a source's standing at
// `now` from its as-of time, and what the sources of one kind say about one FIR.
import { describe, expect, it } from "vitest";
import { utcDay } from "../../src/model/time.js";
import {
  evidenceAt,
  type SourceFacts,
  standingChangeAfter,
  standingOf,
  verdictFor,
} from "../../src/resolve/evidence.js";

const NOW = Date.parse("2026-08-22T12:00:00Z");
const MAX = 120 * 60_000;
const pib: SourceFacts = {
  name: "uk_pib.xml",
  kind: "notam",
  asOf: Date.parse("2026-08-22T11:00:15Z"),
  asOfFrom: "content",
  coverage: ["EGGX", "EGPX", "EGTT"],
  coverageFrom: "content",
  records: 1509,
};

describe("a source's standing at now", () => {
  it("is fresh with a content as-of time inside the maximum age", () => {
    expect(standingOf(pib, NOW, MAX)).toMatchObject({ standing: "fresh", asOf: pib.asOf });
  });

  it.each([
    ["no as-of time (ICAO text, JSON lines undeclared)", { asOf: undefined, asOfFrom: "none" as const }, /no as-of/],
    [
      "an as-of time older than the maximum age",
      { asOf: NOW - MAX - 60_000 },
      /as-of 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ, more than 2 h before now/,
    ],
    [
      "an as-of time after now (a later briefing)",
      { asOf: NOW + 3_600_000 },
      /as-of 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ, after now/,
    ],
    ["the last good copy of a failed fetch", { fallback: true }, /last good copy/],
  ])("is stale with %s", (_, over, reason) => {
    const { asOf: _a, ...rest } = pib;
    const facts = { ...rest, ...over } as SourceFacts;
    const e = standingOf(facts, NOW, MAX);
    expect(e.standing).toBe("stale");
    expect(e.reason).toMatch(reason);
  });

  it("is empty when it holds no record, however fresh", () => {
    expect(standingOf({ ...pib, records: 0 }, NOW, MAX)).toMatchObject({ standing: "empty" });
  });

  it("allows a few minutes of clock difference ahead of now", () => {
    expect(standingOf({ ...pib, asOf: NOW + 4 * 60_000 }, NOW, MAX).standing).toBe("fresh");
  });
});

describe("what the sources of one kind say about a FIR", () => {
  const fresh = standingOf(pib, NOW, MAX);
  const stale = standingOf({ ...pib, name: "old", asOf: NOW - 10 * MAX }, NOW, MAX);
  const french = standingOf({ ...pib, name: "lf", coverage: ["LFFF", "LFRR"] }, NOW, MAX);

  it("fresh: a fresh source briefs the FIR", () => {
    expect(verdictFor([stale, fresh], "EGTT")).toEqual({ state: "fresh", source: fresh });
  });

  it("missing: no source of the kind", () => {
    expect(verdictFor([], "EGTT")).toEqual({ state: "missing" });
  });

  it("stale: only a stale source briefs the FIR", () => {
    expect(verdictFor([stale, french], "EGTT")).toEqual({ state: "stale", source: stale });
  });

  it("offRegion: a UK briefing, however fresh, says nothing about a French area", () => {
    expect(verdictFor([fresh], "LFRR")).toEqual({ state: "offRegion", sources: [fresh] });
    expect(verdictFor([fresh, french], "LFRR")).toEqual({ state: "fresh", source: french });
  });

  it("a source declaring no FIR covers none", () => {
    const undeclared = standingOf({ ...pib, coverage: [], coverageFrom: "none" }, NOW, MAX);
    expect(verdictFor([undeclared], "EGTT").state).toBe("offRegion");
  });
});

describe("when a source's standing changes next", () => {
  const day = utcDay("2026-08-22")!;
  const now = Date.parse("2026-08-22T11:15:00Z");
  const facts = (over: Partial<SourceFacts>): SourceFacts[] => [
    {
      name: "pib",
      kind: "notam",
      asOfFrom: "content",
      coverage: ["EGTT"],
      coverageFrom: "content",
      records: 3,
      ...over,
    },
  ];
  it("a fresh source turns stale just after its as-of time plus the maximum age, and evidenceAt agrees", () => {
    const f = facts({ asOf: Date.parse("2026-08-22T11:00:00Z") });
    const at = standingChangeAfter(f, undefined, day, now, 2 * 3_600_000)!;
    expect(new Date(at).toISOString()).toBe("2026-08-22T13:00:00.001Z");
    expect(evidenceAt(f, undefined, day, at - 1, 2 * 3_600_000)[0]?.standing).toBe("fresh");
    expect(evidenceAt(f, undefined, day, at, 2 * 3_600_000)[0]?.standing).toBe("stale");
  });
  it("none for a fallback copy or a source without as-of time, none past the day's end", () => {
    expect(standingChangeAfter(facts({ fallback: true, asOf: now }), undefined, day, now, 3_600_000)).toBeUndefined();
    expect(standingChangeAfter(facts({}), undefined, day, now, 3_600_000)).toBeUndefined();
    const late = Date.parse("2026-08-22T23:30:00Z");
    expect(standingChangeAfter(facts({ asOf: late }), undefined, day, late, 3_600_000)).toBeUndefined();
  });
  it("with AUP plans, the end of the day's first six hours", () => {
    const early = Date.parse("2026-08-22T02:00:00Z");
    const at = standingChangeAfter([], { early: false, late: true }, day, early, 3_600_000);
    expect(at).toBe(day.start + 6 * 3_600_000);
  });
});
