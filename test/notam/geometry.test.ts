// NOTAM Item E geometry (docs/design.md §2, §4): named tests per coordinate spelling and per shape, golden files of real
// Item E texts (fixtures/notam-geometry), properties. The corpus run is test/notam/geometry-corpus.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { distanceM, METERS_PER_NM, roughDistanceM } from "../../src/geo/geodesy.js";
import { pointInPolygon } from "../../src/geo/planar.js";
import { checkAreaGeometry } from "../../src/geo/rfc7946.js";
import type { AreaGeometry } from "../../src/model/contract.js";
import type { QLine } from "../../src/model/notam.js";
import { farthestM, GEOMETRY_ISSUES, notamGeometry, parseCoordinates } from "../../src/notam/geometry.js";
import { parseQLine } from "../../src/notam/qline.js";
import { expectGolden, FIXTURES } from "../helpers.js";

const NM = METERS_PER_NM;
const qLine = (text: string): QLine => {
  const r = parseQLine(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const Q = qLine("EGTT/QWULW/IV/BO/W/000/010/5130N00027W005");
const polygons = (g: AreaGeometry) => (g.type === "Polygon" ? [g.coordinates] : g.coordinates);
/** Radius of a circle ring around the first coordinate of the text. */
/** NOTAM circles are drawn on the sphere (src/geo/geodesy.ts): measured on it. */
const radiusOf = (text: string, ring: number[][]) =>
  roughDistanceM(parseCoordinates(text)[0]!, { lon: ring[0]![0]!, lat: ring[0]![1]! });
const expectNear = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThan(1 + 1e-4 * expected);
const itemE = (text: string, q: QLine | undefined = Q) => {
  const r = notamGeometry(text, q);
  if (r.value) expect(checkAreaGeometry(r.value.geometry)).toEqual([]);
  return r;
};

describe("parseCoordinates: spellings", () => {
  const S = 51 + 30 / 60 + 17 / 3600;
  const W = -(26 / 60 + 42 / 3600);
  it.each([
    ["513017N 0002642W", S, W],
    ["513017N0002642W", S, W],
    ["5130N00027W", 51.5, -0.45],
    ["513017.5N 0002642.3W", S + 0.5 / 3600, W - 0.3 / 3600],
    ["513017,5N 0002642,3W", S + 0.5 / 3600, W - 0.3 / 3600],
    ["51 30 17N 000 26 42W", S, W],
    ["N513017 W0002642", S, W],
    ["51°30'17\"N 000°26'42\"W", S, W],
    ["51°30’17″N 000°26’42″W", S, W],
    ["5130.5N 00027.5W", 51 + 30.5 / 60, -(27.5 / 60)],
    ["N324841E350212 (dropped leading zero)", 32 + 48 / 60 + 41 / 3600, 35 + 2 / 60 + 12 / 3600],
    ["261046S 0281323E", -(26 + 10 / 60 + 46 / 3600), 28 + 13 / 60 + 23 / 3600],
    ["513017N\n0002642W (line break)", S, W],
    ["513017N 000 2642W (a lone space)", S, W],
    ["572738N - 0014652W (stray hyphen)", 57 + 27 / 60 + 38 / 3600, -(1 + 46 / 60 + 52 / 3600)],
    ["543939.5N 0061259.W (stray full stop)", 54 + 39 / 60 + 39.5 / 3600, -(6 + 12 / 60 + 59 / 3600)],
    ["5540N 2330W (two-digit longitude)", 55 + 40 / 60, -23.5],
    ["424060N 0010000E (seconds 60 carried)", 42 + 41 / 60, 1],
    ["PSN 513017N 0002642W (the N of PSN is no hemisphere)", S, W],
    ["1.513017N0002642W (Poland's point 1, its number glued)", S, W],
    ["10.513017N0002642W (point 10)", S, W],
  ])("reads %s", (text, lat, lon) => {
    const [c, ...rest] = parseCoordinates(text);
    expect(rest).toEqual([]);
    expect(c!.lat).toBeCloseTo(lat, 9);
    expect(c!.lon).toBeCloseTo(lon, 9);
  });

  it.each([
    "FREQ 122.480MHZ OR 125.650MHZ",
    "MAX HGT 400FT AGL/650FT AMSL, 2000FT SFC",
    "B) 2406021130 C) 2406021730",
    "AR-2024-305/AU3 A1234/26 NOTAMN",
    "FOR INFO 07817 266960 OR 01624 827546",
    "RWY 09/27 AND 18N/36S",
    "516000N 0002642W (minutes 60)",
    "510635N 5012927E (longitude 501°)",
    "48135N0094929E (five-digit latitude)",
  ])("ignores %s", (text) => expect(parseCoordinates(text)).toEqual([]));

  // every spelling from real text of the SOFIA briefs (fixtures/notam-areas): LIIC, EDDZ, LFFA, ETCZ
  it.each([
    [
      "5103265N 01343169E (EDDZ E0862/26: tenths glued)",
      undefined,
      51 + 3 / 60 + 26.5 / 3600,
      13 + 43 / 60 + 16.9 / 3600,
    ],
    ["433604.72 N 0035234.97 E (LFFA P3664/25)", undefined, 43 + 36 / 60 + 4.72 / 3600, 3 + 52 / 60 + 34.97 / 3600],
    [
      "532823N01106\n06E (ETCZ M0008/26: split by a line break)",
      undefined,
      53 + 28 / 60 + 23 / 3600,
      11 + 6 / 60 + 6 / 3600,
    ],
    ["AREA: 54\n5000N0100000E (ETCZ M2732/25)", undefined, 54 + 50 / 60, 10],
    ["N28\n0839E0980807 (hemisphere first, split)", undefined, 28 + 8 / 60 + 39 / 3600, 98 + 8 / 60 + 7 / 3600],
    [
      "4638487N 1420211E (tenths, the leading zero dropped)",
      undefined,
      46 + 38 / 60 + 48.7 / 3600,
      14 + 20 / 60 + 21.1 / 3600,
    ],
    // LFFA P4021/25 `4908325N 0004328W`, Q-line 4909N00043W: the longitude has no tenths, the centre tells
    ["4908325N 0004328W", { centre: { lat: 49.15, lon: -0.72 } }, 49 + 8 / 60 + 32.5 / 3600, -(43 / 60 + 28 / 3600)],
    ["43.837628N 18.297363E (LQBH A4591/25: decimal degrees)", undefined, 43.837628, 18.297363],
    [
      "49.26.18.00N, 007.31.50.90 E (ETCZ M0329/26: dotted)",
      undefined,
      49 + 26 / 60 + 18 / 3600,
      7 + 31 / 60 + 50.9 / 3600,
    ],
    [
      "4638487N 1420211E",
      { centre: { lat: 46.63, lon: 14.33 } },
      46 + 38 / 60 + 48.7 / 3600,
      14 + 20 / 60 + 21.1 / 3600,
    ],
  ])("reads %s", (text, near, lat, lon) => {
    const [c, ...rest] = parseCoordinates(text, near);
    expect(rest).toEqual([]);
    expect(c!.lat).toBeCloseTo(lat, 9);
    expect(c!.lon).toBeCloseTo(lon, 9);
  });

  it("joins digits across a line break only where the pieces make a coordinate", () => {
    expect(parseCoordinates("MAX HGT 2500\n5130N 00027W")).toMatchObject([{ lat: 51.5, lon: -0.45 }]);
    expect(parseCoordinates("FL095\n1. 535759N 0233016E")).toHaveLength(1);
  });

  it("finds every coordinate in order, with its position", () => {
    const text = "AREA 513017N 0002642W - 5131N00028W, N513200 W0002900.";
    const cs = parseCoordinates(text);
    expect(cs.map((c) => text.slice(c.at, c.end))).toEqual(["513017N 0002642W", "5131N00028W", "N513200 W0002900"]);
  });

  it("reads back any coordinate in every spelling (property)", () => {
    const two = (n: number) => String(n).padStart(2, "0");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 90 * 3600 - 1 }), fc.integer({ min: 0, max: 180 * 3600 - 1 }), (a, b) => {
        const dms = (s: number, w: number) => [
          String(Math.floor(s / 3600)).padStart(w, "0"),
          two(Math.floor(s / 60) % 60),
          two(s % 60),
        ];
        const [ld, lm, ls] = dms(a, 2);
        const [od, om, os] = dms(b, 3);
        for (const text of [
          `${ld}${lm}${ls}S ${od}${om}${os}E`,
          `${ld} ${lm} ${ls}N ${od} ${om} ${os}W`,
          `S${ld}${lm}${ls} W${od}${om}${os}`,
        ]) {
          const [c] = parseCoordinates(`WI ${text}.`);
          expect(Math.abs(c!.lat) * 3600).toBeCloseTo(a, 6);
          expect(Math.abs(c!.lon) * 3600).toBeCloseTo(b, 6);
        }
      }),
    );
  });
});

