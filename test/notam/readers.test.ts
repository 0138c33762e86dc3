// The NOTAM readers on the fixtures of fixtures/notam (PROVENANCE.md there): goldens, shared shape, the source entry.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readFaaJson } from "../../src/notam/faa-json.js";
import { fromPibStamp, readNotamJsonLines } from "../../src/notam/jsonl.js";
import { readNotamSource } from "../../src/notam/read.js";
import { readSofiaText } from "../../src/notam/sofia.js";
import { readNotamText } from "../../src/notam/text.js";
import { expectGolden, FIXTURES, HAS_SHARED, SHARED_DATA } from "../helpers.js";

const DIR = path.join(FIXTURES, "notam");
const bytes = (name: string): Uint8Array => readFileSync(path.join(DIR, name));
const golden = (name: string): string => path.join(DIR, name.replace(/\.(txt|jsonl)$/, ".expected.json"));
const CASES = [
  "icao-plain.txt",
  "icao-parens.txt",
  "uk-pib.jsonl",
  "raw-text.jsonl",
  "xctools.jsonl",
  "sofia-route.txt",
];

describe("NOTAM readers golden", () => {
  it.each(CASES)("%s", (name) => expectGolden(golden(name), readNotamSource(bytes(name), name)));
});

describe("readNotamText", () => {
  const plain = readNotamText(readFileSync(path.join(DIR, "icao-plain.txt"), "utf8"), "icao-plain.txt");
  const parens = readNotamText(readFileSync(path.join(DIR, "icao-parens.txt"), "utf8"), "icao-parens.txt");

  it("reads every NOTAM, with the line each starts on", () => {
    expect(plain.diagnostics).toEqual([]);
    expect(plain.notams.map((n) => [n.id, n.type, n.ref, n.origin.line])).toEqual([
      ["A0288/13", "R", "A0285/13", 1],
      ["V0221/22", "N", undefined, 8],
      ["A0054/22", "N", undefined, 14],
      ["A1235/09", "C", "A1234/09", 26],
      ["A0623/91", "N", undefined, 32],
    ]);
  });

  it("keeps E's line breaks, joins items sharing a line, normalises C", () => {
    const [r, , daily, cancel, multi] = plain.notams;
    expect(r?.itemE).toBe(
      "STAND 541, HUGES ROAD, JOHANNESBURG (261046S 0281323E): CRANE WITH\nDAY AND NIGHT MARKINGS ERECTED FROM GND-85FT AGL.",
    );
    expect([r?.itemA, r?.itemB, r?.itemC, r?.itemF, r?.itemG]).toEqual([
      ["FAOR"],
      "1301220938",
      "1304191230EST",
      "GND",
      "5569FT AMSL",
    ]);
    expect([daily?.itemD, daily?.q?.centre, daily?.itemF, daily?.itemG]).toEqual([
      "DAILY 2102-0031",
      undefined,
      "GND",
      "UNL",
    ]);
    expect(cancel?.itemC).toBeUndefined();
    expect(multi?.itemA).toEqual(["EGTT", "EGPX"]);
  });

  it("drops parentheses and the CREATED/SOURCE footer; a NOTAM on one line reads the same", () => {
    expect(parens.diagnostics).toEqual([]);
    expect(parens.notams.map((n) => [n.id, n.itemC])).toEqual([
      ["A0012/24", "2403052200"],
      ["A0059/24", "2404302359EST"],
      ["A0063/15", "PERM"],
      ["H3393/22", "2206212300"],
    ]);
    expect(parens.notams[0]?.itemE).toBe(
      "LIT CRANE OPR WI PSN 513017N 0002642W (WEST DRAYTON). MAX HGT \n220FT\nAGL / 328FT AMSL. CRANE REF 2023124114",
    );
    expect(parens.notams[2]?.itemE).toBe(
      "ACFT WHOSE ACN EXCEEDS PUBLISHED PCN VALUES MAY BE PARKED ON THESE POSITIONS IN CERTAIN CONDITIONS DICTATED BY TECHNICAL EVALUATION.",
    );
    expect(parens.notams[3]?.itemG).toBe("1050FT AMSL");
  });

  it("ends E only at F) or G) after a blank: other labels stay in the text", () => {
    const text =
      "A0001/26 NOTAMN\nQ) EDGG/QRTCA/IV/BO/W/000/080\nA) EDDF B) 2602010800 C) 2602011600\n" +
      "E) AREA A) AND B) CLSD, REF(F) FOLLOWS\nQ) NOT A Q-LINE\nF) SFC G) FL100";
    const [n] = readNotamText(text, "t").notams;
    expect(n?.itemE).toBe("AREA A) AND B) CLSD, REF(F) FOLLOWS\nQ) NOT A Q-LINE");
    expect([n?.itemF, n?.itemG]).toEqual(["SFC", "FL100"]);
  });
});

