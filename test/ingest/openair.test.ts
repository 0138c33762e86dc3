import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { bearingDeg, distanceM, type LatLon } from "../../src/geo/geodesy.js";
import { readOpenAir } from "../../src/ingest/openair.js";
import { decodeText } from "../../src/ingest/text.js";
import type { AirspaceRecord, ReadResult } from "../../src/model/airspace.js";

const FIXTURES = "fixtures/ingest/openair";
const CORPUS = "/work/shared/data/airspace";
const NM = 1852;

const read = (text: string) => readOpenAir(text, "test.txt");
const ring = (r: AirspaceRecord) => r.geometry[0]?.[0] ?? [];
const at = ([lon, lat]: [number, number]): LatLon => ({ lat, lon });
const codes = (res: ReadResult) => res.diagnostics.map((d) => d.code);
const acBlocks = (text: string) => text.split(/\r\n|\r|\n/).filter((l) => /^\s*AC(\s|$)/i.test(l)).length;

/** A block with the given body lines and a default triangle when none is given. */
function block(
  head: string[],
  geometry = ["DP 47:00:00 N 008:00:00 E", "DP 47:10:00 N 008:10:00 E", "DP 47:05:00 N 008:20:00 E"],
) {
  return [...head, ...geometry, ""].join("\n");
}

function round6(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? value : Math.round(value * 1e6) / 1e6;
  if (Array.isArray(value)) return value.map(round6);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, round6(v)]));
  }
  return value;
}

