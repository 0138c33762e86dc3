// The EAD PIB XML reader on a real excerpt (fixtures/notam-pib/PROVENANCE.md) and, when present, on the two
// whole UK briefings of ../shared/data/notam/ead_pib_xml: fields, header as-of time and coverage, a broken
// Notam counted, a cut document refused whole.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SourceError } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { isPibXml, readPibXml } from "../../src/notam/pib-xml.js";
import { readNotamSource } from "../../src/notam/read.js";
import { readDynamicSources } from "../../src/sources.js";
import { expectGolden, FIXTURES, HAS_SHARED, SHARED_DATA, warnNoShared } from "../helpers.js";

const FILE = path.join(FIXTURES, "notam-pib", "uk_pib_2026-08-22_excerpt.xml");
const text = readFileSync(FILE, "utf8");

describe("EAD PIB XML", () => {
  it("is recognised by content, also gzipped, and matches its golden", () => {
    expect(isPibXml(text)).toBe(true);
    expect(isPibXml('<?xml version="1.0"?><AIXMBasicMessage/>')).toBe(false);
    const r = readNotamSource(gzipSync(Buffer.from(text)), "pib.xml.gz");
    expect(r.format).toBe("pib-xml");
    expect(r.diagnostics).toEqual([]);
    expectGolden(FILE.replace(/\.xml$/, ".expected.json"), r);
  });

  it("takes the header's Issued as the as-of time and its FIR list as the coverage", () => {
    const r = readPibXml(text, "pib.xml");
    expect(r.header).toEqual({
      issued: Date.parse("2026-08-22T11:00:15Z"),
      validFrom: Date.parse("2026-08-22T11:00:15Z"),
      validTo: Date.parse("2026-08-29T11:00:00Z"),
      firs: ["EGGX", "EGPX", "EGTT"],
      authority: "UNITED KINGDOM",
    });
  });

  it("maps every field: ids, references, the Q-line, several locations, EST and PERM", () => {
    const byId = new Map(readPibXml(text, "pib.xml").notams.map((n) => [n.id, n]));
    expect(byId.get("J2265/26")).toMatchObject({
      nof: "EGGN",
      type: "R",
      ref: "J1859/26",
      itemA: ["EGBB"],
      itemB: "2607220916",
      itemC: "2609302200",
      itemD: "0600-2200",
      itemF: "SFC",
      itemG: "900FT AMSL",
      q: { fir: "EGTT", code: "QRDCS", lower: 0, upper: 9, radiusNm: 3, centre: { lat: 52.5, lon: -1.883333 } },
    });
    expect(byId.get("J2265/26")?.itemE).toMatch(/^TEMPO DANGER AREA \(TDA\) EGD289A INSTALLED/);
    expect(byId.get("B1121/26")?.itemA.length).toBeGreaterThan(1);
    expect(byId.get("C5359/26")?.itemC).toMatch(/^\d{10}EST$/);
    expect(byId.get("C3735/26")?.itemC).toBe("PERM");
  });

  it("counts a broken Notam and keeps the others", () => {
    const broken = text.replace("<StartValidity>2607220916</StartValidity>", "<StartValidity>26072209</StartValidity>");
    const r = readPibXml(broken, "pib.xml");
    expect(r.notams).toHaveLength(7);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.id])).toEqual([
      ["notam.itemB.invalid", "skipped", "J2265/26"],
    ]);
  });

  it("keeps one copy of a NOTAM listed in several sections; a copy with other content is counted", () => {
    const start = text.indexOf("<Notam ");
    const element = text.slice(start, text.indexOf("</Notam>", start) + "</Notam>".length);
    const twice = text.replace(element, `${element}\n${element}`);
    expect(readPibXml(twice, "pib.xml").notams).toHaveLength(8);
    expect(readPibXml(twice, "pib.xml").diagnostics).toEqual([]);
    const other = element.replace(/<ItemE>/, "<ItemE>CHANGED ");
    const r = readPibXml(text.replace(element, `${element}\n${other}`), "pib.xml");
    expect(r.notams).toHaveLength(8);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["notam.pib.repeated", "skipped"]]);
  });

  it("refuses a cut document whole: the source fails with one reason, nothing of it is used", () => {
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    const r = readPibXml(cut, "pib.xml");
    expect(r.whole).toBe(false);
    expect(r.notams).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["notam.pib.truncated"]);
    const inputs = { notams: [{ name: "pib.xml", bytes: Buffer.from(cut), fetchedAt: 0 }] };
    expect(() => readDynamicSources(inputs, new DiagnosticSink())).toThrow(SourceError);
    expect(() => readDynamicSources(inputs, new DiagnosticSink())).toThrow(/not a whole PIB document/);
  });

  it("states no as-of time when the header has no Issued (the source is then stale)", () => {
    const r = readPibXml(text.replace(/<Issued>[^<]*<\/Issued>/, ""), "pib.xml");
    expect(r.header.issued).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual(["notam.pib.noIssued"]);
  });

  it("reads both whole UK briefings of the corpus without a diagnostic", () => {
    warnNoShared("PIB corpus");
    if (!HAS_SHARED) return;
    const dir = path.join(SHARED_DATA, "notam", "ead_pib_xml");
    const counts = ["uk_pib_2024-09-26T1103Z.xml.gz", "uk_pib_2026-08-22T1116Z.xml.gz"].map((f) => {
      const r = readNotamSource(readFileSync(path.join(dir, f)), f);
      expect(r.diagnostics.filter((d) => d.severity === "skipped")).toEqual([]);
      expect(r.coverage).toEqual(["EGGX", "EGPX", "EGTT"]);
      return [r.notams.length, r.notams.filter((n) => n.itemD).length];
    });
    // NOTAMs, not Notam elements: a PIB lists a NOTAM once per section it concerns (820 and 1 509 elements)
    expect(counts).toEqual([
      [683, 173],
      [1174, 351],
    ]);
  });
});
