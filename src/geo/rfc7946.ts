// RFC 7946 checks on published area geometry: positions in range, rings closed with ≥ 4 positions,
// exterior rings counter-clockwise, holes clockwise (§3.1.6). Fast enough to run on every feature.
import type { AreaGeometry } from "../model/contract.js";
import { type Position, signedArea2 } from "./planar.js";

export interface GeometryViolation {
  code: "rfc7946.position" | "rfc7946.ringTooShort" | "rfc7946.ringNotClosed" | "rfc7946.winding" | "rfc7946.type";
  message: string;
}

export function checkAreaGeometry(geometry: AreaGeometry): GeometryViolation[] {
  const out: GeometryViolation[] = [];
  const polygons =
    geometry.type === "Polygon" ? [geometry.coordinates] : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
  if (polygons.length === 0) out.push({ code: "rfc7946.type", message: "geometry is not a Polygon or MultiPolygon" });
  for (const [p, poly] of polygons.entries()) {
    for (const [r, ring] of poly.entries()) checkRing(ring as Position[], p, r, out);
  }
  return out;
}

const where = (p: number, r: number): string => `polygon ${p} ring ${r}`;

/** Ring `r` of polygon `p`; the first is the exterior. Positions read by index: destructuring each allocated. */
function checkRing(ring: readonly Position[], p: number, r: number, out: GeometryViolation[]): void {
  const exterior = r === 0;
  for (const pos of ring) {
    const x = pos[0];
    const y = pos[1];
    if (pos.length !== 2 || !(Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90)) {
      out.push({
        code: "rfc7946.position",
        message: `${where(p, r)}: position ${JSON.stringify(pos)} is not [lon, lat]`,
      });
      return;
    }
  }
  if (ring.length < 4) {
    out.push({ code: "rfc7946.ringTooShort", message: `${where(p, r)}: ${ring.length} positions, at least 4 needed` });
    return;
  }
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) {
    out.push({ code: "rfc7946.ringNotClosed", message: `${where(p, r)}: first and last positions differ` });
  }
  const ccw = signedArea2(ring) > 0;
  if (ccw !== exterior) {
    out.push({
      code: "rfc7946.winding",
      message: `${where(p, r)}: ${exterior ? "exterior ring must be counter-clockwise" : "hole must be clockwise"}`,
    });
  }
}