describe("golden files (UPDATE_GOLDEN=1 rewrites them)", () => {
  const cases = readdirSync(FIXTURES).filter((f) => f.endsWith(".txt"));
  it("has the fixtures", () => expect(cases.length).toBeGreaterThanOrEqual(5));
  for (const file of cases) {
    it(file, () => {
      const text = decodeText(readFileSync(join(FIXTURES, file))).text;
      const got = round6(readOpenAir(text, file));
      const goldenPath = join(FIXTURES, file.replace(/\.txt$/, ".expected.json"));
      if (process.env.UPDATE_GOLDEN === "1") writeFileSync(goldenPath, `${JSON.stringify(got, null, 2)}\n`);
      expect(existsSync(goldenPath), `${goldenPath} missing: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(got).toEqual(JSON.parse(readFileSync(goldenPath, "utf8")));
    });
  }
});

describe("coordinates", () => {
  it("carries seconds written as 60 into minutes (42:40:60 N = 42°41'00\")", () => {
    const res = read(block(["AC R", "AN SIXTY", "AL GND", "AH FL50", "DP 42:40:60 N 001:59:60 E"]));
    expect(res.diagnostics).toEqual([]);
    const [lon, lat] = ring(res.records[0]!)[0]!;
    expect(lat).toBeCloseTo(42 + 41 / 60, 12);
    expect(lon).toBeCloseTo(2, 12);
  });

  it("reads decimal minutes, no seconds, compact hemispheres, S and W", () => {
    const res = read(
      block(["AC R", "AN FORMS", "AL GND", "AH FL50", "DP 45:15.531N 014:18.333E", "DP 48:29 S 009:11 W"]),
    );
    const r = ring(res.records[0]!);
    expect(r[0]![1]).toBeCloseTo(45 + 15.531 / 60, 12);
    expect(r[0]![0]).toBeCloseTo(14 + 18.333 / 60, 12);
    expect(r[1]).toEqual([-(9 + 11 / 60), -(48 + 29 / 60)]);
  });

  it("skips only the record with a malformed coordinate", () => {
    const text = [
      block(["AC R", "AN FIRST", "AL GND", "AH FL50"]),
      block(["AC R", "AN BROKEN", "AL GND", "AH FL50", "DP 47:61:00 N 008:00:00 E"]),
      block(["AC R", "AN THIRD", "AL GND", "AH FL50"]),
    ].join("\n");
    const res = read(text);
    expect(res.records.map((r) => r.name)).toEqual(["FIRST", "THIRD"]);
    expect(res.records.map((r) => r.origin.record)).toEqual([0, 2]);
    expect(res.diagnostics).toEqual([
      {
        code: "openair.coordinate.unparsable",
        severity: "skipped",
        message: 'DP not understood: "47:61:00 N 008:00:00 E"',
        source: "test.txt",
        line: 13,
        record: 1,
        name: "BROKEN",
        excerpt: "DP 47:61:00 N 008:00:00 E",
      },
    ]);
  });

  it("ignores a comment after a coordinate and CRLF line ends", () => {
    const text = block(["AC R", "AN CRLF", "AL GND", "AH FL50", "DP 47:20:00 N 008:00:00 E  *coordinate modified"]);
    const res = read(text.replace(/\n/g, "\r\n"));
    expect(res.diagnostics).toEqual([]);
    expect(ring(res.records[0]!)).toHaveLength(4);
  });
});

describe("arcs and circles", () => {
  // Naviter's example centre; expected ends worked out by hand on a sphere (10 NM west: Δlon = 10'/cos φ).
  const centre = { lat: 39 + 13 / 60, lon: -(118 + 13 / 60) };
  const head = ["AC R", "AN ARC", "AL GND", "AH FL100", "V X=39:13:00N 118:13:00W"];

  it("DA: ends on the bearings at the radius (WGS 84 geodesics), clockwise by default", () => {
    const r = ring(read(block(head, ["DA 10, 270, 290"])).records[0]!);
    expect(bearingDeg(centre, at(r[0]!))).toBeCloseTo(270, 6);
    expect(bearingDeg(centre, at(r.at(-1)!))).toBeCloseTo(290, 6);
    expect(r.length).toBeGreaterThanOrEqual(5); // 20° at ≤ 5° steps, both ends included
    // every point at 10 NM, to the 6-decimal rounding of the published coordinates (< 0.2 m)
    for (const p of r) expect(Math.abs(distanceM(centre, at(p)) - 10 * NM)).toBeLessThan(0.2);
    // clockwise from 270° to 290° passes 280°, i.e. north of the west point
    expect(r[2]![1]).toBeGreaterThan(r[0]![1]);
  });

  it("DA with V D=- runs counter-clockwise the short way", () => {
    const r = ring(read(block(head, ["V D=-", "DA 10, 290, 270"])).records[0]!);
    expect(r.length).toBeLessThan(8);
    expect(r[0]![1]).toBeGreaterThan(r.at(-1)![1]);
  });

  it("DB: from coord1 to coord2 around V X=, ends within 50 m", () => {
    // ED-R4 Wannsee (DAeC 2025-06): default direction + sweeps 281°, V D=- the short 79°.
    const p1 = { lat: 52 + 22 / 60 + 40 / 3600, lon: 13 + 8 / 60 + 15 / 3600 };
    const p2 = { lat: 52 + 24 / 60 + 33 / 3600, lon: 13 + 11 / 60 + 2 / 3600 };
    const c = { lat: 52 + 24 / 60 + 38 / 3600, lon: 13 + 7 / 60 + 46 / 3600 };
    const db = [
      "V X=52:24:38 N 013:07:46 E",
      "DB 52:22:40 N 013:08:15 E, 52:24:33 N 013:11:02 E",
      "DP 52:23:08 N 013:08:27 E",
    ];
    const cw = ring(read(block(["AC R", "AN DB", "AL GND", "AH FL100"], db)).records[0]!);
    const ccw = ring(read(block(["AC R", "AN DB", "AL GND", "AH FL100"], ["V D=-", ...db])).records[0]!);
    for (const r of [cw, ccw]) {
      expect(distanceM(at(r[0]!), p1)).toBeLessThan(50);
      expect(distanceM(at(r.at(-2)!), p2)).toBeLessThan(50);
    }
    const sweep = (bearingDeg(c, p2) - bearingDeg(c, p1) + 360) % 360;
    expect(sweep).toBeGreaterThan(280);
    // arc points at ≤ 5° steps with both ends, then the closing DP
    expect(cw.length).toBe(Math.ceil(sweep / 5) + 2);
    expect(ccw.length).toBe(Math.ceil((360 - sweep) / 5) + 2);
  });

  it("DC: a closable ring of ≥ 32 segments at the radius", () => {
    const res = read(block(["AC R", "AN CIRCLE", "AL GND", "AH FL100", "V X=47:30:00 N 008:30:00 E"], ["DC 2.7"]));
    const r = ring(res.records[0]!);
    expect(r.length - 1).toBeGreaterThanOrEqual(32);
    expect(r.at(-1)).toEqual(r[0]);
    for (const p of r) expect(Math.abs(distanceM({ lat: 47.5, lon: 8.5 }, at(p)) / (2.7 * NM) - 1)).toBeLessThan(0.005);
  });

  it("DC beside points keeps the points with a warning; DC without a centre skips", () => {
    const mixed = read(block(["AC R", "AN MIXED", "AL GND", "AH FL100", "V X=47:30:00 N 008:30:00 E", "DC 1"]));
    expect(ring(mixed.records[0]!)).toHaveLength(3);
    expect(codes(mixed)).toEqual(["openair.geometry.mixedCircle"]);
    const lone = read(block(["AC R", "AN LONE", "AL GND", "AH FL100"], ["DC 1"]));
    expect(lone.records).toEqual([]);
    expect(codes(lone)).toEqual(["openair.geometry.noCentre"]);
  });

  it("fewer than 3 distinct points skips the record", () => {
    const res = read(
      block(["AC Q", "AN CABLE", "AL GND", "AH FL100"], ["DP 46:39:31 N 007:53:43 E", "DP 46:39:19 N 007:54:03 E"]),
    );
    expect(res.records).toEqual([]);
    expect(res.diagnostics[0]).toMatchObject({ code: "openair.geometry.tooFewPoints", severity: "skipped", line: 1 });
  });
});

describe("attributes", () => {
  it("skips a record with a missing or unparsable limit", () => {
    const missing = read(block(["AC R", "AN NO TOP", "AL GND"]));
    expect(missing.records).toEqual([]);
    expect(missing.diagnostics).toMatchObject([{ code: "openair.limit.missing", severity: "skipped", name: "NO TOP" }]);
    const bad = read(block(["AC R", "AN BAD TOP", "AL GND", "AH 12 furlongs"]));
    expect(bad.diagnostics).toMatchObject([{ code: "openair.limit.unparsable", severity: "skipped", line: 4 }]);
  });

  it("AA NONE: activated by NOTAM, no windows", () => {
    const r = read(block(["AC UNC", "AY R", "AN ZRT X", "AA NONE", "AL GND", "AH FL50"])).records[0]!;
    expect(r).toMatchObject({ byNotam: true, onDemand: false, onRequest: false, activeTimes: [] });
  });

  it("several AA lines: every window, normalised to seconds", () => {
    const res = read(
      block([
        "AC UNC",
        "AY R",
        "AN LJD1",
        "AA 2023-05-28T12:00Z/2023-05-28T20:00Z",
        "AA 2025-04-17T00:01:00Z/2026-04-15T23:59:00Z",
        "AA 2023-05-29T13:00Z/2023-05-29T24:00Z",
        "AL GND",
        "AH FL50",
      ]),
    );
    expect(res.diagnostics).toEqual([]);
    expect(res.records[0]).toMatchObject({
      byNotam: false,
      activeTimes: [
        { start: "2023-05-28T12:00:00Z", end: "2023-05-28T20:00:00Z" },
        { start: "2025-04-17T00:01:00Z", end: "2026-04-15T23:59:00Z" },
        { start: "2023-05-29T13:00:00Z", end: "2023-05-30T00:00:00Z" },
      ],
    });
  });

  it("a name's hours are left to the normaliser (ingest/hours.ts): the reader keeps the name as written", () => {
    const r = read(block(["AC R", "AN ED-R PEENEMUENDE (NOTAM)", "AL GND", "AH FL50"])).records[0]!;
    expect([r.name, r.byNotam, r.hours]).toEqual(["ED-R PEENEMUENDE (NOTAM)", false, undefined]);
  });

  it("unknown AC class: kept as type 0, class 8, with a warning", () => {
    const res = read(block(["AC XYZ", "AN ODD", "AL GND", "AH FL50"]));
    expect(res.records[0]).toMatchObject({ type: 0, icaoClass: 8 });
    expect(res.diagnostics).toMatchObject([{ code: "openair.class.unknown", severity: "warning", excerpt: "AC XYZ" }]);
  });

  it("maps v1 AC and v2 AC+AY", () => {
    const one = (head: string[]) => read(block([...head, "AN X", "AL GND", "AH FL50"])).records[0]!;
    expect(one(["AC R "])).toMatchObject({ type: 1, icaoClass: 8 });
    expect(one(["AC W"])).toMatchObject({ type: 21, icaoClass: 8 });
    expect(one(["AC C"])).toMatchObject({ type: 0, icaoClass: 2 });
    expect(one(["AC D", "AY TMA"])).toMatchObject({ type: 7, icaoClass: 3 });
    expect(one(["AC UNC", "AY GSEC"])).toMatchObject({ type: 21, icaoClass: 8 });
    const unknownType = read(block(["AC G", "AY ZZZ", "AN X", "AL GND", "AH FL50"]));
    expect(unknownType.records[0]).toMatchObject({ type: 0, icaoClass: 6 });
    expect(codes(unknownType)).toEqual(["openair.type.unknown"]);
  });

  it("AF/AG to a primary MHz frequency, key order value, unit, name, primary", () => {
    const r = read(block(["AC D", "AY TMA", "AN T", "AF 118.480", "AG Ljubljana Info", "AL GND", "AH FL50"]))
      .records[0]!;
    expect(JSON.stringify(r.frequencies)).toBe('[{"value":"118.480","unit":2,"name":"Ljubljana Info","primary":true}]');
    const bare = read(block(["AC D", "AN T", "AF 123.5", "AL GND", "AH FL50"])).records[0]!;
    expect(bare.frequencies).toEqual([{ value: "123.5", unit: 2, primary: true }]);
  });

  it("names a nameless record after its AY/AC", () => {
    const res = read(block(["AC D", "AY TMA", "AL GND", "AH FL50"]));
    expect(res.records[0]!.name).toBe("TMA (unnamed)");
    expect(res.diagnostics).toMatchObject([{ code: "openair.name.missing", severity: "repaired" }]);
  });

  it("ids are content-derived, suffixed on repeats, and prefixable", () => {
    const twin = block(["AC R", "AN TWIN", "AL GND", "AH FL50"]);
    const res = read(`${twin}\n${twin}`);
    const [a, b] = res.records.map((r) => r.id);
    expect(a).toMatch(/^openair-[0-9a-f]{16}$/);
    expect(b).toBe(`${a}-2`);
    expect(read(twin).records[0]!.id).toBe(a);
    expect(readOpenAir(twin, "x", { idPrefix: "de" }).records[0]!.id).toBe(a!.replace("openair", "de"));
  });

  it("takes a block that only sets a class's style (`AC Q / SP … / SB …`) for no airspace, with a warning", () => {
    const style = ["AC Q", "SP 0,2,127,0,127", "SB -1,-1,-1", ""].join("\n");
    const res = read(`${style}\n${block(["AC R", "AN X", "AL GND", "AH FL50"])}`);
    expect(res.records.map((r) => r.name)).toEqual(["X"]);
    expect(res.diagnostics.map((d) => [d.code, d.severity])).toEqual([["openair.block.style", "warning"]]);
  });

  it("reports an unknown line once per kind; country stays unset", () => {
    const res = read(block(["AC R", "AN X", "XX one", "XX two", "AL GND", "AH FL50", "V W=2", "V Q=1"]));
    expect(codes(res)).toEqual(["openair.line.unknown", "openair.line.unknown"]);
    expect(res.records[0]).not.toHaveProperty("country");
  });
});

/** Invariants every OpenAir source must keep; returns the counts for the report. */
function checkFile(path: string) {
  const text = decodeText(readFileSync(path)).text;
  const source = basename(path);
  let res: ReadResult | undefined;
  expect(() => {
    res = readOpenAir(text, source);
  }).not.toThrow();
  const { records, diagnostics } = res!;
  const skipped = diagnostics.filter((d) => d.severity === "skipped").length;
  // a block that only sets a class's drawing style (the Czech aeroklub file's `AC Q / SP … / SB …`) is no airspace
  const styles = diagnostics.filter((d) => d.code === "openair.block.style").length;
  expect(records.length + skipped + styles, `${source}: records + skipped + styles = AC blocks`).toBe(acBlocks(text));
  expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
  for (const r of records) {
    expect(r.geometry).toHaveLength(1);
    expect(ring(r).length, `${source} ${r.name}`).toBeGreaterThanOrEqual(3);
    for (const [lon, lat] of ring(r)) {
      // Europe with the Canaries (their danger areas reach 25.9° N), loosely: everything in these files is
      expect(lon >= -30 && lon <= 45 && lat >= 24 && lat <= 72, `${source} ${r.name} ${lon},${lat}`).toBe(true);
    }
    expect(r.country).toBeUndefined();
  }
  return { source, blocks: acBlocks(text), records: records.length, skipped };
}

function openAirFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return openAirFiles(path);
    if (!/\.(txt|openair)$/i.test(name)) return [];
    return /^AC\s/m.test(readFileSync(path, "latin1")) ? [path] : [];
  });
}

describe("corpus", () => {
  // AC counts stated in the corpus PROVENANCE.md, cross-checked against the count taken from the text.
  const known: Record<string, number> = {
    "fr_asp_v2_2025-10.txt": 1646,
    "de_asp_v1_2022-01.txt": 662,
    "de_daec_2025-06.txt": 677,
    "ch_flyland_2016-09.txt": 334,
    "si_naviter-example_2025-05_v2.1.openair": 58,
    "pl_lotnik_2026-03.txt": 1349,
    "cz_aeroklub_2026-04.txt": 288,
  };

  it("reads every OpenAir file of the shared corpus (or, without it, the fixtures) without losing a block", () => {
    const present = existsSync(CORPUS);
    if (!present) {
      console.warn(`OpenAir corpus ${CORPUS} is absent: checking the invariants on the bundled fixtures only`);
    }
    const files = present ? openAirFiles(CORPUS) : openAirFiles(FIXTURES);
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const c = checkFile(f);
      const expected = known[c.source];
      if (expected !== undefined) expect(c.blocks, c.source).toBe(expected);
    }
    if (present) expect(files.map((f) => basename(f))).toEqual(expect.arrayContaining(Object.keys(known)));
  });
});
