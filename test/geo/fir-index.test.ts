import { describe, expect, it } from "vitest";
import { bundledFirIndex, FirIndex } from "../../src/geo/fir-index.js";
import { circleRing } from "../../src/geo/geodesy.js";
import { countryOfIcao } from "../../src/geo/icao-prefixes.js";
import type { Position } from "../../src/geo/planar.js";

const firs = bundledFirIndex();
const around = (lat: number, lon: number, nm: number): Position[][][] => [[circleRing({ lat, lon }, nm * 1852, 32)]];

describe("bundled FIR index", () => {
  it.each([
    [50.03, 8.57, "EDGG"], // Frankfurt
    [48.35, 11.79, "EDMM"], // Munich
    [53.63, 9.99, "EDWW"], // Hamburg
    [49.01, 2.55, "LFFF"], // Paris CDG
    [51.47, -0.45, "EGTT"], // Heathrow
    [47.46, 8.55, "LSAS"], // Zurich
    [48.11, 16.57, "LOVV"], // Vienna
    [50.9, 4.48, "EBBU"], // Brussels
  ])("puts a 5 NM circle at %f, %f in %s", (lat, lon, ident) => {
    expect(firs.locate(around(lat, lon, 5))?.fir.ident).toBe(ident);
    expect(firs.atPoint(lon, lat)?.ident).toBe(ident);
  });

  it("chooses the FIR holding most of a feature that straddles a boundary", () => {
    // a box mostly west of the EDGG/EDMM boundary near 49.4N 10.0E would be EDGG; check both sides
    const west: Position[][][] = [
      [
        [
          [8.5, 49.0],
          [9.5, 49.0],
          [9.5, 49.3],
          [8.5, 49.3],
          [8.5, 49.0],
        ],
      ],
    ];
    expect(firs.locate(west)?.fir.ident).toBe("EDGG");
  });

  it("falls back to the nearest FIR for a feature outside every FIR, and says so", () => {
    // the bundled FIRs cover the globe (rest-of-world blobs), so this uses an index of two small FIRs
    const box = (x: number, y: number): Position[][][] => [
      [
        [
          [x, y],
          [x + 1, y],
          [x + 1, y + 1],
          [x, y + 1],
          [x, y],
        ],
      ],
    ];
    const small = new FirIndex([
      { ident: "AAAA", prefix: "AA", name: "A", polygons: box(0, 0) },
      { ident: "BBBB", prefix: "BB", name: "B", polygons: box(10, 0) },
    ]);
    expect(small.locate(around(0.5, 0.5, 5))).toMatchObject({ how: "overlap", fir: { ident: "AAAA" } });
    expect(small.locate(around(0.5, 8, 5))).toMatchObject({ how: "nearest", fir: { ident: "BBBB" } });
  });
});

describe("countryOfIcao", () => {
  it.each([
    ["EDGG", "DE"],
    ["LFFF", "FR"],
    ["EGTT", "GB"],
    ["ETNL", "DE"],
    ["GCCC", "ES"],
    ["UMKK", "RU"],
    ["LYBA", "RS"],
  ])("%s → %s", (icao, cc) => expect(countryOfIcao(icao)).toBe(cc));

  it("knows no country for an unknown prefix", () => expect(countryOfIcao("ZZZZ")).toBeUndefined());
});