describe("readNotamJsonLines", () => {
  it("reads the UK PIB's split Q-line fields", () => {
    const uk = readNotamJsonLines(readFileSync(path.join(DIR, "uk-pib.jsonl"), "utf8"), "uk-pib.jsonl");
    expect(uk.diagnostics).toEqual([]);
    expect(uk.notams[0]).toMatchObject({
      id: "H3393/22",
      nof: "EGGN",
      q: { raw: "EGTT/QWULW/IV/BO/AW/000/011/5224N00152W001", lower: 0, upper: 11, radiusNm: 1 },
      origin: { source: "uk-pib.jsonl", record: 0, line: 1 },
    });
  });

  it("converts the xctools PIB stamps and lets the Q-line FIR stand in for a missing Item A", () => {
    expect(["18/09/12 12:30", "18/09/28 09:00 EST", "PERM", "soon"].map(fromPibStamp)).toEqual([
      "1809121230",
      "1809280900EST",
      "PERM",
      "soon",
    ]);
    const xc = readNotamJsonLines(readFileSync(path.join(DIR, "xctools.jsonl"), "utf8"), "xctools.jsonl");
    expect(xc.notams.map((n) => [n.id, n.type, n.itemA, n.itemB, n.itemC])).toEqual([
      ["B4433/17", "N", ["EBBU"], "1710180630", "PERM"],
      ["B3365/18", "N", ["EBBU"], "1806281023", "1809280900EST"],
      ["P1737/18", "N", ["LFQQ"], "1808100754", "1811301700"],
      ["C0315/18", "N", ["LFAT"], "1807200806", "1809302359"],
    ]);
    expect(xc.diagnostics.map((d) => d.code)).toEqual([
      "notam.type.assumed",
      "notam.itemA.fromFir",
      "notam.type.assumed",
      "notam.itemA.fromFir",
      "notam.type.assumed",
      "notam.type.assumed",
    ]);
  });

  it("reads a record that has only `raw` from its text, at the record's line", () => {
    const rt = readNotamJsonLines(readFileSync(path.join(DIR, "raw-text.jsonl"), "utf8"), "raw-text.jsonl");
    expect(rt.diagnostics).toEqual([]);
    const last = rt.notams[3];
    expect([last?.id, last?.itemC, last?.q?.fir, last?.origin]).toEqual([
      "A0063/15",
      "PERM",
      "LLLL",
      { source: "raw-text.jsonl", record: 3, line: 4 },
    ]);
  });
});

