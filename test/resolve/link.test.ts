// The linker on hand-made airspaces named as real sources name them (openAIP 2018 FR/BE, YAIXM), one behaviour per
// test; the real-data figures are test/resolve/link-eval.test.ts.
import { describe, expect, it } from "vitest";
import { AirspaceType } from "../../src/model/vocab.js";
import type { NormalizedAirspace } from "../../src/normalize/airspace.js";
import { allocationLinks } from "../../src/resolve/aup.js";
import { AirspaceLinker, type LinkQuery, relation } from "../../src/resolve/link.js";
import { airspace } from "../publish/fixtures.js";

/** An airspace of `name` in a 0.1° square whose south-west corner is (lon, lat). */
function named(name: string, country: string, type: number, lon: number, lat = 50): NormalizedAirspace {
  const id = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const a = airspace(id, country, lon, { name, type });
  return {
    ...a,
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [lon, lat],
          [lon + 0.1, lat],
          [lon + 0.1, lat + 0.1],
          [lon, lat + 0.1],
          [lon, lat],
        ],
      ],
    },
  };
}

const AIRSPACES = [
  named("LF-R 45 A", "FR", AirspaceType.RESTRICTED, 2),
  named("LF-R 45 B", "FR", AirspaceType.RESTRICTED, 2.1),
  named("LF-R 45 C", "FR", AirspaceType.RESTRICTED, 2.2),
  named("LF-R 45 D", "FR", AirspaceType.RESTRICTED, 2.3),
  named("TRA 4", "BE", AirspaceType.TRA, 4.5),
  named("TRA 5", "BE", AirspaceType.TRA, 4.6),
  named("TRA 6", "BE", AirspaceType.TRA, 4.7),
  named("CTR LeTouquet 118.45", "FR", AirspaceType.CTR, 1.6, 50.5),
  named("BEAUVECHAIN TMA 1A", "BE", AirspaceType.TMA, 4.7, 50.7),
  named("BEAUVECHAIN TMA 1B", "BE", AirspaceType.TMA, 4.8, 50.7),
  named("BEAUVECHAIN TMA 3", "BE", AirspaceType.TMA, 4.9, 50.7),
  named("Brussels TMA 1 (BRUSSELS DEP 126.625)", "BE", AirspaceType.TMA, 4.5, 50.8),
  named("Brussels TMA 3A", "BE", AirspaceType.TMA, 4.6, 50.8),
];
const linker = new AirspaceLinker(AIRSPACES);
const names = (q: LinkQuery) =>
  linker
    .link(q)
    .airspaces.map((a) => a.name)
    .sort();

describe("AirspaceLinker", () => {
  it("links each sector of a list written after the area (LF-R 45 A, B, C), not the sector left out", () => {
    expect(names({ text: "LF-R 45 A, B, C ACTIVE", country: "FR" })).toEqual(["LF-R 45 A", "LF-R 45 B", "LF-R 45 C"]);
  });

  it("links every area of a slash list of a national kind in the NOTAM's own country (TRA 4/5/6)", () => {
    expect(names({ text: "TRA 4/5/6 ACTIVATED", country: "BE" })).toEqual(["TRA 4", "TRA 5", "TRA 6"]);
    // a bare national kind names nothing outside its country
    expect(names({ text: "TRA 4/5/6 ACTIVATED", country: "FR" })).toEqual([]);
  });

  it("an area named without sector names all its sectors", () => {
    expect(names({ text: "LF-R45 ACTIVE", country: "FR" })).toHaveLength(4);
  });

  it("keeps an area named after unrelated context, drops one named only as a reference point", () => {
    expect(names({ text: "OUTSIDE OPS HOURS OF LFAT, LF-R 45 A IS ACTIVE", country: "FR" })).toEqual(["LF-R 45 A"]);
    expect(names({ text: "PJE AREA OUTSIDE LF-R 45 A", country: "FR" })).toEqual([]);
  });

  it("links an airspace named by kind and place only near the NOTAM's Q-line circle", () => {
    const text = "CTR LE TOUQUET HOURS OF ACTIVITY : 0700-1700";
    expect(names({ text, country: "FR", centre: { lat: 50.52, lon: 1.62 }, radiusNm: 5 })).toEqual([
      "CTR LeTouquet 118.45",
    ]);
    expect(names({ text, country: "FR", centre: { lat: 45, lon: 5 }, radiusNm: 5 })).toEqual([]);
    expect(names({ text, country: "BE" })).toEqual([]);
  });

  it("reads the aerodrome's own code as its place (EBBE TMA 1B) when one place answers in the circle", () => {
    const q = { country: "BE", locations: ["EBBE"], centre: { lat: 50.75, lon: 4.8 }, radiusNm: 10 };
    expect(names({ ...q, text: "EBBE TMA 1B PROHIBITED FOR NON PARTICIPATING ACFT" })).toEqual(["BEAUVECHAIN TMA 1B"]);
    // without Item A naming EBBE the code is just a word
    expect(names({ ...q, locations: [], text: "EBBE TMA 1B PROHIBITED" })).toEqual([]);
    // TMA 1 answers for two places in the circle (Beauvechain and Brussels), but the aerodrome's point (the Q-line
    // centre) lies in Beauvechain's alone: its own TMA 1
    expect(names({ ...q, text: "EBBE TMA 1 PROHIBITED" })).toEqual(["BEAUVECHAIN TMA 1A", "BEAUVECHAIN TMA 1B"]);
    // an aerodrome's point in two places' TMAs: no link rather than a guess
    const overlapping = new AirspaceLinker([...AIRSPACES, named("LIEGE TMA 2", "BE", AirspaceType.TMA, 4.75, 50.72)]);
    const at = { ...q, centre: { lat: 50.75, lon: 4.78 }, text: "EBBE TMA PROHIBITED", qSubject: "AT" };
    expect(overlapping.link(at).airspaces).toEqual([]);
    // alone there, the aerodrome's TMA is all of Beauvechain's
    expect(names(at)).toEqual(["BEAUVECHAIN TMA 1A", "BEAUVECHAIN TMA 1B", "BEAUVECHAIN TMA 3"]);
  });
});