describe("notamGeometry: circles", () => {
  it.each([
    ["WI 2NM RADIUS OF 513017N 0002642W", 2 * NM],
    ["RADIUS 2NM CENTRED ON 513017N 0002642W", 2 * NM],
    ["CIRCLE RADIUS 0.5NM CENTRE 513017N 0002642W", 0.5 * NM],
    ["A CIRCLE OF 5NM RADIUS CENTRED ON 513017N 0002642W", 5 * NM],
    ["UAS OPR WI 500M OF PSN 513017N 0002642W (PLACE)", 500],
    ["WI 2KM RADIUS OF 513017N 0002642W", 2000],
    ["WI 2 KILOMETRES OF 513017N 0002642W", 2000],
    ["CRANE WI 300FT RADIUS OF PSN 513017N 0002642W", 91.44],
    ["LIVE FIRING WI 1.7NM: 513017N 0002642W (PLACE)", 1.7 * NM],
    ["INCREASED ACTIVITY WI 2NM 513017N 0002642W", 2 * NM],
    ["WITHIN 0,5NM OF 513017N 0002642W", 0.5 * NM],
    ["WI 0.5 RADIUS OF PSN 513017N 0002642W (unit missing: NM)", 0.5 * NM],
    ["UAS OPR PSN 513017N 0002642W (PLACE, COUNTY) WI 0.5KM RADIUS.", 500],
    ["MODEL ACFT 1.5 NM NW OF AD 513017N 0002642W. RADIUS 0.3NM. MAX HT 400FT AGL", 0.3 * NM],
  ])("%s", (text, radius) => {
    const { value, issues } = itemE(text);
    expect(issues).toEqual([]);
    expect(value).toMatchObject({ source: "itemE", shape: "circle", geometry: { type: "Polygon" } });
    const ring = polygons(value!.geometry)[0]![0]!;
    expect(ring.length).toBeGreaterThanOrEqual(33);
    expectNear(radiusOf(text, ring), radius);
  });

  it("one circle per position when the text says so: `MULTIPLE LOCATIONS`, `PSNS … OR …`", () => {
    for (const text of [
      "UAS OPR IN MULTIPLE LOCATIONS WI 50M RADIUS OF PSN 513017N 0002642W - 513117N 0002742W - 513217N 0002642W",
      "THE AREA WI 1KM RADIUS CENTERED PSNS N331621E0353457 OR N331638E0353447 CLSD",
    ]) {
      const g = itemE(text, undefined).value!.geometry;
      expect(g.type).toBe("MultiPolygon");
      expect(polygons(g).length).toBe(text.includes(" OR ") ? 2 : 3);
    }
  });
});

