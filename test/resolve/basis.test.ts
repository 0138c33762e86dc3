// Evidence or default (src/resolve/basis.ts, issue 50 §5): which decision-table rows count as a default.
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { DEFAULT_RULES, decidedByCountry, isDefaultRule } from "../../src/resolve/basis.js";

const feature = (id: string, country: string, category: "airspace" | "graphicalNotam") =>
  ({ properties: { _id: id, country, featureCategory: category } }) as unknown as Feature;

describe("evidence or default", () => {
  it("takes other, hoursUnknown and conditionalUnknown for defaults, every row with a source for evidence", () => {
    expect([...DEFAULT_RULES].sort()).toEqual(["conditionalUnknown", "hoursUnknown", "other"]);
    for (const r of ["aipHours", "aipHoursOff", "aipHoursMayExtend", "linked", "validityWindow", "permanent"])
      expect(isDefaultRule(r), r).toBe(false);
    expect(isDefaultRule("conditionalInactive")).toBe(false); // a fresh source's silence is evidence
  });

  it("counts airspaces per country; graphical NOTAMs are not counted", () => {
    const features = [
      feature("a", "FR", "airspace"),
      feature("b", "FR", "airspace"),
      feature("c", "FR", "airspace"),
      feature("d", "DE", "airspace"),
      feature("n", "DE", "graphicalNotam"),
    ];
    const rules = new Map([
      ["a", { rule: "other" }],
      ["b", { rule: "aipHours" }],
      ["c", { rule: "conditionalUnknown" }],
      ["d", { rule: "linked" }],
      ["n", { rule: "other" }],
    ]);
    expect(Object.fromEntries(decidedByCountry(features, rules))).toEqual({
      FR: { evidence: 1, default: 2 },
      DE: { evidence: 1, default: 0 },
    });
  });
});
