// Border, coast and FIR stretches (issue 57 §2): the words that say so, in the states' own phrasing, and the line
// followed between the two written points, never the chord; where it cannot be followed, the Q-line circle. The
// hand-drawn cases are in test/notam/areas.test.ts.
import { execFileSync } from "node:child_process";
import * as turf from "@turf/turf";
import { describe, expect, it } from "vitest";
import { boundaryPaths } from "../../src/geo/borders.js";
import type { QLine } from "../../src/model/notam.js";
import { borderStretch } from "../../src/notam/geometry/border-text.js";
import { GEOMETRY_ISSUES, notamGeometry } from "../../src/notam/geometry.js";
import { parseQLine } from "../../src/notam/qline.js";
import { ROOT } from "../helpers.js";

const q = (text: string): QLine => {
  const r = parseQLine(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe("the words of a border stretch", () => {
  it.each([
    // EETN A0223/26
    [" - THEN ALONG THE\nTERRITORY DIVIDING LINE BETWEEN ESTONIA AND RUSSIA TO ", "state", ["EE", "RU"], undefined],
    // EPWW D8193/25
    ["\nTHEN ALONG THE STATE BORDER TO THE POINT:\n1. ", "state", [], undefined],
    // EPWW D0220/26
    ["\nNEXT ALONG BORDER TO POINT\n6. ", "state", [], undefined],
    // UMMD O1336/25
    [" - FURTHER\nCLOCKWISE ALONG THE STATE BORDER OF THE REPUBLIC OF BELARUS TO\n", "state", ["BY"], true],
    // EPWW D8738/25, and its Polish text N8738/25
    ["\nTHEN COUNTERCLOCKWISE ALONG THE STATE BORDER TO THE POINT:\n1. ", "state", [], false],
    ["\nDALEJ WZDLUZ GRANICY PANSTWA PRZECIWNIE DO RUCHU WSKAZOWEK ZEGARA\nDO PUNKTU:\n1. ", "state", [], false],
    // ULLL Q1370/26, ETCZ M2732/25
    ["-THEN ALONG STATE BDRY TO-", "state", [], undefined],
    [" ALONG COAST LINE TO ", "coast", [], undefined],
    // the held-out forms the issue quotes: Hungarian lists, `-UKRAINIAN BORDER-`
    [" - STATE BORDER - ", "state", [], undefined],
    ["-UKRAINIAN BORDER-", "state", ["UA"], undefined],
    [" THEN ALONG EPWW FIR BDRY TO ", "fir", [], undefined],
  ])("%j", (gap, kind, states, clockwise) => {
    const b = borderStretch(gap, 0);
    expect(b).toMatchObject({ kind, states });
    expect(b?.clockwise).toBe(clockwise);
  });

  it.each([
    " - 592818N 0280236E TO THE BORDER CROSSING POINT AND ",
    "(FIR BOUNDARY)--DJA(DVOR/DME)114.1MHZ/88X\n",
    " PERMISSION FROM ESTONIAN POLICE AND BORDER GUARD BOARD. ",
  ])("is no stretch: %j", (gap) => expect(borderStretch(gap, 0)).toBeUndefined());
});

// EETN A0223/26, its Item E verbatim
const EER2509B =
  "TEMPO RESTRICTED AREA EER2509B ESTABLISHED DUE TO UNMANNED\nAIRCRAFT ACTIVITY WI: 593300N 0273900E - 593519N 0274213E - 592818N\n0280236E - THEN ALONG THE TERRITORY DIVIDING LINE BETWEEN ESTONIA AND\nRUSSIA TO 584722N 0272141E - 584800N 0271600E - 585959N 0271000E -\n593300N 0273900E.";

describe("a stretch followed", () => {
  it("follows the Estonia–Russia line from Narva to Lake Peipus, not the chord", () => {
    const r = notamGeometry(EER2509B, q("EETT/QRTCA/IV/BO/W/000/035/5912N02730E025"));
    expect(r.issues).toEqual([]);
    expect(r.value).toMatchObject({ source: "itemE", shape: "polygon", followed: 1 });
    const ring = r.value!.geometry.type === "Polygon" ? r.value!.geometry.coordinates[0]! : [];
    expect(ring.length).toBeGreaterThan(20);
    // every vertex between the two written ends lies on the border Natural Earth draws
    const border = boundaryPaths(
      { kind: "state", states: ["EE", "RU"] },
      { lat: 59.47, lon: 28.04 },
      { lat: 58.79, lon: 27.36 },
    );
    expect(border.ok).toBe(true);
    const line = turf.lineString(border.ok ? border.paths[0]!.map((p) => [p.lon, p.lat]) : []);
    const written = new Set(["28.043333,59.471667", "27.361389,58.789444", "27.266667,58.8", "27.166667,58.999722"]);
    const added = ring.filter((p) => !written.has(p.join()) && p[1]! < 59.47 && p[1]! > 58.79);
    expect(added.length).toBeGreaterThan(15);
    const off = added.filter((p) => turf.pointToLineDistance(turf.point(p), line, { units: "kilometers" }) > 1);
    expect(off).toEqual([]);
  });

  it("goes the way the text says round a state's outline (EPWW D8738/25: counter-clockwise, eastern Poland)", () => {
    const text =
      "NAV WRNG FOR AIRSPACE:\nLATERAL LIMITS (WGS-84):\n1. 550320N0184457E\n2. 532856N0184613E\n3. 522825N0193912E\n4. 513316N0213143E\n5. 504151N0214358E\n6. 491941N0205255E\nTHEN COUNTERCLOCKWISE ALONG THE STATE BORDER TO THE POINT:\n1. 550320N0184457E\nVERTICAL LIMITS: GND-FL95";
    const r = notamGeometry(text, q("EPWW/QRMXX/IV/BO/W/000/095/5220N02216E210"));
    expect(r.value?.source).toBe("itemE");
    const ring = r.value!.geometry.type === "Polygon" ? r.value!.geometry.coordinates[0]! : [];
    // the ring reaches Poland's eastern border (the Bug, 24° E), never its western one (14° E)
    expect(Math.max(...ring.map((p) => p[0]!))).toBeGreaterThan(23.9);
    expect(Math.min(...ring.map((p) => p[0]!))).toBeGreaterThan(18.4);
  });

  it("falls back to the Q-line circle, named, where the points lie off every border", () => {
    const text =
      "AREA: 500000N 0100000E - 501000N 0101000E - THEN ALONG THE STATE BORDER TO 500000N 0102000E - 500000N 0100000E";
    const r = notamGeometry(text, q("EDGG/QRTCA/IV/BO/W/000/035/5005N01010E010"));
    expect(r.value?.source).toBe("qLine");
    expect(r.issues.map((i) => i.code)).toContain(GEOMETRY_ISSUES.borderUnfollowed);
    expect(r.issues.find((i) => i.code === GEOMETRY_ISSUES.borderUnfollowed)?.text).toMatch(/km from the border of DE/);
  });

  // the built code in a process of its own: a day's NOTAMs without a border stretch never read Natural Earth
  it("reads the boundary data only when a NOTAM needs it, and again after it was let go", () => {
    const script = `
      import { boundariesLoaded, releaseBoundaries } from "./dist/src/geo/borders.js";
      import { notamGeometry } from "./dist/src/notam/geometry.js";
      import { parseQLine } from "./dist/src/notam/qline.js";
      const q = parseQLine("EETT/QRTCA/IV/BO/W/000/035/5912N02730E025").value;
      const before = process.memoryUsage().rss;
      notamGeometry("UAS OPR WI 2NM RADIUS OF 591200N 0273000E", q);
      const plain = boundariesLoaded();
      const first = JSON.stringify(notamGeometry(${JSON.stringify(EER2509B)}, q).value);
      const border = boundariesLoaded();
      releaseBoundaries();
      const released = !boundariesLoaded();
      const again = JSON.stringify(notamGeometry(${JSON.stringify(EER2509B)}, q).value) === first;
      console.log(JSON.stringify({ plain, border, released, again, mib: (process.memoryUsage().rss - before) / 2 ** 20 }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    const r = JSON.parse(out.trim().split("\n").pop()!) as Record<string, boolean>;
    // read for the border stretch, let go (as the NOTAM stage does once it has drawn), read again when needed
    expect([r.plain, r.border, r.released, r.again]).toEqual([false, true, true, true]);
  });
});