describe("notamGeometry: polygons", () => {
  const P = ["513000N 0003000W", "513000N 0002000W", "514000N 0002000W"];
  const shapeOf = (text: string) => itemE(text).value!;
  it.each([
    `AREA BOUNDED BY ${P.join(" - ")} - ${P[0]}`,
    `WI AREA ${P.join(" - ")}`,
    `WITHIN ${P[0]} - ${P.join(" - ")} - ${P[0]}.`,
    `UAS OPR WI FOLLOWING COORDINATES: ${P.join(", ")} (PLACE). MAX HGT 400FT AGL`,
    `AREA BOUNDED BY STRAIGHT LINES JOINING SUCCESSIVELY THE FOLLOWING POINTS:\n${P.join("\n")}\n${P[0]}`,
    // Poland's numbered points, with the first again at the end (EPWW-D0491/26, EPWW-D0226/26)
    `LATERAL LIMITS:\n1. ${P[0]}\n2. ${P[1]}\n3. ${P[2]}\n1. ${P[0]}\nVERTICAL LIMITS: GND - 3500FT AMSL`,
    `LATERAL LIMITS:\n${P.map((p, i) => `${i + 1}.${p.replace(" ", "")}`).join("\n")}\n1.${P[0]!.replace(" ", "")}`,
  ])("%s", (text) => {
    const v = shapeOf(text);
    expect(v).toMatchObject({ source: "itemE", shape: "polygon", geometry: { type: "Polygon" } });
    expect(v.geometry.coordinates).toEqual([
      [
        [-0.5, 51.5],
        [-1 / 3, 51.5],
        [-1 / 3, 51 + 2 / 3],
        [-0.5, 51.5],
      ].map(([x, y]) => [Math.round(x! * 1e6) / 1e6, Math.round(y! * 1e6) / 1e6]),
    ]);
  });

  it("several areas are one MultiPolygon", () => {
    const text = `AREA 1: ${P.join(" - ")}. SFC-2000FT.\nAREA 2: 520000N 0010000W - 520000N 0005000W - 521000N 0005000W.`;
    expect(polygons(shapeOf(text).geometry).length).toBe(2);
  });

  it("a track with a width either side is a corridor around it", () => {
    const v = shapeOf("WI 2NM EITHER SIDE OF TRACK AND 2NM RADIUS OF 513000N 0003000W - 513000N 0002000W (PLACE)");
    expect(v.shape).toBe("polygon");
    const ring = polygons(v.geometry)[0]![0]!;
    const mid = { lat: 51.5, lon: -5 / 12 };
    const far = Math.max(...ring.map(([lon, lat]) => distanceM(mid, { lon: lon!, lat: lat! })));
    expect(far).toBeCloseTo(distanceM(mid, { lat: 51.5, lon: -0.5 }) + 2 * NM, -1);
  });
});

