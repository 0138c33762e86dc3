// The hand-written geometry shape check (src/publish/geometry-shape.ts) gives zod's answer on the contract's own
// AreaGeometry schema: generated geometries, valid and broken in each way the schema forbids.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AreaGeometry } from "../../src/model/contract.js";
import { areaGeometryIssue } from "../../src/publish/geometry-shape.js";

const ring = (n: number, lon = 8, lat = 50) =>
  Array.from({ length: n }, (_, i) => [lon + 0.01 * Math.cos(i), lat + 0.01 * Math.sin(i)]);
const polygon = { type: "Polygon", coordinates: [ring(5)] };
const multi = { type: "MultiPolygon", coordinates: [[ring(5)], [ring(6, 9, 51)]] };

describe("areaGeometryIssue", () => {
  it.each([
    ["a Polygon", polygon, undefined],
    ["a MultiPolygon", multi, undefined],
    ["a Point", { type: "Point", coordinates: [8, 50] }, ["type"]],
    ["an extra member", { ...polygon, bbox: [0, 0, 1, 1] }, []],
    ["no rings", { type: "Polygon", coordinates: [] }, ["coordinates"]],
    ["a ring of three", { type: "Polygon", coordinates: [ring(3)] }, ["coordinates", 0]],
    ["a triple", { type: "Polygon", coordinates: [[...ring(4), [8, 50, 100]]] }, ["coordinates", 0, 4]],
    ["a latitude of 95", { type: "Polygon", coordinates: [[...ring(4), [8, 95]]] }, ["coordinates", 0, 4, 1]],
    [
      "a longitude of NaN",
      { type: "Polygon", coordinates: [[...ring(4), [Number.NaN, 50]]] },
      ["coordinates", 0, 4, 0],
    ],
    ["an infinite latitude", { type: "Polygon", coordinates: [[...ring(4), [8, Infinity]]] }, ["coordinates", 0, 4, 1]],
    ["a string", { type: "Polygon", coordinates: [[...ring(4), ["8", 50]]] }, ["coordinates", 0, 4, 0]],
    ["no polygons", { type: "MultiPolygon", coordinates: [] }, ["coordinates"]],
    ["a bad second polygon", { type: "MultiPolygon", coordinates: [[ring(4)], [ring(2)]] }, ["coordinates", 1, 0]],
    ["null", null, []],
  ])("%s: the same verdict as zod, with the path of the first fault", (_, g, path) => {
    const issue = areaGeometryIssue(g);
    expect(issue?.path).toEqual(path);
    expect(issue === undefined).toBe(AreaGeometry.safeParse(g).success);
  });

  it("agrees with zod on generated geometries", () => {
    const coordinate = fc.oneof(
      fc.double({ min: -200, max: 200 }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -180, 180, -90, 90),
      fc.constant("8" as unknown as number),
    );
    const position = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(coordinate, coordinate) },
      { weight: 1, arbitrary: fc.array(coordinate, { maxLength: 3 }) },
    );
    const rings = fc.array(fc.array(position, { minLength: 2, maxLength: 6 }), { maxLength: 3 });
    const geometry = fc.oneof(
      fc.record({ type: fc.constant("Polygon"), coordinates: rings }),
      fc.record({ type: fc.constant("MultiPolygon"), coordinates: fc.array(rings, { maxLength: 3 }) }),
      fc.record({ type: fc.constantFrom("Polygon", "Point"), coordinates: rings, bbox: fc.constant([0, 0]) }),
    );
    fc.assert(
      fc.property(geometry, (g) => (areaGeometryIssue(g) === undefined) === AreaGeometry.safeParse(g).success),
      { numRuns: 2000 },
    );
  });
});
