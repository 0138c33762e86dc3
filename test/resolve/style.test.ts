import { describe, expect, it } from "vitest";
import { DynamicStyle } from "../../src/model/contract.js";
import { formatLimit } from "../../src/model/limits.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { PALETTE, paletteKeyOf, styleFor } from "../../src/resolve/style.js";

describe("styleFor", () => {
  it("writes both alias spellings with the same value, and passes the contract", () => {
    for (const key of Object.keys(PALETTE) as Array<keyof typeof PALETTE>) {
      for (const state of ["Yes", "No", "Unknown"] as const) {
        const s = styleFor(key, state);
        expect(DynamicStyle.parse(s)).toEqual(s);
        expect(s.Priority).toBe(s.priority);
        expect(s.PolygonPaintDirection).toBe(s.polygonPaintDirection);
      }
    }
  });

  it("fades inactive features without hiding them, and marks Unknown apart from No", () => {
    const yes = styleFor("restricted", "Yes");
    const no = styleFor("restricted", "No");
    const unknown = styleFor("restricted", "Unknown");
    expect(no.fillOpacity).toBeGreaterThan(0);
    expect(no.fillOpacity).toBeLessThan(unknown.fillOpacity);
    expect(unknown.fillOpacity).toBeLessThan(yes.fillOpacity);
    expect(unknown.complexStyle).toBe("unknownActivity");
    expect(no.complexStyle).toBeNull();
  });

  it("keys the palette by type, and by class for classified airspace", () => {
    expect(paletteKeyOf(AirspaceType.PROHIBITED, 8)).toBe("prohibited");
    expect(styleFor("prohibited", "Yes").polygonPaintDirection).toBe("forwardDiagonal");
    expect(paletteKeyOf(AirspaceType.OTHER, 4)).toBe("classE");
    expect(paletteKeyOf(AirspaceType.OTHER, 6)).toBe("classFG");
    expect(paletteKeyOf(AirspaceType.OTHER, 8)).toBe("other");
  });
});

describe("the palette a pilot can read", () => {
  it("tells class E from A–D, CTRs from restricted areas, and hatches restricted and prohibited areas", () => {
    const colour = (k: keyof typeof PALETTE) => PALETTE[k].rgb.join(",");
    expect(colour("classE")).not.toBe(colour("controlled"));
    expect(colour("ctr")).not.toBe(colour("restricted"));
    expect(colour("danger")).not.toBe(colour("restricted"));
    expect(PALETTE.restricted.paint).not.toBe("none");
    expect(PALETTE.prohibited.paint).not.toBe("none");
    expect(new Set(Object.values(PALETTE).map((p) => p.label)).size).toBe(Object.keys(PALETTE).length);
  });

  it("draws active, may-be-active and inactive apart by more than a shade", () => {
    const [yes, unknown, no] = (["Yes", "Unknown", "No"] as const).map((a) => styleFor("restricted", a));
    expect(no!.fillOpacity).toBeLessThanOrEqual(yes!.fillOpacity / 4);
    expect(unknown!.fillOpacity).toBeGreaterThanOrEqual(no!.fillOpacity * 2);
    expect(unknown!.complexStyle).toBe("unknownActivity");
  });
});

describe("formatLimit", () => {
  it.each([
    [{ value: 95, unit: 6, referenceDatum: 2 }, "FL 95"],
    [{ value: 999, unit: 6, referenceDatum: 2 }, "UNL"],
    [{ value: 2500, unit: 1, referenceDatum: 1 }, "2500 ft MSL"],
    [{ value: 1000, unit: 1, referenceDatum: 0 }, "1000 ft AGL"],
    [{ value: 300, unit: 0, referenceDatum: 1 }, "300 m MSL"],
    [{ value: 0, unit: 1, referenceDatum: 0 }, "GND"],
  ] as const)("%j → %s", (limit, text) => expect(formatLimit(limit)).toBe(text));
});