describe("notamGeometry: arcs", () => {
  // a 5 NM sector around 51°N 0°: the arc runs from north to east, clockwise (90°) or anti-clockwise (270°)
  const Q0 = qLine("EGTT/QRTCA/IV/BO/W/000/010/5100N00000E006");
  const sector = (dir: string) =>
    `AREA BOUNDED BY 510000N 0000000E - 510500N 0000000E THEN ${dir} ALONG AN ARC OF 5NM RADIUS CENTRED ON ` +
    "510000N 0000000E TO 510000N 0000757E - 510000N 0000000E";
  const northEast = { lat: 51.0255, lon: 0.0405 }; // bearing 45°, 2.2 NM
  const southWest = { lat: 50.9745, lon: -0.0405 };
  const inside = (g: AreaGeometry, p: { lat: number; lon: number }) =>
    polygons(g).some((poly) => pointInPolygon(p.lon, p.lat, poly as [number, number][][]));
  it.each(["CLOCKWISE", "CW", "THE CLOCKWISE ARC OF A CIRCLE,"])("%s: the short way, through the north-east", (dir) => {
    const { value, issues } = itemE(sector(dir), Q0);
    expect(issues).toEqual([]);
    expect(value?.shape).toBe("arc-polygon");
    expect([inside(value!.geometry, northEast), inside(value!.geometry, southWest)]).toEqual([true, false]);
  });
  it.each(["ANTI-CLOCKWISE", "ANTICLOCKWISE", "COUNTERCLOCKWISE", "COUNTER-CLOCKWISE", "ACW", "CCW"])(
    "%s: the long way, through the south-west",
    (dir) => {
      const g = itemE(sector(dir), Q0).value!.geometry;
      expect([inside(g, northEast), inside(g, southWest)]).toEqual([false, true]);
    },
  );
  it("`… CENTRED ON c FROM p1 TO p2` and `… BTN p1 AND p2` name both ends", () => {
    const c = "RADIUS OF 5NM CENTRED ON 510000N 0000000E";
    const a = itemE(
      `BOUNDED BY THE CLOCKWISE ARC OF A CIRCLE HAVING A ${c} FROM 510500N 0000000E TO 510000N 0000757E`,
      Q0,
    );
    const b = itemE(
      `BOUNDED BY THE CLOCKWISE ARC OF A CIRCLE HAVING A ${c} BTN 510500N 0000000E AND 510000N 0000757E`,
      Q0,
    );
    expect(a.value?.shape).toBe("arc-polygon");
    expect(b.value?.geometry).toEqual(a.value?.geometry);
  });
});