// Issue 42's continental cases, on airspaces named as openAIP's FR file of 2025-10 names them.
describe("AirspaceLinker on continental forms", () => {
  const fr = new AirspaceLinker([
    named("LF-R201A1 OLORON", "FR", AirspaceType.RESTRICTED, -0.7, 43.1),
    named("LF-R201A2 OLORON", "FR", AirspaceType.RESTRICTED, -0.6, 43.1),
    named("LF-R201B OLORON", "FR", AirspaceType.RESTRICTED, -0.5, 43.1),
    named("LF-R203ABC LA COURTINE", "FR", AirspaceType.RESTRICTED, 2.2, 45.7),
    named("LF-R45A BOURGOGNE (MON-FRI)", "FR", AirspaceType.RESTRICTED, 4.5, 47),
    named("LF-R45NS LUXEMBOURG (MON-FRI)", "FR", AirspaceType.RESTRICTED, 5.9, 49.4),
    named("LF-R6A MAILLY", "FR", AirspaceType.RESTRICTED, 4.2, 48.6),
    named("LF-P7 LA HAGUE", "FR", AirspaceType.PROHIBITED, -1.9, 49.7),
    named("CTR BEAUVAIS", "FR", AirspaceType.CTR, 2.1, 49.45),
    named("TMA BEAUVAIS 1", "FR", AirspaceType.TMA, 2.0, 49.4),
    named("TMA BEAUVAIS 2.1", "FR", AirspaceType.TMA, 2.2, 49.4),
    named("ZRT AEROSTAT CAPTIF", "FR", AirspaceType.RESTRICTED, 2.7, 46.9),
  ]);
  const link = (text: string, q: Partial<LinkQuery> = {}) => {
    const r = fr.link({ text, country: "FR", ...q });
    const sorted = (list: NormalizedAirspace[]) => list.map((a) => a.name).sort();
    return {
      linked: sorted(r.airspaces),
      unsure: sorted(r.unsure),
      mentioned: sorted(r.mentioned),
      unmatched: r.unmatched,
    };
  };

  it("a named sector links the source's volume that holds it, never a sibling", () => {
    expect(link("RESTRICTED AREAS LF-R201 B1 B2 'OLORON' ACTIVATED").linked).toEqual(["LF-R201B OLORON"]);
    expect(link("LF-R201 A1 A2 ACTIVE").linked).toEqual(["LF-R201A1 OLORON", "LF-R201A2 OLORON"]);
    expect(link("ZONE REGLEMENTEE LF-R203C 'LA COURTINE' ACTIVE.").linked).toEqual(["LF-R203ABC LA COURTINE"]);
    // A3 is a sibling of A1 and A2: not linked, not unsure, reported unmatched
    expect(link("LF-R201 A3 ACTIVE")).toEqual({ linked: [], unsure: [], mentioned: [], unmatched: ["LFR201A3"] });
  });

  it("a volume the source may hold under another name leaves it unsure, not linked", () => {
    expect(link("ZONE LF-R 45 N3 ACTIVE.")).toEqual({
      linked: [],
      unsure: ["LF-R45NS LUXEMBOURG (MON-FRI)"],
      mentioned: [],
      unmatched: ["LFR45N3"],
    });
  });

  it("several kinds of one place in one phrase, near the Q-line circle", () => {
    const q = { centre: { lat: 49.45, lon: 2.11 }, radiusNm: 5 };
    expect(link("HORAIRES ACTIVATION CTR, TMA BEAUVAIS ET CTL D'AD :\n- 0445-2230", q).linked).toEqual([
      "CTR BEAUVAIS",
      "TMA BEAUVAIS 1",
      "TMA BEAUVAIS 2.1",
    ]);
  });

  it("a temporary zone named in quotes", () => {
    const q = { centre: { lat: 46.95, lon: 2.75 }, radiusNm: 3 };
    expect(link("SUP AIP 040/25 : 'ZRT AEROSTAT CAPTIF' ACTIVE", q).linked).toEqual(["ZRT AEROSTAT CAPTIF"]);
  });

  it("a kind without place at an aerodrome: the TMA whose area holds the aerodrome, from its own NOTAMs' point", () => {
    const basel = new AirspaceLinker([
      named("TMA BALE 1", "FR", AirspaceType.TMA, 7.5, 47.55),
      named("TMA BALE 2", "FR", AirspaceType.TMA, 7.3, 47.55),
      named("TMA BERN 1", "CH", AirspaceType.TMA, 7.4, 46.9),
    ]);
    const text = "RESTRICTIONS AD:\nTRAINING IFR, VFR AND TEST FLIGHTS PROHIBITED WITHIN TMA.";
    // DINS A2113/22: a 69 NM circle centred west of the TMA
    const q = {
      text,
      country: "FR",
      locations: ["LFSB"],
      centre: { lat: 47.53, lon: 6.32 },
      radiusNm: 69,
      qSubject: "AT",
    };
    expect(basel.link(q).airspaces).toEqual([]);
    const linked = basel.link({ ...q, aerodrome: { lat: 47.5833, lon: 7.5333 } }).airspaces.map((a) => a.name);
    expect(linked.sort()).toEqual(["TMA BALE 1", "TMA BALE 2"]);
  });

  it("areas named as references are mentions, never links", () => {
    const zit = link(
      "ZONE INTERDITE TEMPORAIRE (ZIT) 'MAILLY' - LUTTE ANTI-DRONE :\n1. LIMITES LATERALES :\n" +
        "IDENTIQUES A LA LF-R6A PUBLIEE A L'AIP ENR 5.1",
      { qSubject: "RO" },
    );
    expect(zit).toEqual({ linked: [], unsure: [], mentioned: ["LF-R6A MAILLY"], unmatched: [] });
    const zrt = link(
      "ZONE REGLEMENTEE TEMPORAIRE (ZRT) 'DEP JOBOURG' :\n2- STATUT :\nZONE REGLEMENTEE TEMPORAIRE " +
        "(ZRT) QUI, LORSQU'ELLE EST ACTIVE,\nCOEXISTE AVEC LA LF-P7 ET SE SUBSTITUE AUX AUTRES PORTIONS",
      { qSubject: "RT" },
    );
    expect(zrt.linked).toEqual([]);
    expect(zrt.mentioned).toEqual(["LF-P7 LA HAGUE"]);
  });
});

