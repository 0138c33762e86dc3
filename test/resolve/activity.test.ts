import { describe, expect, it } from "vitest";
import { utcDay } from "../../src/model/time.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { type ActivitySubject, baseActivity } from "../../src/resolve/activity.js";
import { assumed } from "../../src/resolve/evidence.js";

const day = utcDay("2026-09-14")!;
const at = (hhmm: string) => Date.parse(`2026-09-14T${hhmm}:00Z`);
const missing = { notam: [], aup: [] };
const fresh = { notam: assumed("notam", "fresh"), aup: assumed("aup", "fresh") };
const subject = (over: Partial<ActivitySubject> = {}): ActivitySubject => ({
  type: AirspaceType.CTR,
  fir: "EDGG",
  icaoClass: 3,
  byNotam: false,
  onDemand: false,
  onRequest: false,
  activeTimes: [],
  ...over,
});

describe("baseActivity (docs/design.md §4 decision table, rows without NOTAM or AUP)", () => {
  it("a permanent airspace is active the whole day as one 00:00Z→00:00Z interval", () => {
    const a = baseActivity(subject(), { day, now: at("10:00"), sources: missing });
    expect(a).toEqual({
      isActive: "Yes",
      activationType: "isActive",
      spans: [[day.start, day.end]],
      rule: "permanent",
    });
  });

  it("classified airspace of type Other (class E) is permanent", () => {
    const a = baseActivity(subject({ type: AirspaceType.OTHER, icaoClass: 4 }), {
      day,
      now: at("10:00"),
      sources: missing,
    });
    expect(a.activationType).toBe("isActive");
  });

  it("an activeFrom/activeUntil window is clipped to the day", () => {
    const a = baseActivity(subject({ activeTimes: [{ start: "2026-09-14T07:00:00Z", end: "2026-09-20T17:00:00Z" }] }), {
      day,
      now: at("06:00"),
      sources: missing,
    });
    expect(a).toMatchObject({ isActive: "Yes", activationType: "isActive", spans: [[at("07:00"), day.end]] });
  });

  it("a window that does not meet the day makes the airspace inactive", () => {
    const a = baseActivity(subject({ activeTimes: [{ start: "2025-02-24T07:00:00Z", end: "2025-12-31T17:00:00Z" }] }), {
      day,
      now: at("06:00"),
      sources: missing,
    });
    expect(a).toMatchObject({ isActive: "No", activationType: "isNotActiveAirspace", spans: [] });
  });

  it("isActive is No once the day's last interval has ended before now", () => {
    const a = baseActivity(subject({ activeTimes: [{ start: "2026-09-14T07:00:00Z", end: "2026-09-14T09:00:00Z" }] }), {
      day,
      now: at("10:00"),
      sources: missing,
    });
    expect(a).toMatchObject({ isActive: "No", activationType: "isActive", spans: [[at("07:00"), at("09:00")]] });
  });

  it.each([
    ["byNotam", { byNotam: true, type: AirspaceType.RESTRICTED }],
    ["onDemand", { onDemand: true, type: AirspaceType.RESTRICTED }],
    ["onRequest", { onRequest: true, type: AirspaceType.TMZ }],
    ["TRA (AMC-manageable)", { type: AirspaceType.TRA }],
  ])("a conditional airspace (%s) is Unknown while its source is missing, never No", (_, over) => {
    const a = baseActivity(subject(over), { day, now: at("10:00"), sources: missing });
    expect(a).toMatchObject({ isActive: "Unknown", activationType: "isOtherActiveAirspace", spans: [] });
  });

  it("a conditional airspace is Unknown when its source is stale", () => {
    const a = baseActivity(subject({ byNotam: true }), {
      day,
      now: at("10:00"),
      sources: { notam: assumed("notam", "stale"), aup: assumed("aup", "fresh") },
    });
    expect(a.isActive).toBe("Unknown");
  });

  it("a conditional airspace with fresh sources and nothing activating it is No", () => {
    const a = baseActivity(subject({ byNotam: true }), { day, now: at("10:00"), sources: fresh });
    expect(a).toMatchObject({ isActive: "No", activationType: "isNotActiveAirspace" });
  });

  it("a restricted area with no condition is active for another reason, all day", () => {
    const a = baseActivity(subject({ type: AirspaceType.RESTRICTED, icaoClass: 8 }), {
      day,
      now: at("23:59"),
      sources: missing,
    });
    expect(a).toMatchObject({
      isActive: "Yes",
      activationType: "isOtherActiveAirspace",
      spans: [[day.start, day.end]],
    });
  });
});
