import { describe, expect, it } from "vitest";
import { parseNotamLimit, qLimits } from "../../src/notam/limits.js";
import { formatQLine, parseQLine } from "../../src/notam/qline.js";

const ok = (text: string) => {
  const r = parseQLine(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const reason = (text: string): string => {
  const r = parseQLine(text);
  return r.ok ? "" : r.reason;
};

describe("parseQLine", () => {
  it("reads every field of a full line", () => {
    expect(ok("EDGG/QRTCA/IV/BO/W/000/080/5003N00834E010")).toEqual({
      fir: "EDGG",
      code: "QRTCA",
      traffic: "IV",
      purpose: "BO",
      scope: "W",
      lower: 0,
      upper: 80,
      centre: { lat: 50.05, lon: 8.566667 },
      radiusNm: 10,
      raw: "EDGG/QRTCA/IV/BO/W/000/080/5003N00834E010",
    });
  });

  it("ignores blanks padding the fields (`M  `, `W `, `K /K  /K `)", () => {
    const q = ok("EGTT/QOBCE/IV/M  /AE/000/004/5130N00027W001");
    expect([q.purpose, q.scope, q.centre, q.radiusNm]).toEqual(["M", "AE", { lat: 51.5, lon: -0.45 }, 1]);
    expect(ok("EISN/QKKKK/K /K  /K /000/999/5257N01045W999")).toMatchObject({ traffic: "K", purpose: "K", scope: "K" });
    expect(ok(" EISN/QWUXX/IV/NBO/W /000/005/5323N00623W005 ").raw).toBe("EISN/QWUXX/IV/NBO/W /000/005/5323N00623W005");
  });

  it("accepts a centre without radius, and no centre at all", () => {
    const noRadius = ok("GLRB/QMXXX/IV/M/A/000/999/0614N01021W");
    expect(noRadius.centre).toEqual({ lat: 6.233333, lon: -10.35 });
    expect(noRadius.radiusNm).toBeUndefined();
    const noCentre = ok("GOOO/QNBAS/IV/BO/AE/000/999");
    expect(noCentre.centre).toBeUndefined();
    expect([noCentre.lower, noCentre.upper]).toEqual([0, 999]);
  });

  it("takes the southern and western hemispheres as negative", () => {
    expect(ok("FAJA/QOBCE/IV/M/AE/000/056/2610S02813E005").centre).toEqual({ lat: -26.166667, lon: 28.216667 });
  });

  it("rejects with a reason that quotes the field", () => {
    expect(reason("EDG/QRTCA/IV/BO/W/000/080")).toBe('Q-line FIR "EDG" is not four letters');
    expect(reason("EDGG/RTCA/IV/BO/W/000/080")).toBe('Q-code "RTCA" is not Q and four letters');
    expect(reason("EDGG/QRTCA/IV/BO/W/00/080")).toBe('Q-line lower limit "00" is not three digits');
    expect(reason("EDGG/QRTCA/IV/BO/W/090/080")).toMatch(/lower limit 090 is above the upper limit 080/);
    expect(reason("EDGG/QRTCA/IV/BO/W/000/080/5063N00834E010")).toMatch(/minutes above 59/);
    expect(reason("EDGG/QRTCA/IV/BO/W/000/080/50N008E")).toMatch(/"50N008E" is not ddmmN dddmmE/);
    expect(reason("EDGG/QRTCA/IV/B1/W")).toMatch(/purpose "B1"/);
    expect(reason("EDGG")).toMatch(/1 fields/);
  });

  it("rebuilds the UK PIB's split fields as a Q-line", () => {
    const text = formatQLine({
      fir: "EGTT",
      code: "QRTCA",
      traffic: "IV",
      purpose: "BO",
      scope: "AW",
      lower: "0",
      upper: "30",
      coordinates: "5415N00429W",
      radius: "7",
    });
    expect(text).toBe("EGTT/QRTCA/IV/BO/AW/000/030/5415N00429W007");
    expect(formatQLine({ fir: "EGTT", code: "QRTCA", lower: 0, upper: 999 })).toBe("EGTT/QRTCA////000/999");
  });
});

describe("qLimits", () => {
  it("maps 000 to GND, 999 to UNL, others to flight levels", () => {
    expect(qLimits(ok("EDGG/QRTCA/IV/BO/W/000/080"))).toEqual({
      lower: { value: 0, unit: 1, referenceDatum: 0 },
      upper: { value: 80, unit: 6, referenceDatum: 2 },
    });
    expect(qLimits(ok("EBBU/QARLC/IV/NBO/E/195/999"))).toEqual({
      lower: { value: 195, unit: 6, referenceDatum: 2 },
      upper: { value: 999, unit: 6, referenceDatum: 2 },
    });
    expect(qLimits(ok("EDGG/QRTCA"))).toEqual({ lower: undefined, upper: undefined });
  });
});

describe("parseNotamLimit", () => {
  const GND = { value: 0, unit: 1, referenceDatum: 0 };
  it.each([
    // every spelling of Items F and G that occurs in the corpus (counts over the six JSON-lines files)
    ["SFC", GND], // 20 007
    ["GND", GND], // 99
    ["UNL", { value: 999, unit: 6, referenceDatum: 2 }], // 2 370
    ["1050FT AMSL", { value: 1050, unit: 1, referenceDatum: 1 }], // 17 694 of nnnnFT AMSL
    ["1050 FT AMSL", { value: 1050, unit: 1, referenceDatum: 1 }], // 1
    ["FL105", { value: 105, unit: 6, referenceDatum: 2 }], // 3 003 of FLnnn
    ["FL050", { value: 50, unit: 6, referenceDatum: 2 }],
    ["FL 105", { value: 105, unit: 6, referenceDatum: 2 }],
    ["500FT AGL", { value: 500, unit: 1, referenceDatum: 0 }], // 62 of nnnFT AGL
    ["0FT AGL", GND],
    ["2000M AMSL", { value: 2000, unit: 0, referenceDatum: 1 }],
    ["300M AGL", { value: 300, unit: 0, referenceDatum: 0 }],
    ["4500FT", { value: 4500, unit: 1, referenceDatum: 1 }],
    ["4500 FT MSL", { value: 4500, unit: 1, referenceDatum: 1 }],
    ["12 200 m (40 000 ft) MSL.", { value: 12200, unit: 0, referenceDatum: 1 }], // PyNotam A0623/91
    ["9 150 m (30 000 ft) MSL.", { value: 9150, unit: 0, referenceDatum: 1 }],
    [" sfc ", GND],
  ])("%s", (text, expected) => expect(parseNotamLimit(text)).toEqual(expected));

  it.each(["", "G", "STD", "FL", "1000FT BANANA", "ABOUT 500FT"])("%j is not a limit", (text) =>
    expect(parseNotamLimit(text)).toBeUndefined(),
  );
});