describe("relation of a named sector to a source's", () => {
  it.each([
    ["B", "B1", "holds"],
    ["B2", "B2N", "holds"],
    ["S6", "S6.1", "holds"],
    ["", "A", "holds"],
    ["B1", "B", "held"],
    ["B3", "B1", "sibling"],
    ["A", "F", "sibling"],
    ["N3", "NS", "unsettled"],
    ["A1", "A1", "same"],
  ] as const)("%s against %s: %s", (named, source, expected) => expect(relation(named, source)).toBe(expected));
});

// Issue 42's replay of the UK weekend (docs/activation.md §7): what the continental rules must not do at home.
describe("AirspaceLinker on the UK weekend of 2024-06-14", () => {
  it("a kind named after a place the data lacks does not link a neighbour whose box holds the aerodrome", () => {
    // YAIXM has no Isle of Man airspace; HOLYHEAD CTA's box (not its area) holds Ronaldsway
    const holyhead: NormalizedAirspace = {
      ...named("HOLYHEAD CTA", "GB", AirspaceType.CTA, -5, 53),
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [-5, 53],
            [-4, 53],
            [-4, 54.5],
            [-4.2, 54.5],
            [-4.2, 53.5],
            [-5, 53.5],
            [-5, 53],
          ],
        ],
      },
    };
    const uk = new AirspaceLinker([holyhead]);
    const q = { country: "GB", locations: ["EGNS"], centre: { lat: 54.02, lon: -4.63 }, radiusNm: 21, qSubject: "AE" };
    const text = "ISLE OF MAN CTA/CTR/ATZ TWR AND APP OPR HOURS: MON-SAT 0530-0730";
    expect(uk.link({ ...q, text }).airspaces).toEqual([]);
    // a kind without any place, at an aerodrome inside the CTA's area, is that CTA
    const inside = { ...q, centre: { lat: 53.2, lon: -4.5 }, locations: ["EGOV"] };
    expect(uk.link({ ...inside, text: "VFR TRAINING PROHIBITED WITHIN CTA." }).airspaces.map((a) => a.name)).toEqual([
      "HOLYHEAD CTA",
    ]);
  });

  it("a temporary restricted area placed by a CTR does not activate the CTR", () => {
    const uk = new AirspaceLinker([named("LONDON CITY CTR", "GB", AirspaceType.CTR, 0, 51.5)]);
    const text = "RESTRICTED AREA (TEMPORARY) ACTIVE (CORRIDOR BETWEEN WITHAM AND LONDON CITY CTR) AREA E - WI AREA";
    const q = { text, country: "GB", centre: { lat: 51.55, lon: 0.05 }, radiusNm: 10 };
    expect(uk.link({ ...q, qSubject: "RT" })).toMatchObject({
      airspaces: [],
      mentioned: [{ name: "LONDON CITY CTR" }],
    });
  });
});

