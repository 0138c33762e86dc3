import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import {
  ALL,
  activeAt,
  ago,
  byDefault,
  feet,
  formatFrequencies,
  formatInterval,
  formatLimit,
  hhmm,
  hidden,
  limitsAt,
  meetsBand,
  statusText,
  summarize,
} from "../../web/logic.js";
import { feature } from "../publish/fixtures.js";

const DAY = "2026-09-14";
const at = (hm: string) => Date.parse(`${DAY}T${hm}:00Z`);

function scheduled(): Feature {
  const f = structuredClone(feature("ed-r1", "DE", 8));
  const m = f.properties.vendor.dynamicAirspaceMapping;
  m.airspaceActivationTimes = [{ start: `${DAY}T06:00:00Z`, end: `${DAY}T08:00:00Z` }];
  m.dynamicScheduleAndVerticalLimits = [
    {
      start: `${DAY}T12:00:00Z`,
      end: `${DAY}T13:30:00Z`,
      lowerLimit: { value: 0, unit: 1, referenceDatum: 0 },
      upperLimit: { value: 95, unit: 6, referenceDatum: 2 },
    },
  ];
  f.properties.lowerLimit = { value: 1500, unit: 1, referenceDatum: 1 };
  f.properties.upperLimit = { value: 100, unit: 6, referenceDatum: 2 };
  return f;
}

describe("the map page's logic", () => {
  it("draws an airspace whose answer is a default apart and says so in its popup", () => {
    const f = structuredClone(feature("lf-r1", "FR", 8));
    const m = f.properties.vendor.dynamicAirspaceMapping;
    m.activationType = "isOtherActiveAirspace";
    m.isActive = "Yes";
    expect(byDefault(summarize(f))).toBe(true);
    expect(statusText(f)).toMatch(/^Active: by default: nothing says when it is active/);
    m.activationType = "isActive";
    expect(byDefault(summarize(f))).toBe(false);
    const notam = structuredClone(f);
    notam.properties.featureCategory = "graphicalNotam";
    notam.properties.vendor.dynamicAirspaceMapping.activationType = "isOtherActiveAirspace";
    expect(byDefault(summarize(notam))).toBe(false);
  });

  it("is active inside its activation times and schedule rows, start included and end excluded", () => {
    const f = scheduled();
    const s = summarize(f);
    expect(["05:59", "06:00", "07:59", "08:00", "12:00", "13:29", "13:30"].map((t) => activeAt(s, at(t)))).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
    expect(limitsAt(f, at("12:30"))).toEqual({
      lower: { value: 0, unit: 1, referenceDatum: 0 },
      upper: { value: 95, unit: 6, referenceDatum: 2 },
    });
    expect(limitsAt(f, at("07:00"))).toBeUndefined();
  });

  it("meets an altitude band in feet (FL ×100, metres converted, touching counts)", () => {
    const f = summarize(scheduled()); // 1500 ft MSL – FL100
    expect(feet({ value: 300, unit: 0, referenceDatum: 1 })).toBe(984);
    expect(meetsBand(f, [0, 1499])).toBe(false);
    expect(meetsBand(f, [0, 1500])).toBe(true);
    expect(meetsBand(f, [10_000, 20_000])).toBe(true);
    expect(meetsBand(f, [10_001, 20_000])).toBe(false);
  });

  it("hides by type, activation type, graphical NOTAMs and obstacles", () => {
    const full = scheduled();
    const f = summarize(full);
    expect(hidden(f, ALL)).toBe(false);
    expect(hidden(f, { ...ALL, types: new Set([2]) })).toBe(true);
    expect(hidden(f, { ...ALL, types: new Set([full.properties.type]) })).toBe(false);
    expect(hidden(f, { ...ALL, activationTypes: new Set(["isNotActiveAirspace"]) })).toBe(
      full.properties.vendor.dynamicAirspaceMapping.activationType !== "isNotActiveAirspace",
    );
    const raw = structuredClone(full);
    raw.properties.featureCategory = "graphicalNotam";
    raw.properties.iscraneobstacle = 1;
    const notam = summarize(raw);
    expect(hidden(notam, { ...ALL, graphicalNotams: false })).toBe(true);
    expect(hidden(notam, { ...ALL, obstacles: false })).toBe(true);
    expect(hidden(f, { ...ALL, graphicalNotams: false, obstacles: false })).toBe(false);
  });

  it("words limits, intervals and minutes", () => {
    expect(formatLimit({ value: 0, unit: 1, referenceDatum: 0 })).toBe("GND");
    expect(formatLimit({ value: 95, unit: 6, referenceDatum: 2 })).toBe("FL095");
    expect(formatLimit({ value: 999, unit: 6, referenceDatum: 2 })).toBe("UNL");
    expect(formatLimit({ value: 2500, unit: 1, referenceDatum: 1 })).toBe("2500 ft MSL");
    expect(formatLimit({ value: 300, unit: 0, referenceDatum: 0 })).toBe("300 m AGL");
    expect(formatInterval({ start: `${DAY}T06:00:00Z`, end: "2026-09-15T00:00:00Z" }, DAY)).toBe("06:00–24:00");
    expect(formatInterval({ start: `${DAY}T00:00:00Z`, end: "2026-09-15T00:00:00Z" }, DAY)).toBe("00:00–24:00");
    expect(formatInterval({ start: `${DAY}T22:00:00Z`, end: "2026-09-15T06:00:00Z" }, DAY)).toBe(
      "22:00–2026-09-15 06:00",
    );
    expect([0, 61, 1439].map(hhmm)).toEqual(["00:00", "01:01", "23:59"]);
  });

  it("says how long ago as people do, never negative and never in thousands of minutes", () => {
    const min = 60_000;
    expect([-5 * min, 0, 42 * min, 65 * min, 120 * min, 5485 * min, 3 * 1440 * min].map(ago)).toEqual([
      "just now",
      "just now",
      "42 min ago",
      "1 h 5 min ago",
      "2 h ago",
      "3 d 19 h ago",
      "3 d ago",
    ]);
  });

  it("lists frequencies with their callsigns, the primary first, in MHz", () => {
    expect(
      formatFrequencies([
        { value: "119.055", unit: 2, name: "ABERDEEN APPROACH" },
        { value: "118.105", unit: 2, name: "ABERDEEN TOWER", primary: true },
      ]),
    ).toEqual(["ABERDEEN TOWER 118.105 MHz", "ABERDEEN APPROACH 119.055 MHz"]);
  });
});
