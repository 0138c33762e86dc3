// The designator grammar (src/notam/designator.ts) on the forms each state writes, quoted from real NOTAMs (the SOFIA
// briefs of February 2026, the FAA DINS export, the NATS PIB) and AIP names; the figures on real data are
// test/resolve/link-eval.test.ts.
import { describe, expect, it } from "vitest";
import { designatorMatches, designatorsIn, normalizeDesignator } from "../../src/notam/designator.js";

describe("designators", () => {
  it("normalises the spellings of one area", () => {
    expect(normalizeDesignator("ED-R 116")).toBe("EDR116");
    for (const t of ["ED-R 116 ACTIVE", "EDR116", "ED R116", "ED-R116"]) expect(designatorsIn(t)).toEqual(["EDR116"]);
  });

  it("uses the alias table for names that cannot be derived", () => {
    expect(designatorsIn("TRA LAUTER 1 C")).toContain("EDR205C");
  });

  it("ignores words and AIP chapters that look like one", () => {
    expect(designatorsIn("AND 1 SEP 1 WED 600 PPR 24HR")).toEqual([]);
    expect(designatorsIn("REF AIP ENR 5.1-83")).toEqual([]);
    expect(designatorsIn("REF AIP AUSTRIA ENR 5.1-4.", "LO")).toEqual([]);
  });

  it("says where the expression naming a list starts and ends", () => {
    const text = "RESTRICTED AREAS LF-R201 B1 B2 'OLORON' ACTIVATED";
    const [first, second] = designatorMatches(text, { prefix: "LF" });
    expect([first?.designator, second?.designator]).toEqual(["LFR201B1", "LFR201B2"]);
    expect(text.slice(first!.at, first!.end)).toBe("LF-R201 B1 B2");
  });
});

describe("the forms of issue 58's states", () => {
  it("IT: a sector after a slash or a blank; FI, NO, EE, DK, ES as their offices write them", () => {
    expect(designatorsIn("RESTRICTED AREA LI R308/A (TERMOLI) ACT REF AIP ENR 5.1.2-29", "LI")).toEqual(["LIR308A"]);
    expect(designatorsIn("30) RESTRICTED AREA LI-R49 A:\nLATERAL LIMITS: REF AIP", "LI")).toEqual(["LIR49A"]);
    expect(designatorsIn("EFD170A, EFD170B BATVIK ACT.", "EF")).toEqual(["EFD170A", "EFD170B"]);
    expect(designatorsIn("MIL OPR AREA ENT139Z (J2Z) ACTIVATED.", "EN")).toEqual(["ENT139Z"]);
    expect(designatorsIn("DANGER AREA END156 'HENGSVANN' ACTIVATED", "EN")).toEqual(["END156"]);
    expect(designatorsIn("TEMPORARY SEGREGATED AREA EETSA21 NURMSI ACT", "EE")).toEqual(["EETSA21"]);
    expect(designatorsIn("RESTRICTED AREA EKR45 HEVRING ACTIVATED.", "EK")).toEqual(["EKR45"]);
    expect(designatorsIn("LER71A ACTIVATED FOR AIR OPERATIONS", "LE")).toEqual(["LER71A"]);
  });

  it("the NOTAM keys of the topsky files: EU CBA10 over Finland and Sweden, Denmark's EKTRAHA1", () => {
    // forms the EFIN and EKDK files' .keys.json give (test data; the corpus check is test/corpus/keys-forms.test.ts)
    expect(designatorsIn("EU CBA10 ACTIVATED", "EF")).toEqual(["EUCBA10"]);
    expect(designatorsIn("EUCBA10 ACT", "EF")).toEqual(["EUCBA10"]);
    expect(designatorsIn("EKTRAHA1 ACTIVATED", "EK")).toEqual(["EKTRAHA1"]);
    // EU is no state's prefix: only its CBAs read
    expect(designatorsIn("EU R10 ACTIVATED", "EF")).toEqual([]);
  });
});

