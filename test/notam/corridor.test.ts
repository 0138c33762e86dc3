// A corridor that doubles back on itself (docs/notam-geometry.md): the area within its width of the line, holes kept,
// checked against @turf/buffer (jsts, an independent implementation) on two real UK gliding routes.
import * as turf from "@turf/turf";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { describe, expect, it } from "vitest";
import { GEOMETRY_ISSUES, notamGeometry, parseCoordinates } from "../../src/notam/geometry.js";
import { parseQLine } from "../../src/notam/qline.js";

// UK PIB (Jonty/uk-notam-archive), H5665/24 and H6934/25: out and back, the second around a hole
const LASHAM = `GLIDING COMPETITION ACFT ROUTING:
511105N 0010621W (LASHAM WEST)
513243N 0015113W (SWINDON W)
512709N 0011837W (CHIEVELEY)
512458N 0014358W (MARLBOROUGH)
511110N 0010159W (LASHAM ARP)
60 GLIDERS TRANSITING AT 0-5000FT AGL WI 5NM OF ROUTE.`;
const TETBURY = `GLIDING COMPETITION ACFT ROUTING:
513844N 0021004W (TETBURY)
510742N 0021937W (KILMINGTON)
511115N 0023209W (SHEPTON MALLETT)
513024N 0014806W (WROUGHTON)
515806N 0020200W (BISHOP CLEEVE NW)
514221N 0020754W (ASTON DOWN)
75 GLIDERS TRANSITING AT 0-5000FT AGL WI 5NM OF ROUTE.`;
const qLine = (text: string) => {
  const r = parseQLine(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

type Area = Feature<Polygon | MultiPolygon>;
const area = (f: Area | null) => (f ? turf.area(f) : 0);

describe("a corridor that doubles back", () => {
  it.each([
    ["H5665/24", 0, LASHAM, "EGTT/QWGLW/IV/M/AW/000/060/5122N00127W020"],
    ["H6934/25", 1, TETBURY, "EGTT/QWGLW/IV/M/W/000/060/5133N00210W030"],
  ])("%s is the line's 5 NM buffer, %i hole(s), never a hull", (_, holes, text, q) => {
    const { value, issues } = notamGeometry(text, qLine(q));
    expect(issues.map((i) => i.code)).toEqual([GEOMETRY_ISSUES.corridorOverlaps]);
    expect(value?.geometry.type).toBe("Polygon");
    const drawn = turf.feature(value!.geometry) as Area;
    expect((value!.geometry.coordinates as number[][][]).length - 1).toBe(holes);
    const line = turf.lineString(parseCoordinates(text).map((c) => [c.lon, c.lat]));
    const reference = turf.buffer(line, 5, { units: "nauticalmiles", steps: 9 }) as Area;
    const common = area(turf.intersect(turf.featureCollection([drawn, reference])) as Area | null);
    // the two differ only in where the round caps' vertices fall
    expect(common / area(reference)).toBeGreaterThan(0.995);
    expect((area(drawn) - common) / area(reference)).toBeLessThan(0.005);
    // the hull of the route would take in everything between the legs
    expect(area(drawn) / area(turf.convex(turf.featureCollection([reference])) as Area)).toBeLessThan(0.9);
  });
});
