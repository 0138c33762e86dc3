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
    for (const [r, ring] of poly.entries()) checkRing(ring as Position[], `polygon ${p} ring ${r}`, r === 0, out);
  }
  return out;
}

function checkRing(ring: readonly Position[], where: string, exterior: boolean, out: GeometryViolation[]): void {
  for (const pos of ring) {
    const [x, y] = pos;
    if (pos.length !== 2 || !(Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90)) {
      out.push({ code: "rfc7946.position", message: `${where}: position ${JSON.stringify(pos)} is not [lon, lat]` });
      return;
    }
  }
  if (ring.length < 4) {
    out.push({ code: "rfc7946.ringTooShort", message: `${where}: ${ring.length} positions, at least 4 needed` });
    return;
  }
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) {
    out.push({ code: "rfc7946.ringNotClosed", message: `${where}: first and last positions differ` });
  }
  const ccw = signedArea2(ring) > 0;
  if (ccw !== exterior) {
    out.push({
      code: "rfc7946.winding",
      message: `${where}: ${exterior ? "exterior ring must be counter-clockwise" : "hole must be clockwise"}`,
    });
  }
}
