// Planar helpers on [lon, lat] rings: winding, point-in-polygon and bounding boxes.
// The shoelace stays beside @turf/turf (issue 17): the repair needs the signed area itself (zero: a degenerate ring),
// where turf's booleanClockwise gives its sign only (the same sign on all 1 791 real openAIP rings, same 3 ms).
import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";

export type Position = [number, number];
export type Ring = Position[];
export type Bbox = [minX: number, minY: number, maxX: number, maxY: number];

/** Twice the signed area (shoelace); > 0 for counter-clockwise rings. Works for closed or open rings. */
export function signedArea2(ring: readonly Position[]): number {
  let sum = 0;
  const n = ring.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    sum += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return sum;
}

/**
 * Inside the exterior ring and outside every hole (a point on the boundary is inside): @turf/boolean-point-in-polygon.
 * Measured against the ray casting it replaced: the same answer on 2.54 M point × FIR-polygon tests, 508 ms to 597 ms.
 */
export function pointInPolygon(x: number, y: number, polygon: readonly (readonly Position[])[]): boolean {
  return booleanPointInPolygon([x, y], { type: "Polygon", coordinates: polygon as Position[][] });
}

export function bboxOfPolygons(polygons: readonly (readonly (readonly Position[])[])[]): Bbox {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const poly of polygons) {
    const outer = poly[0];
    if (!outer) continue;
    for (const [x, y] of outer) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  }
  return [minX, minY, maxX, maxY];
}
