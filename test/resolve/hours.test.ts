// An airspace's own hours as intervals of a UTC day, with local days and summer time through luxon, and the rows
// of the decision table they decide (docs/activation.md §4).
import { describe, expect, it } from "vitest";
import { hoursFromName, hoursFromRemarks } from "../../src/ingest/hours.js";
import type { AipHours } from "../../src/model/hours.js";
import { utcDay } from "../../src/model/time.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { type ActivitySources, type ActivitySubject, baseActivity } from "../../src/resolve/activity.js";
import { assumed } from "../../src/resolve/evidence.js";
import { hoursOnDay } from "../../src/resolve/hours.js";

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const spansOn = (h: AipHours, date: string, zone = "Europe/Berlin") =>
  hoursOnDay(h, utcDay(date)!, zone).spans.map(([s, e]) => [iso(s), iso(e)]);
const name = (n: string) => hoursFromName(n)!;

describe("hours on a UTC day", () => {
  const monFri = name("ED-R11A Ostsee MON-FRI+");

  it("local weekdays in summer: Monday begins on Sunday 22:00Z, Friday ends 22:00Z", () => {
    // 2026-06-14 is a Sunday; Germany keeps summer time (UTC+2)
    expect(spansOn(monFri, "2026-06-14")).toEqual([["2026-06-14T22:00", "2026-06-15T00:00"]]);
    expect(spansOn(monFri, "2026-06-15")).toEqual([["2026-06-15T00:00", "2026-06-16T00:00"]]);
    expect(spansOn(monFri, "2026-06-19")).toEqual([["2026-06-19T00:00", "2026-06-19T22:00"]]);
    expect(spansOn(monFri, "2026-06-20")).toEqual([]);
  });

  it("local weekdays in winter (UTC+1) and across the change to summer time", () => {
    expect(spansOn(monFri, "2026-01-11")).toEqual([["2026-01-11T23:00", "2026-01-12T00:00"]]);
    // summer time begins on Sunday 2026-03-29: the local Monday starts at 22:00Z that Sunday
    expect(spansOn(monFri, "2026-03-29")).toEqual([["2026-03-29T22:00", "2026-03-30T00:00"]]);
  });

  it("UTC times with 1 HR EARLIER IN SUMMER move with the country's summer time", () => {
    const h = hoursFromRemarks("MON-FRI 0800-1700. 1 HR EARLIER IN SUMMER")!;
    expect(spansOn(h, "2026-07-01", "Europe/London")).toEqual([["2026-07-01T07:00", "2026-07-01T16:00"]]);
    expect(spansOn(h, "2026-12-01", "Europe/London")).toEqual([["2026-12-01T08:00", "2026-12-01T17:00"]]);
  });

  it("local times (LT) in Paris", () => {
    const h = hoursFromRemarks("MON-FRI 0800-1600 LT")!;
    expect(spansOn(h, "2026-07-01", "Europe/Paris")).toEqual([["2026-07-01T06:00", "2026-07-01T14:00"]]);
    expect(spansOn(h, "2026-12-01", "Europe/Paris")).toEqual([["2026-12-01T07:00", "2026-12-01T15:00"]]);
  });

  it("a temporary area's local dates (YAIXM RAT: SILVERSTONE (3-5 JUL))", () => {
    const rat: AipHours = {
      text: "(3-5 JUL)",
      from: "ratName",
      kind: "dates",
      dates: [3, 4, 5].map((day) => ({ month: 6, day })),
    };
    expect(spansOn(rat, "2026-07-02", "Europe/London")).toEqual([["2026-07-02T23:00", "2026-07-03T00:00"]]);
    expect(spansOn(rat, "2026-07-05", "Europe/London")).toEqual([["2026-07-05T00:00", "2026-07-05T23:00"]]);
    expect(spansOn(rat, "2026-07-06", "Europe/London")).toEqual([]);
  });

  it("without a known zone, local hours are unknown, never empty", () => {
    expect(hoursOnDay(monFri, utcDay("2026-06-15")!, undefined)).toEqual({ spans: [], unknown: true });
  });
});