describe("readNotamSource", () => {
  it("gunzips, detects JSON lines and ICAO text alike", () => {
    for (const [name, format] of [
      ["uk-pib.jsonl", "jsonl"],
      ["icao-plain.txt", "text"],
    ] as const) {
      const { sha256, ...plain } = readNotamSource(bytes(name), name);
      const { sha256: gzSha256, ...gz } = readNotamSource(gzipSync(bytes(name)), name);
      expect([plain.format, plain.notams.length > 0, gz]).toEqual([format, true, plain]);
      expect(sha256).not.toBe(gzSha256); // the hash is of the bytes as given
    }
  });

  it("reads a UTF-8 BOM and leading blank lines", () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("\n\n"), bytes("uk-pib.jsonl")]);
    const r = readNotamSource(body, "bom.jsonl");
    expect([r.format, r.notams.length, r.diagnostics]).toEqual(["jsonl", 3, []]);
    expect(r.notams[0]?.origin.line).toBe(3);
  });

  it("reads Windows-1252 text and says so", () => {
    const text =
      "A0001/26 NOTAMN\nQ) LFFF/QRTCA/IV/BO/W/000/080\nA) LFPG B) 2602010800 C) 2602011600\nE) ZONE INTERDITE \u00e0 BLOIS\n";
    const r = readNotamSource(Buffer.from(text, "latin1"), "latin1.txt");
    expect(r.notams[0]?.itemE).toBe("ZONE INTERDITE \u00e0 BLOIS");
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["source.encoding.windows1252", "repaired"]]);
  });
});

describe("readSofiaText (SOFIA-Briefing route brief, fixtures/notam/sofia-route.txt)", () => {
  const text = readFileSync(path.join(DIR, "sofia-route.txt"), "utf8");
  const sofia = readSofiaText(text, "sofia-route.txt");

  it("reads each NOTAM with its issuing office, B/C from DU/AU (EST, PERM), items in the order A Q D E F G", () => {
    expect(sofia.notams.map((n) => [n.nof, n.id, n.type, n.itemB, n.itemC])).toEqual([
      ["LSSN", "A0756/25", "N", "2512191100", "2603282330"],
      ["LIIC", "M0053/26", "N", "2601130000", "2603272359"],
      ["EDDZ", "B0051/26", "N", "2602090545", "2602121515"],
      ["LOWW", "A0216/26", "N", "2602091200", "2602121900"],
      ["LFFA", "D3886/25", "N", "2507070000", "PERM"],
      ["LPPP", "A0555/26", "N", "2602060018", "2602082359EST"],
    ]);
    const [, italy, germany, austria] = sofia.notams;
    // a schedule wrapped over two lines stays one Item D
    expect(italy?.itemD).toBe("MON-THU 0000-0630 2000-2359, FRI 0000-0630 1900-2359,  SAT SUN\n0000-2359");
    expect([germany?.itemE, germany?.itemF, germany?.itemG]).toEqual([
      "RESTRICTED AREA EDR132B (HEUBERG) ACT.",
      "GND",
      "18000FT AMSL",
    ]);
    expect(austria?.itemE).toContain("LO R 7 - ACTIVATED:\nREF AIP AUSTRIA");
    expect(austria?.q?.code).toBe("QRRCA");
    expect(sofia.diagnostics.filter((d) => !d.code.startsWith("notam.sofia."))).toEqual([]);
  });

  it("states its route and FIRs, no as-of time and no FIR coverage (a route brief lists a corridor)", () => {
    expect(sofia.briefing).toEqual({
      departure: "LSHJ",
      destination: "ZBAA",
      firs: ["EDGG", "LIBB", "LIMM", "LIRR", "LOVV"],
    });
    expect(sofia.diagnostics.map((d) => d.code)).toEqual(["notam.sofia.route", "notam.sofia.noAsOf"]);
    const source = readNotamSource(Buffer.from(text), "sofia-route.txt");
    expect(source.format).toBe("sofia");
    expect(source.asOf).toBeUndefined();
    expect(source.coverage).toBeUndefined();
  });

  it("skips a NOTAM whose validity line is not DU/AU, with a reason, and keeps the others", () => {
    const broken = text.replace("DU: 09 02 2026 05:45 AU: 12 02 2026 15:15", "DU: 09/02/2026");
    const r = readSofiaText(broken, "b.txt");
    expect(r.notams.map((n) => n.id)).not.toContain("B0051/26");
    expect(r.notams).toHaveLength(5);
    const codes = r.diagnostics.filter((d) => d.id === "B0051/26").map((d) => [d.code, d.severity]);
    expect(codes).toEqual([
      ["notam.sofia.validity", "warning"],
      ["notam.item.missing", "skipped"],
    ]);
  });

  it("keeps Item E whole over a blank line inside it (EPWW-D0226/26 names EPTR501, then EPTR501Z)", () => {
    const file = path.join(FIXTURES, "links", "agreement", "epww-2026-02-07.txt");
    const r = readSofiaText(readFileSync(file, "utf8"), "epww-2026-02-07.txt");
    expect(r.notams.map((n) => n.id)).toEqual(["D0226/26", "D0275/26", "D0436/26", "D0437/26", "D0438/26"]);
    const d0226 = r.notams[0]!;
    expect(d0226.itemE).toMatch(/^TEMPORARY RESERVED AREA EPTR501 - MIL ACT\./);
    expect(d0226.itemE).toContain("VERTICAL LIMITS: GND - FL225\n\nTEMPORARY RESERVED AREA EPTR501Z - MIL ACT.");
    expect(d0226.itemE).toMatch(/TIME OF ACTIVITY ACCORDING TO AIRSPACE USE PLAN \(AUP\)\.$/);
    expect([d0226.itemF, d0226.itemG]).toEqual(["GND", "FL225"]);
  });

  it.runIf(HAS_SHARED)("reads all 4 915 NOTAMs of the six real briefs without a diagnostic of its own", () => {
    const dir = path.join(SHARED_DATA, "notam", "sofia_route_briefs_2026-02");
    let n = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".txt.gz"))) {
      const r = readNotamSource(readFileSync(path.join(dir, f)), f);
      expect(r.format).toBe("sofia");
      expect(r.diagnostics.filter((d) => d.severity !== "warning" || !d.code.startsWith("notam.sofia."))).toEqual([]);
      n += r.notams.length;
    }
    expect(n).toBe(4915);
  });
});

