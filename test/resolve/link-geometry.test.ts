// Names and geometry agree (issue 50) on real text and real airspace (fixtures/links/agreement, PROVENANCE.md there):
// a NOTAM that draws its own area links a named volume only where that area overlaps it, and a designator the file
// holds exactly links that volume, never its `Z` buffer unless the NOTAM lists it too.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import type { VerticalLimit } from "../../src/model/contract.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import type { Notam } from "../../src/model/notam.js";
import { LimitUnit, ReferenceDatum } from "../../src/model/vocab.js";
import { type NormalizedAirspace, normalizeAirspaces } from "../../src/normalize/airspace.js";
import { notamGeometry } from "../../src/notam/geometry.js";
import { readNotamSource } from "../../src/notam/read.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { disagreement, MIN_OVERLAP, overlapShare } from "../../src/resolve/link-geometry.js";
import { linksOf } from "../../src/resolve/notams.js";
import { FIXTURES } from "../helpers.js";

const DIR = path.join(FIXTURES, "links", "agreement");

function airspacesOf(file: string): NormalizedAirspace[] {
  const records = readAirspaceSource(readFileSync(path.join(DIR, file)), file).records;
  return normalizeAirspaces(records, { firs: bundledFirIndex() }, new DiagnosticSink());
}

const NOTAMS = readNotamSource(readFileSync(path.join(DIR, "epww-2026-02-07.txt")), "epww-2026-02-07.txt").notams;
const notam = (id: string): Notam => NOTAMS.find((n) => n.id === id)!;
const PL = airspacesOf("pl-lotnik-2026-03.openair");
const TR767 = airspacesOf("pl-tr767-unlettered.openair");
const names = (list: readonly NormalizedAirspace[]) => list.map((a) => a.name).sort();

describe("a NOTAM's own area against the volume its name finds (EPTR767A, B, C against a file's TR 767)", () => {
  const linker = new AirspaceLinker(TR767);
  const area = (id: string) => notamGeometry(notam(id).itemE, notam(id).q).value!;

  it("reads each sub-volume's own numbered points as one polygon", () => {
    for (const id of ["D0436/26", "D0437/26", "D0438/26"]) {
      expect(area(id)).toMatchObject({ source: "itemE", shape: "polygon", geometry: { type: "Polygon" } });
    }
  });

  it("measures sub-volume A on the file's TR 767 whole, B and C beside it sharing only an edge", () => {
    const tr767 = TR767[0]!.geometry;
    expect(overlapShare(area("D0436/26").geometry, tr767)).toBeGreaterThan(0.99);
    expect(overlapShare(area("D0437/26").geometry, tr767)).toBeLessThan(0.01);
    expect(overlapShare(area("D0438/26").geometry, tr767)).toBeLessThan(0.01);
    expect(MIN_OVERLAP).toBeGreaterThan(0.01);
  });

  it("links EPTR767A to TR 767, and leaves B and C unsure there: the area is named, the volume is not", () => {
    expect(names(linksOf(notam("D0436/26"), linker)!.airspaces)).toEqual(["TR 767"]);
    for (const id of ["D0437/26", "D0438/26"]) {
      const r = linksOf(notam(id), linker)!;
      expect(r.airspaces, id).toEqual([]);
      expect(names(r.unsure), id).toEqual(["TR 767"]);
    }
  });
});

describe("a designator the file holds exactly (TR 501, TR 501Z, TR 503 of the Polish file)", () => {
  const linker = new AirspaceLinker(PL);

  it("links EPTR501 and its buffer EPTR501Z when the NOTAM lists both, each with its own area", () => {
    expect(names(linksOf(notam("D0226/26"), linker)!.airspaces)).toEqual(["TR 501", "TR 501Z"]);
  });

  it("links EPTR501 alone when the NOTAM names EPTR501 alone, never its Z buffer", () => {
    // the NOTAM's first paragraph: EPTR501 with its own points
    const n = notam("D0226/26");
    const alone = { ...n, itemE: n.itemE.split("\n\n")[0]! };
    expect(alone.itemE).not.toContain("501Z");
    const r = linksOf(alone, linker)!;
    expect(names(r.airspaces)).toEqual(["TR 501"]);
    expect(r.unsure).toEqual([]);
    // the designator alone, without an area of its own
    expect(names(linksOf({ ...n, itemE: "TEMPORARY RESERVED AREA EPTR501 - MIL ACT." }, linker)!.airspaces)).toEqual([
      "TR 501",
    ]);
  });

  it("links EPTR503 when the file lacks the EPTR503Z the NOTAM also names", () => {
    const r = linksOf(notam("D0275/26"), linker)!;
    expect(names(r.airspaces)).toEqual(["TR 503"]);
    expect(r.unmatched).toContain("EPTR503Z");
  });
});

describe("a NOTAM's own band (F, G) against the volume's", () => {
  const ft = (value: number, referenceDatum: ReferenceDatum = ReferenceDatum.MSL): VerticalLimit => ({
    value,
    unit: LimitUnit.FEET,
    referenceDatum,
  });
  const fl = (value: number): VerticalLimit => ({
    value,
    unit: LimitUnit.FLIGHT_LEVEL,
    referenceDatum: ReferenceDatum.STD,
  });
  const GND = ft(0, ReferenceDatum.GND);
  const volume = (lowerLimit: VerticalLimit, upperLimit: VerticalLimit) => ({ ...PL[0]!, lowerLimit, upperLimit });

  it.each([
    ["GND-FL160 against a TMA part FL195-FL245 (LOWW-A2923/25)", GND, fl(160), volume(fl(195), fl(245)), "vertical"],
    ["FL95-FL225 against the stacked part below it, GND-FL95", fl(95), fl(225), volume(GND, fl(95)), "vertical"],
    ["GND-3000FT AMSL against FL95-FL245", GND, ft(3000), volume(fl(95), fl(245)), "vertical"],
    ["GND-FL95 against GND-FL95", GND, fl(95), volume(GND, fl(95)), undefined],
    ["FL100-FL200 inside GND-FL245", fl(100), fl(200), volume(GND, fl(245)), undefined],
    [
      "GND-9000FT against FL95 and up (pressure against altitude: too close to say)",
      GND,
      ft(9000),
      volume(fl(95), fl(245)),
      undefined,
    ],
    [
      "1000FT AGL-2000FT AGL against 3000-5000FT MSL (ground against sea: not compared)",
      ft(1000, 0),
      ft(2000, 0),
      volume(ft(3000), ft(5000)),
      undefined,
    ],
  ])("%s", (_, lower, upper, a, expected) => {
    expect(disagreement({ lower, upper }, a)).toBe(expected);
  });
});
