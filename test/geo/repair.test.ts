import { describe, expect, it } from "vitest";
import { repairPolygons } from "../../src/geo/repair.js";
import { checkAreaGeometry } from "../../src/geo/rfc7946.js";
import { ringSelfIntersects } from "../../src/geo/self-intersection.js";
import type { RawRing } from "../../src/model/airspace.js";

const square: RawRing = [
  [8, 50],
  [9, 50],
  [9, 51],
  [8, 51],
  [8, 50],
];

describe("repairPolygons", () => {
  it("leaves a valid counter-clockwise closed ring alone", () => {
    const r = repairPolygons([[square]]);
    expect(r.ok && r.repairs).toEqual([]);
    expect(r.ok && r.geometry).toEqual({ type: "Polygon", coordinates: [square] });
  });

  it("takes a position that rounding leaves as it is, and copies one it rounds or that has a third number", () => {
    const ring = [
      [8, 50],
      [9.1234567891, 50],
      [9, 51, 120],
      [8, 51],
      [8, 50],
    ] as unknown as RawRing;
    const r = repairPolygons([[ring]]);
    if (!r.ok || r.geometry.type !== "Polygon") throw new Error("expected a polygon");
    const [out] = r.geometry.coordinates;
    expect(out).toEqual([
      [8, 50],
      [9.123457, 50],
      [9, 51],
      [8, 51],
      [8, 50],
    ]);
    expect(out![0]).toBe(ring[0]);
    expect(out![3]).toBe(ring[3]);
    expect(out![1]).not.toBe(ring[1]);
    expect(out![2]).not.toBe(ring[2]);
    // the closing position is a copy of the first, not the first itself
    expect(out![4]).not.toBe(out![0]);
    expect(ring[1]).toEqual([9.1234567891, 50]);
  });

  it("closes an open ring, rewinds a clockwise one, drops repeats, rounds to 6 decimals", () => {
    const cwOpen: RawRing = [
      [8, 50],
      [8, 51],
      [8, 51],
      [9.1234567891, 51],
      [9, 50],
    ];
    const r = repairPolygons([[cwOpen]]);
    if (!r.ok) throw new Error(r.message);
    expect(r.repairs).toEqual([
      "geometry.precisionReduced",
      "geometry.repeatedPoints",
      "geometry.rewound",
      "geometry.ringClosed",
    ]);
    expect(r.geometry.coordinates).toEqual([
      [
        [8, 50],
        [9, 50],
        [9.123457, 51],
        [8, 51],
        [8, 50],
      ],
    ]);
    expect(checkAreaGeometry(r.geometry)).toEqual([]);
  });

  it("winds holes clockwise and drops a degenerate hole", () => {
    const holeCcw: RawRing = [
      [8.2, 50.2],
      [8.8, 50.2],
      [8.8, 50.8],
      [8.2, 50.8],
    ];
    const flat: RawRing = [
      [8.3, 50.3],
      [8.4, 50.3],
      [8.3, 50.3],
    ];
    const r = repairPolygons([[square, holeCcw, flat]]);
    if (!r.ok) throw new Error(r.message);
    expect(r.repairs).toContain("geometry.holeDropped");
    expect(r.repairs).toContain("geometry.rewound");
    expect(r.geometry.coordinates).toHaveLength(2);
    expect(checkAreaGeometry(r.geometry)).toEqual([]);
  });

  it("skips a ring of fewer than three distinct points as degenerate", () => {
    const r = repairPolygons([
      [
        [
          [8, 50],
          [9, 50],
          [8, 50],
        ],
      ],
    ]);
    expect(r).toMatchObject({ ok: false, code: "geometry.degenerate" });
  });

  it("skips positions outside the lon/lat range", () => {
    const r = repairPolygons([
      [
        [
          [8, 50],
          [190, 50],
          [9, 51],
        ],
      ],
    ]);
    expect(r).toMatchObject({ ok: false, code: "geometry.outOfRange" });
  });

  it("keeps the good polygon of a multipolygon and drops the degenerate one", () => {
    const r = repairPolygons([
      [square],
      [
        [
          [1, 1],
          [1, 1],
        ],
      ],
    ]);
    if (!r.ok) throw new Error(r.message);
    expect(r.geometry.type).toBe("Polygon");
    expect(r.repairs).toContain("geometry.polygonDropped");
  });

  it("cuts a ring that reads the same backwards to its way there (PL lotnik.org `RMZ EPRA`, `FIS SIAULIAI`)", () => {
    const there: RawRing = [
      [21.38, 51.52],
      [21.57, 51.46],
      [21.61, 51.38],
      [21.59, 51.28],
      [21.53, 51.21],
    ];
    const a = there[0]!;
    const back = [...there.slice(1)].reverse();
    for (const ring of [
      // round and back: `a b c d e a a e d c b`, with and without the last `a`
      [...there, a, a, ...back],
      [...there, a, ...back, a],
      // out and back without closing first: `a b c d e e d c b a`
      [...there, ...[...there].reverse()],
    ]) {
      const r = repairPolygons([[ring]]);
      if (!r.ok) throw new Error(r.message);
      expect(r.repairs).toContain("geometry.retraced");
      expect(r.geometry.coordinates[0]).toHaveLength(6);
      expect(checkAreaGeometry(r.geometry)).toEqual([]);
    }
    // a ring that comes back to its start and goes on elsewhere is not retraced: left to the self-intersection check
    const figureEight: RawRing = [...there, a, [21.2, 51.6], [21.1, 51.5], [21.25, 51.45]];
    const r = repairPolygons([[figureEight]]);
    expect(r.ok && r.repairs).not.toContain("geometry.retraced");
  });

  it("flags a bow-tie ring as self-intersecting", () => {
    // the lobes differ in size, so the ring still has an area (a symmetric bow-tie has none)
    const bowtie: RawRing = [
      [0, 0],
      [2, 2],
      [2, 0],
      [0, 1],
      [0, 0],
    ];
    expect(ringSelfIntersects(bowtie)).toBe(true);
    expect(ringSelfIntersects(square)).toBe(false);
    const r = repairPolygons([[bowtie]]);
    expect(r.ok && r.selfIntersects).toBe(true);
  });
});

describe("checkAreaGeometry", () => {
  it("reports unclosed rings, clockwise exteriors, short rings and out-of-range positions", () => {
    const codes = (coords: number[][][]) =>
      checkAreaGeometry({ type: "Polygon", coordinates: coords as [number, number][][] }).map((v) => v.code);
    expect(codes([square.slice(0, 4)])).toContain("rfc7946.ringNotClosed");
    expect(codes([[...square].reverse()])).toEqual(["rfc7946.winding"]);
    expect(codes([square.slice(0, 3)])).toEqual(["rfc7946.ringTooShort"]);
    expect(
      codes([
        [
          [8, 50],
          [200, 50],
          [9, 51],
          [8, 50],
        ],
      ]),
    ).toEqual(["rfc7946.position"]);
  });
});

describe("ringSelfIntersects on convex and star rings", () => {
  it("a convex ring (circle) is simple; a pentagram that turns twice is not", () => {
    const circle: Array<[number, number]> = [];
    for (let i = 0; i <= 64; i++) circle.push([Math.cos((i * Math.PI) / 32), Math.sin((i * Math.PI) / 32)]);
    expect(ringSelfIntersects(circle)).toBe(false);
    const star: Array<[number, number]> = [];
    for (let i = 0; i <= 5; i++) star.push([Math.cos((i * 4 * Math.PI) / 5), Math.sin((i * 4 * Math.PI) / 5)]);
    expect(ringSelfIntersects(star)).toBe(true);
  });
});
