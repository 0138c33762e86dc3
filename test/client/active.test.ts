// "Active at my ETA between 2 000 and 4 500 ft" (src/client/active.ts): intervals, temporary limits, units, ground
// references, and Unknown kept unknown.
import { describe, expect, it } from "vitest";
import { type ActiveFeature, activeAt } from "../../src/client/active.js";

const ft = (value: number, referenceDatum = 1) => ({ value, unit: 1, referenceDatum });
const feature = (over: Partial<ActiveFeature["properties"]>, isActive = "Yes"): ActiveFeature => ({
  properties: {
    _id: "x",
    lowerLimit: ft(0, 0),
    upperLimit: ft(3000),
    vendor: {
      dynamicAirspaceMapping: {
        isActive,
        airspaceActivationTimes: [{ start: "2026-08-22T08:00:00Z", end: "2026-08-22T16:00:00Z" }],
      },
    },
    ...over,
  },
});
const at = (hhmm: string) => Date.parse(`2026-08-22T${hhmm}:00Z`);

describe("activeAt", () => {
  it("answers from the activation intervals, and Unknown stays unknown", () => {
    expect(activeAt(feature({}), at("09:00"))).toBe("Yes");
    expect(activeAt(feature({}), at("16:00"))).toBe("No");
    expect(activeAt(feature({}), at("07:59"))).toBe("No");
    expect(activeAt(feature({}, "No"), at("09:00"))).toBe("No");
    expect(activeAt(feature({}, "Unknown"), at("09:00"))).toBe("Unknown");
    expect(activeAt(feature({}, "Unknown"), at("09:00"), { lowerFt: 0, upperFt: 100 })).toBe("Unknown");
  });

  it("compares the band in feet above sea level: flight levels, metres, ground references", () => {
    const band = { lowerFt: 2000, upperFt: 4500 };
    expect(activeAt(feature({}), at("09:00"), band)).toBe("Yes");
    expect(activeAt(feature({ upperLimit: ft(1500) }), at("09:00"), band)).toBe("No");
    expect(
      activeAt(
        feature({ lowerLimit: { value: 55, unit: 6, referenceDatum: 2 }, upperLimit: ft(9000) }),
        at("09:00"),
        band,
      ),
    ).toBe("No");
    expect(
      activeAt(
        feature({ lowerLimit: { value: 1000, unit: 0, referenceDatum: 1 }, upperLimit: ft(9000) }),
        at("09:00"),
        band,
      ),
    ).toBe("Yes");
    // 1 500 ft above ground may be above 2 000 ft above sea level: it may reach the band
    expect(activeAt(feature({ upperLimit: ft(1500, 0) }), at("09:00"), band)).toBe("Yes");
  });

  it("takes a schedule row's temporary limits at the instant it covers", () => {
    const f = feature({});
    f.properties.vendor!.dynamicAirspaceMapping!.dynamicScheduleAndVerticalLimits = [
      { start: "2026-08-22T08:00:00Z", end: "2026-08-22T12:00:00Z", upperLimit: ft(1500) },
      { start: "2026-08-22T12:00:00Z", end: "2026-08-22T16:00:00Z" },
    ];
    const band = { lowerFt: 2000, upperFt: 4500 };
    expect(activeAt(f, at("09:00"), band)).toBe("No");
    expect(activeAt(f, at("13:00"), band)).toBe("Yes");
  });
});