describe("names the topsky files write without their state's prefix (issue 58)", () => {
  /** As `named`, read from the file `source`. */
  const inFile = (source: string, name: string, country: string, type: number, lon: number) => ({
    ...named(name, country, type, lon),
    origin: { source, record: 0 },
  });
  const IT = "it_vatita.openair";
  const files = [
    inFile(IT, "R49/A", "IT", AirspaceType.RESTRICTED, 10),
    inFile(IT, "R49/B", "IT", AirspaceType.RESTRICTED, 10.1),
    inFile(IT, "R21/A", "IT", AirspaceType.RESTRICTED, 10.2),
    inFile(IT, "R7", "IT", AirspaceType.RESTRICTED, 10.3),
    inFile(IT, "R10", "IT", AirspaceType.RESTRICTED, 10.4),
    // Italy's D40/A, which the FIR data puts in the French FIR
    inFile(IT, "D40/A", "FR", AirspaceType.DANGER, 9),
    inFile("fi_efin.openair", "TSAH01", "FI", AirspaceType.TSA, 25),
    inFile("fi_efin.openair", "TRAV27", "FI", AirspaceType.TRA, 25.1),
    inFile("no_vatsca.openair", "T116", "NO", AirspaceType.TRA, 11),
    inFile("pt_topsky.openair", "NEVER", "PT", AirspaceType.TRA, -8),
    inFile("ee_estvacc.openair", "EETS15B", "EE", AirspaceType.TSA, 26),
  ];
  const linker = new AirspaceLinker(files);
  const ids = (d: string) => linker.byDesignator(d).map((a) => a.name);

  it("the plans' designators find them, with the file's own state's prefix", () => {
    expect(ids("LIR49A")).toEqual(["R49/A"]);
    expect(ids("LID40A")).toEqual(["D40/A"]);
    expect(ids("EFTSAH01")).toEqual(["TSAH01"]);
    expect(ids("EFTRAV27")).toEqual(["TRAV27"]);
    expect(ids("ENT116")).toEqual(["T116"]);
    expect(ids("LPNEVER")).toEqual(["NEVER"]);
    expect(ids("EETSA15B")).toEqual(["EETS15B"]);
  });

  it("a buffer allocation reaches the area it buffers (EFTSAH01Z), a sector after a slash is that sector only", () => {
    const z = allocationLinks("EFTSAH01Z", linker);
    expect([z.airspaces.map((a) => a.name), z.asBuffer]).toEqual([["TSAH01"], true]);
    expect(ids("LIR49")).toEqual(["R49/A", "R49/B"]);
    // `LI-R49 E`, a sector the file lacks, is not R49/A or R49/B
    const r = linker.link({ text: "RESTRICTED AREA LI-R49 E ACT", country: "IT" });
    expect(r.airspaces).toEqual([]);
  });
});