describe("a test per state", () => {
  it("FR: hyphen or blank, sector lists in every form, CBA", () => {
    expect(designatorsIn("RESTRICTED AREAS LF-R201 B1 B2 'OLORON' ACTIVATED", "LF")).toEqual(["LFR201B1", "LFR201B2"]);
    expect(designatorsIn("LF-D596 A/B/C ACTIVE", "LF")).toEqual(["LFD596A", "LFD596B", "LFD596C"]);
    expect(designatorsIn("LF-R 336 A ET B ACTIVE", "LF")).toEqual(["LFR336A", "LFR336B"]);
    expect(designatorsIn("ZONE LF-R 45 A TO D ACTIVE", "LF")).toEqual(["LFR45A", "LFR45B", "LFR45C", "LFR45D"]);
    expect(designatorsIn("LFR31 (A1, A2, H) ACTIVE", "LF")).toEqual(["LFR31A1", "LFR31A2", "LFR31H"]);
    expect(designatorsIn("LFCBA-16B ACTIVE.", "LF")).toEqual(["LFCBA16B"]);
    expect(designatorsIn("LF-R205/2 ACT", "LF")).toEqual(["LFR205.2"]);
    // several kinds of one prefix in one list; `ET` is "and", not Egypt's prefix
    expect(designatorsIn("LF-R65-R66 ET D67 ACTIVES", "LF")).toEqual(["LFR65", "LFR66", "LFD67"]);
    // a zone of the NOTAM's own country without its prefix
    expect(designatorsIn("ZONE R45A BOURGOGNE ACTIVE", "LF")).toEqual(["LFR45A"]);
  });

  it("DE: ED-R with or without hyphen and blank, a second part's underscore", () => {
    expect(designatorsIn("RESTRICTED AREA EDR132B (HEUBERG) ACT.", "ED")).toEqual(["EDR132B"]);
    expect(designatorsIn("ED-R 132B ACTIVE", "ED")).toEqual(["EDR132B"]);
    expect(designatorsIn("EDR150 (NLFS40) ACTIVE:", "ED")).toEqual(["EDR150"]);
    expect(designatorsIn("ED-R10C_2 TODENDORF-PUTLOS NOTAM")).toEqual(["EDR10C"]);
    expect(designatorsIn("ED-R PEENEMUENDE (NOTAM)")).toEqual([]);
    // French `ET D67` read in a German NOTAM is not ED's area: a spaced prefix needs its own country
    expect(designatorsIn("ET D67", "ED")).toEqual([]);
  });

  it("AT: LO R 7 and LOD 25A, the name beside it ignored", () => {
    expect(designatorsIn("RESTRICTED AREA LIZUM - LO R 7 - ACTIVATED:", "LO")).toEqual(["LOR7"]);
    expect(designatorsIn("DANGER AREA MARWIESEN - LOD28 - ACTIVATED:", "LO")).toEqual(["LOD28"]);
    expect(designatorsIn("LOD 25A ACTIVE", "LO")).toEqual(["LOD25A"]);
    expect(designatorsIn("LOR7 (LIZUM) ACT", "LO")).toEqual(["LOR7"]);
  });

  it("CH: LSR39B glued, after R-AREA", () => {
    expect(designatorsIn("R-AREA LSR39B BRISEN ACT.", "LS")).toEqual(["LSR39B"]);
    expect(designatorsIn("R-AREA LSR7 HONGRIN ACT DUE TO FRNG.", "LS")).toEqual(["LSR7"]);
  });

  it("SI: LJR4 in English and Slovene", () => {
    expect(designatorsIn("RESTRICTED AREA LJR4 PIVKA-ILIRSKA BISTRICA ACTIVATED.", "LJ")).toEqual(["LJR4"]);
    expect(designatorsIn("OBMOCJE OMEJENEGA PROMETA LJR4 PIVKA-ILIRSKA BISTRICA AKTIVIRANO.", "LJ")).toEqual(["LJR4"]);
  });

  it("PL: EPD15, the glued EPTR767A, EP TSA 5A, and airspace names without the prefix", () => {
    expect(designatorsIn("DANGER AREA EPD15 - ACT.", "EP")).toEqual(["EPD15"]);
    expect(designatorsIn("EPTR767A ACT", "EP")).toEqual(["EPTR767A"]);
    expect(designatorsIn("EP TSA 5A ACTIVE", "EP")).toEqual(["EPTSA5A"]);
    // `TR`/`TS` only glued: `EP TR 5` is not a Polish area
    expect(designatorsIn("EP TR 5 ACTIVE", "EP")).toEqual([]);
    expect(designatorMatches("R 129 STRZELNICA", { prefix: "EP", name: true }).map((m) => m.designator)).toEqual([
      "EPR129",
    ]);
    expect(designatorMatches("TS 05F", { prefix: "EP", name: true }).map((m) => m.designator)).toEqual(["EPTS5F"]);
  });

  it("CZ: national TSA/TRA take LK's prefix", () => {
    expect(designatorsIn("TSA 2 ACTIVE", "LK")).toEqual(["TSA2", "LKTSA2"]);
    expect(designatorsIn("LKTRA 65 ACT", "LK")).toEqual(["LKTRA65"]);
    expect(designatorsIn("LKR1 ACT", "LK")).toEqual(["LKR1"]);
  });

  it("IT: LI R 64/A, the sector after a slash", () => {
    expect(designatorsIn("LI R 64/A ACTIVE", "LI")).toEqual(["LIR64A"]);
    expect(designatorsIn("RESTRICTED AREA LI R308/A (TERMOLI) ACT", "LI")).toEqual(["LIR308A"]);
    expect(designatorsIn("RESTRICTED AREA LI R308/B  / TERMOLI BIS / ACT.", "LI")).toEqual(["LIR308B"]);
    // a spaced `LI` of unknown country is also a word
    expect(designatorsIn("LI R308/A")).toEqual([]);
    // a slash before a level is not a sector
    expect(designatorsIn("LF-R 45/FL100", "LF")).toEqual(["LFR45"]);
  });

  it("GB: EG D with leading zeros, lists with AND", () => {
    expect(designatorsIn("TEMPO DANGER AREA (TDA) EG D098D ACTIVATED")).toEqual(["EGD98D"]);
    expect(designatorsIn("EGD701A 0900-1300 SFC-UNL EGD701B 1300-2100")).toEqual(["EGD701A", "EGD701B"]);
    expect(designatorsIn("EGD701A, 701B AND 701C ACTIVE")).toEqual(["EGD701A", "EGD701B", "EGD701C"]);
  });

  it("SE: further sectors as bare letters after a glued one (ESSA-B0193/26)", () => {
    const text = "TEMPORARY RAISED AREA\nESR28A, B AND C AND TEMPORARY RESTRICTED AREAS ESR783 TOFTA OSTER\nAND ESR784";
    expect(designatorsIn(text, "ES")).toEqual(["ESR28A", "ESR28B", "ESR28C", "ESR783", "ESR784"]);
    // a word after the joint is no sector
    expect(designatorsIn("EDR132B AND ALL FLIGHTS", "ED")).toEqual(["EDR132B"]);
    expect(designatorsIn("EDR132B, A PARACHUTE DROP", "ED")).toEqual(["EDR132B"]);
    expect(designatorsIn("EGD701A, 701B AND 701C ACTIVE")).toEqual(["EGD701A", "EGD701B", "EGD701C"]);
  });

  it("kinds of one state's making, glued to prefix and number (real Item E texts)", () => {
    // NATS PIB: UK UAS restricted areas
    expect(designatorsIn("EGRU185 NSA BOSCOMBE DOWN")).toEqual(["EGRU185"]);
    // ENGM, SOFIA brief ENGM-YSCB 2026-02-09
    expect(designatorsIn("MIL OPR AREA ENT139Z (J2Z) ACTIVATED. MIL ACTIVITY", "EN")).toEqual(["ENT139Z"]);
    // LDZA, SOFIA brief LEMD-UHWW 2026-02-09
    expect(designatorsIn("TEMPORARY RESERVED AREA 'LDATR103' ESTABLISHED WI FLW COORD:", "LD")).toEqual(["LDATR103"]);
    // EPWW, SOFIA brief LPPT-EPWA 2026-02-07
    expect(designatorsIn("ARE ALLOWED TO BE PLANNED VIA EPNPZ4", "EP")).toEqual(["EPNPZ4"]);
    // apart from the prefix or the number they are words, not kinds
    expect(designatorsIn("EN T139", "EN")).toEqual([]);
    expect(designatorsIn("ENT 139", "EN")).toEqual([]);
    expect(designatorsIn("LFT1", "LF")).toEqual([]);
  });

  it("BE: TRA lists with slashes, national kinds glued to the prefix", () => {
    expect(designatorsIn("TRA 4/5/6 ACTIVATED", "EB")).toEqual(["TRA4", "EBTRA4", "TRA5", "EBTRA5", "TRA6", "EBTRA6"]);
    expect(designatorsIn("TEMPO SEGREGATED AREA EBTSA13A-CHANNEL A ACTIVATED")).toEqual(["EBTSA13A"]);
    // prose after a kind is not a sector
    expect(designatorsIn("TRA IS ACTIVE", "EB")).toEqual([]);
  });
});
