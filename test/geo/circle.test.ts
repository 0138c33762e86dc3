// NOTAM circles are drawn by hand with @turf/circle's formula (src/geo/geodesy.ts says why): the points must be
// @turf/circle's rounded to the six decimals we publish, to the bit, so the published rings are what the library
// would give.
import { circle } from "@turf/circle";
import { describe, expect, it } from "vitest";
import { roughCircleRing } from "../../src/geo/geodesy.js";

describe("roughCircleRing", () => {
  it("gives @turf/circle's ring, rounded to six decimals, to the bit, at every latitude, radius and step count", () => {
    const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let k = 0; k < 2_000; k++) {
      const centre = { lat: next() * 178 - 89, lon: next() * 360 - 180 };
      const radiusM = k % 5 === 0 ? 1 + next() * 100 : next() * 2_000_000;
      const steps = [32, 64, 72, 100][k % 4]!;
      const turf = circle([centre.lon, centre.lat], radiusM, { steps, units: "meters" }).geometry.coordinates[0]!.map(
        ([lon, lat]) => [round6(lon!), round6(lat!)],
      );
      expect(roughCircleRing(centre, radiusM, steps)).toEqual(turf);
    }
  });

  it("is closed and counter-clockwise (its signed area is positive)", () => {
    const ring = roughCircleRing({ lat: 51.5, lon: -0.1 }, 9_260, 64);
    expect(ring).toHaveLength(65);
    expect(ring[64]).toEqual(ring[0]);
    let twiceArea = 0;
    for (let i = 0; i < 64; i++) twiceArea += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
    expect(twiceArea).toBeGreaterThan(0);
  });
});