describe("the decision rows of the AIP's own hours", () => {
  const day = utcDay("2026-06-20")!; // a Saturday
  const subject = (text: string): ActivitySubject => ({
    type: AirspaceType.RESTRICTED,
    fir: "EDWW",
    icaoClass: 8,
    byNotam: false,
    onDemand: false,
    onRequest: false,
    activeTimes: [],
    hours: name(`ED-R99 TEST ${text}`),
    zone: "Europe/Berlin",
  });
  const none: ActivitySources = { notam: [], aup: [] };
  const fresh: ActivitySources = { notam: assumed("notam", "fresh"), aup: [] };
  const stale: ActivitySources = { notam: assumed("notam", "stale"), aup: [] };
  const ukOnly: ActivitySources = {
    notam: [
      {
        name: "uk_pib.xml",
        kind: "notam",
        standing: "fresh",
        asOfFrom: "content",
        coverage: ["EGTT", "EGPX"],
        coverageFrom: "content",
      },
    ],
    aup: [],
  };
  const ctx = (sources = none) => ({ day, now: day.start, sources });

  it("H24: Yes all day, isActive", () => {
    expect(baseActivity(subject("H24"), ctx())).toMatchObject({
      isActive: "Yes",
      activationType: "isActive",
      spans: [[day.start, day.end]],
      rule: "aipHours",
    });
  });

  it("MON-FRI on a Saturday: No only when a fresh NOTAM source briefs its FIR (a NOTAM may extend its hours)", () => {
    expect(baseActivity(subject("MON-FRI"), ctx(fresh))).toMatchObject({
      isActive: "No",
      activationType: "isNotActiveAirspace",
      rule: "aipHoursOff",
      evidence: [{ kind: "notam", state: "fresh" }],
    });
    expect(baseActivity(subject("MON-FRI"), ctx())).toMatchObject({
      isActive: "Unknown",
      activationType: "isOtherActiveAirspace",
      rule: "aipHoursMayExtend",
      evidence: [{ kind: "notam", state: "missing" }],
    });
    // a fresh briefing of the UK only says nothing about EDWW
    expect(baseActivity(subject("MON-FRI"), ctx(ukOnly))).toMatchObject({
      isActive: "Unknown",
      rule: "aipHoursMayExtend",
      evidence: [{ kind: "notam", state: "offRegion" }],
    });
    expect(baseActivity(subject("MON-FRI"), ctx(stale))).toMatchObject({
      isActive: "Unknown",
      rule: "aipHoursMayExtend",
    });
  });

  it("hours over for the day at now: No only with a fresh covering NOTAM source; the intervals stay listed", () => {
    // local Friday (Europe/Berlin, summer) ends at 22:00Z; at 23:00Z nothing of its hours is left on the day
    const friday = utcDay("2026-06-26")!;
    const late = (sources: ActivitySources) =>
      baseActivity(subject("MON-FRI"), { day: friday, now: Date.parse("2026-06-26T23:00:00Z"), sources });
    expect(late(fresh)).toMatchObject({ isActive: "No", activationType: "isActive", rule: "aipHours" });
    const unknown = late(none);
    expect(unknown).toMatchObject({ isActive: "Unknown", activationType: "isOtherActiveAirspace" });
    expect(unknown.rule).toBe("aipHoursMayExtend");
    expect(unknown.spans.map(([s, e]) => [iso(s), iso(e)])).toEqual([["2026-06-26T00:00", "2026-06-26T22:00"]]);
    // earlier that evening the hours still run: Yes, whatever the sources
    const early = baseActivity(subject("MON-FRI"), {
      day: friday,
      now: Date.parse("2026-06-26T21:00:00Z"),
      sources: none,
    });
    expect(early).toMatchObject({ isActive: "Yes", rule: "aipHours" });
  });

  it("a validity window that misses the day stays No: the airspace does not exist that day", () => {
    const window = {
      ...subject("MON-FRI"),
      activeTimes: [{ start: "2026-07-01T00:00:00Z", end: "2026-07-31T00:00:00Z" }],
    };
    expect(baseActivity(window, ctx())).toMatchObject({ isActive: "No", rule: "outsideValidity" });
  });

  it("MON-FRI+ on a Saturday: a NOTAM may activate it, so Unknown without a fresh covering NOTAM source", () => {
    expect(baseActivity(subject("MON-FRI+"), ctx())).toMatchObject({ isActive: "Unknown", rule: "conditionalUnknown" });
    expect(baseActivity(subject("MON-FRI+"), ctx(fresh))).toMatchObject({
      isActive: "No",
      rule: "conditionalInactive",
    });
  });

  it("HX: never No, whatever the sources", () => {
    expect(baseActivity(subject("HX"), ctx(fresh))).toMatchObject({ isActive: "Unknown", rule: "hoursUnknown" });
  });

  it("NOTAM: conditional on the NOTAM source", () => {
    expect(baseActivity(subject("NOTAM"), ctx())).toMatchObject({ isActive: "Unknown" });
    expect(baseActivity(subject("NOTAM"), ctx(fresh))).toMatchObject({ isActive: "No" });
  });

  it("MON-SAT+ on a Saturday: Yes by its hours (local Saturday), isActive", () => {
    const a = baseActivity(subject("MON-SAT+"), ctx());
    expect(a).toMatchObject({ isActive: "Yes", activationType: "isActive", rule: "aipHours" });
    expect(a.spans.map(([s, e]) => [iso(s), iso(e)])).toEqual([["2026-06-20T00:00", "2026-06-20T22:00"]]);
  });
});