describe("notamGeometry: points and the Q-line", () => {
  it("a lone point is a 500 m point-circle", () => {
    const text = "CRANE OPR PSN 513017N 0002642W MAX JIB HGT 180FT AGL";
    const { value } = itemE(text, qLine("EGTT/QOBCE/IV/M/AE/000/003/5130N00027W001"));
    expect(value?.shape).toBe("point-circle");
    expectNear(radiusOf(text, polygons(value!.geometry)[0]![0]!), 500);
  });
  it("an obstacle NOTAM's list of points is one point-circle per point; elsewhere such a list is a line", () => {
    const text = "2 CRANES OPR PSNS 543047N 0012446W AND 543050N 0012452W (TEESSIDE AD) MAX HGT 112FT AGL";
    const obstacle = itemE(text, qLine("EGNT/QOBCE/IV/M/AE/000/003/5431N00125W001")).value!;
    expect(obstacle).toMatchObject({ source: "itemE", shape: "point-circle", geometry: { type: "MultiPolygon" } });
    expect(itemE(text, qLine("EGNT/QWULW/IV/M/AE/000/003/5431N00125W001")).value?.source).toBe("qLine");
  });
  it("no coordinates: the Q-line circle, with no issue (the caller says it is coarse)", () => {
    const { value, issues } = itemE("PJE WILL TAKE PLACE. FOR INFO 01234 567890.");
    expect(issues).toEqual([]);
    expect(value).toMatchObject({ source: "qLine", shape: "circle" });
    expectNear(farthestM(value!.geometry, Q.centre!), 5 * NM);
  });
  it("NOTAMs of one Q-line circle share one circle frozen down to its rings; its positions stay unfrozen", () => {
    const first = itemE("PJE WILL TAKE PLACE.").value!;
    const drawn = JSON.stringify(first.geometry);
    const ring = polygons(first.geometry)[0]![0]!;
    expect(() => ring.push([0, 0])).toThrow(TypeError);
    expect(() => {
      ring[0] = [0, 0];
    }).toThrow(TypeError);
    expect(Object.isFrozen(first.geometry)).toBe(true);
    // a frozen [lon, lat] would box its numbers, and teach V8 to box every position made where it was made
    expect(Object.isFrozen(ring[0])).toBe(false);
    const second = itemE("GLIDER FLYING.").value!;
    expect(second.geometry).toBe(first.geometry);
    expect(JSON.stringify(second.geometry)).toBe(drawn);
    const other = itemE("GLIDER FLYING.", qLine("EGTT/QWULW/IV/BO/W/000/010/5130N00027W006")).value!;
    expect(other.geometry).not.toBe(first.geometry);
    expectNear(farthestM(other.geometry, Q.centre!), 6 * NM);
  });
  it("a route without a width is no area: the Q-line circle and why", () => {
    const r = itemE(
      "UAS OPR BEYOND VISUAL LINE OF SIGHT ROUTING 580150N 0042335W - 580238N 0042513W - 580324N 0042506W",
    );
    expect(r.value?.source).toBe("qLine");
    expect(r.issues.map((i) => i.code)).toEqual([GEOMETRY_ISSUES.lineWithoutWidth, GEOMETRY_ISSUES.itemEUnused]);
  });
  it.each([
    ["radius 999", qLine("EGGX/QRALW/IV/NBO/W/240/270/5229N01900W999")],
    ["no radius", qLine("LFFF/QWELW/IV/BO/W/000/065/4900N00200E")],
    ["no Q-line", undefined],
  ])("%s: no geometry, an issue", (_, q) => {
    const r = notamGeometry("AIRSPACE RESERVATION OF THE OCEANIC TRACKS", q);
    expect(r.value).toBeUndefined();
    expect(r.issues.map((i) => i.code)).toEqual([GEOMETRY_ISSUES.noQCircle]);
  });
  it("a ring that crosses itself falls back to the Q-line circle", () => {
    const r = itemE(
      "AREA BOUNDED BY 513000N 0003000W - 514000N 0002000W - 513000N 0002000W - 514000N 0003000W - 513500N 0003500W",
    );
    expect(r.value?.source).toBe("qLine");
    expect(r.issues.map((i) => i.code)).toEqual([GEOMETRY_ISSUES.invalid]);
  });

  // DAAA A0454/26 `PSN : 342900N 0055900E 342900N 0061000E 342100N 0055900E 342100N 0061000E`: NW, NE, SW, SE
  it("four corners written in crossing order are the box they span, with a diagnostic", () => {
    const r = itemE(
      "AREA BOUNDED BY 513000N 0003000W - 514000N 0002000W - 513000N 0002000W - 514000N 0003000W",
      qLine("EGTT/QRTCA/IV/BO/W/000/010/5135N00025W010"),
    );
    expect(r.value).toMatchObject({ source: "itemE", shape: "polygon" });
    expect(r.issues.map((i) => i.code)).toEqual([GEOMETRY_ISSUES.crossingBox]);
    const ring = polygons(r.value!.geometry)[0]![0]!;
    expect(new Set(ring.map((p) => p.join()))).toEqual(
      new Set(["-0.5,51.5", "-0.333333,51.666667", "-0.333333,51.5", "-0.5,51.666667"]),
    );
  });
});

