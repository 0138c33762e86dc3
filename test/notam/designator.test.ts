import { describe, expect, it } from "vitest";
import { designatorsIn, normalizeDesignator } from "../../src/notam/designator.js";

describe("designators", () => {
  it("normalises the spellings of one area", () => {
    expect(normalizeDesignator("ED-R 116")).toBe("EDR116");
    for (const t of ["ED-R 116 ACTIVE", "EDR116", "ED R116", "ED-R116"]) expect(designatorsIn(t)).toEqual(["EDR116"]);
  });

  it("finds them in NOTAM text, leading zeros dropped", () => {
    expect(designatorsIn("TEMPO DANGER AREA (TDA) EG D098D ACTIVATED")).toEqual(["EGD98D"]);
    expect(designatorsIn("EGD701A 0900-1300 SFC-UNL EGD701B 1300-2100")).toEqual(["EGD701A", "EGD701B"]);
  });

  it("reads airspace names, a second part's underscore included", () => {
    expect(designatorsIn("ED-R10C_2 TODENDORF-PUTLOS NOTAM")).toEqual(["EDR10C"]);
    expect(designatorsIn("ED-R PEENEMUENDE (NOTAM)")).toEqual([]);
  });

  it("gives national forms the country's ICAO prefix", () => {
    expect(designatorsIn("TSA 2 ACTIVE", "LK")).toEqual(["TSA2", "LKTSA2"]);
  });

  it("uses the alias table for names that cannot be derived", () => {
    expect(designatorsIn("TRA LAUTER 1 C")).toContain("EDR205C");
  });
});

describe("designators that are not areas", () => {
  it("ignores words and AIP chapters that look like one", () => {
    expect(designatorsIn("AND 1 SEP 1 WED 600 PPR 24HR")).toEqual([]);
    expect(designatorsIn("REF AIP ENR 5.1-83")).toEqual([]);
  });

  it("reads national kinds with the prefix glued on", () => {
    expect(designatorsIn("TEMPO SEGREGATED AREA EBTSA13A-CHANNEL A ACTIVATED")).toEqual(["EBTSA13A"]);
  });
});