describe("readFaaJson (the FAA NOTAM API's JSON, fixtures/notam/faa-api-*.json)", () => {
  it("reads each item from its ICAO translation, else from its fields, with the office from accountId", () => {
    const r = readNotamSource(bytes("faa-api-page1.json"), "faa-api-page1.json");
    expect(r.format).toBe("faa-json");
    expect(r.diagnostics).toEqual([]);
    // no as-of time, no coverage: the answer states neither (the fetcher's HTTP Date and the config's firs do)
    expect([r.asOf, r.coverage]).toEqual([undefined, undefined]);
    const [translated, fields] = r.notams;
    expect([translated?.nof, translated?.id, translated?.q?.raw, translated?.itemF, translated?.itemG]).toEqual([
      "LFFA",
      "R0380/26",
      "LFXX/QRRCA/IV/BO/W/042/195/4531N00214E048",
      "4200FT AMSL",
      "FL195",
    ]);
    // the same NOTAM read from its fields: Q-line put together, ISO instants as YYMMDDhhmm
    expect(fields).toMatchObject({
      nof: "EDDZ",
      id: "B0051/26",
      type: "N",
      itemA: ["EDGG"],
      itemB: "2602090545",
      itemC: "2602121515",
      itemD: "09 12 0545-1515, 10 11 0545-2130",
      itemE: "RESTRICTED AREA EDR132B (HEUBERG) ACT.",
      itemF: "GND",
      itemG: "18000FT AMSL",
    });
    expect(fields?.q).toMatchObject({ fir: "EDGG", code: "QRRCA", lower: 0, upper: 180, radiusNm: 6 });
  });

  it("skips an item that is not a NOTAM, with a diagnostic naming it, and keeps the others", () => {
    const r = readNotamSource(bytes("faa-api-broken-item.json"), "faa-api-broken-item.json");
    expect(r.notams.map((n) => n.id)).toEqual(["R0380/26"]);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.record])).toEqual([["notam.faa.item", "skipped", 1]]);
  });

  it("refuses an answer that does not parse, in one diagnostic", () => {
    const r = readFaaJson('{"items": [{"properties": {"coreNOTAMData": ', "cut.json");
    expect(r.notams).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["notam.faa.invalid", "skipped"]]);
  });
});