describe("notamGeometry: real Item E texts (golden)", () => {
  const dir = path.join(FIXTURES, "notam-geometry");
  const cases = readdirSync(dir).filter((f) => f.endsWith(".json") && !f.endsWith(".expected.json"));
  it("has a dozen cases or more", () => expect(cases.length).toBeGreaterThanOrEqual(12));
  it.each(cases)("%s", (file) => {
    const fx = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    const result = itemE(fx.itemE, qLine(fx.qLine));
    expect(result.value?.source ?? null).toBe(fx.expect.source);
    if (fx.expect.shape) expect(result.value?.shape).toBe(fx.expect.shape);
    expect(result.issues.map((i) => i.code)).toEqual(fx.expect.issues ?? []);
    expectGolden(path.join(dir, file.replace(/\.json$/, ".expected.json")), result);
  });
});

describe("notamGeometry: invariants", () => {
  const token = fc.constantFrom(
    "513017N 0002642W",
    "5130N00027W",
    "N513017 W0002642",
    "510635N 5012927E",
    " - ",
    ", ",
    "\n",
    ". ",
    "WI",
    "RADIUS",
    "2NM",
    "0.5",
    "500M",
    "OF",
    "PSN",
    "CENTRED ON",
    "CLOCKWISE",
    "ANTI-CLOCKWISE",
    "ARC",
    "CIRCLE",
    "FROM",
    "TO",
    "BTN",
    "AND",
    "OR",
    "THEN",
    "AREA BOUNDED BY",
    "EITHER SIDE OF TRACK",
    "ROUTING",
    "MULTIPLE",
    "(PLACE)",
    "400FT AGL",
    "1",
  );
  it("never throws; every geometry passes the RFC 7946 checks; every issue code is known (property)", () => {
    const known = new Set<string>(Object.values(GEOMETRY_ISSUES));
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.boolean(), (tokens, withQ) => {
        const r = itemE(tokens.join(" "), withQ ? Q : undefined);
        for (const i of r.issues) expect(known.has(i.code)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it("a 5 KB Item E takes milliseconds", () => {
    const two = (n: number) => String(n).padStart(2, "0");
    const pts = Array.from(
      { length: 250 },
      (_, i) => `5${Math.floor(i / 60)}${two(i % 60)}00N 000${two((7 * i) % 60)}00W`,
    );
    const text = `AREA BOUNDED BY ${pts.join(" - ")} THEN CLOCKWISE ARC OF 5NM RADIUS CENTRED ON 513017N 0002642W TO ${pts[0]}`;
    expect(text.length).toBeGreaterThan(4000);
    const t0 = performance.now();
    for (let k = 0; k < 10; k++) notamGeometry(text, Q);
    expect((performance.now() - t0) / 10).toBeLessThan(100);
  });
});
