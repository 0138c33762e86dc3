// The linker on hand-made airspaces named as real sources name them (openAIP 2018 FR/BE, YAIXM), one behaviour per
// test; the real-data figures are test/resolve/link-eval.test.ts.
import { describe, expect, it } from "vitest";
import { AirspaceType } from "../../src/model/vocab.js";
import type { NormalizedAirspace } from "../../src/normalize/airspace.js";
import { AirspaceLinker, type LinkQuery } from "../../src/resolve/link.js";
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
