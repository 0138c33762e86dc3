// YAIXM (UK airspace YAML) on excerpts of the real files (fixtures/yaixm/PROVENANCE.md) and, when present, on the
// whole files of ../shared/data/airspace/yaixm: volumes, limits, types, rules, frequencies, RAT dates, geometry.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { distanceM } from "../../src/geo/geodesy.js";
import { readAirspaceSource, SourceError } from "../../src/ingest/read.js";
import { applyServices, ratHours } from "../../src/ingest/yaixm.js";
import { ARC_TOLERANCE_M, boundaryRing, latLon, type Segment } from "../../src/ingest/yaixm-geometry.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { expectGolden, FIXTURES, HAS_SHARED, SHARED_DATA, warnNoShared } from "../helpers.js";

const DIR = path.join(FIXTURES, "yaixm");
const read = (name: string) => readAirspaceSource(readFileSync(path.join(DIR, name)), name);

describe("YAIXM airspace file", () => {
  const r = read("gb_airspace_excerpt.yaml");

  it("is recognised by content and matches its golden", () => {
    expect(r.format).toBe("yaixm");
    expectGolden(path.join(DIR, "gb_airspace_excerpt.expected.json"), r);
  });

  it("gives one record per volume, each with its own limits", () => {
    const aberdeen = r.records.filter((x) => x.name === "ABERDEEN CTA");
    expect(aberdeen.map((x) => x.id)).toEqual(["yaixm-aberdeen-cta-1", "yaixm-aberdeen-cta-2", "yaixm-aberdeen-cta-3"]);
    expect(aberdeen.map((x) => [x.lowerLimit.value, x.upperLimit.value])).toEqual([
      [1500, 115],
      [1500, 115],
      [3000, 115],
    ]);
    expect(aberdeen[0]).toMatchObject({ type: AirspaceType.CTA, icaoClass: 3, country: "GB" });
  });

  it("maps types and local types, and reads rules: NOTAM as activation by NOTAM", () => {
    const by = (name: string) => r.records.find((x) => x.name === name)!;
    expect(by("D323F SOUTHERN MDA")).toMatchObject({
      type: AirspaceType.DANGER,
      byNotam: true,
      hours: { kind: "notam" },
    });
    expect(by("R002 DEVONPORT")).toMatchObject({ type: AirspaceType.RESTRICTED, byNotam: false });
    expect(by("BARKSTON/CRANWELL").type).toBe(AirspaceType.MATZ);
    expect(by("NSGA SCOTLAND").type).toBe(AirspaceType.GLIDING_SECTOR);
    expect(by("KEEVIL").type).toBe(AirspaceType.AERIAL_SPORTING);
  });

  it("draws arcs through the published points and at the published radius", () => {
    const boundary: Segment[] = [
      { line: ["572153N 0015835W", "572100N 0015802W", "572100N 0023356W"] },
      { arc: { dir: "cw", radius: "10 nm", centre: "571834N 0021602W", to: "572153N 0015835W" } },
    ];
    const b = boundaryRing(boundary);
    const centre = latLon("571834N 0021602W");
    const [first, last] = [b.ring[2]!, b.ring.at(-1)!];
    expect(
      [first, last].map(([lon, lat]) => distanceM({ lat, lon }, centre) - 18520).every((d) => Math.abs(d) < 60),
    ).toBe(true);
    for (const [lon, lat] of b.ring.slice(3, -1))
      expect(Math.abs(distanceM({ lat, lon }, centre) - 18520)).toBeLessThan(0.5);
    expect(b.ring.at(-1)).toEqual([latLon("572153N 0015835W").lon, latLon("572153N 0015835W").lat]);
  });
});

describe("YAIXM service file", () => {
  it("lists frequencies that join the airspaces by their ids", () => {
    const services = read("gb_service_excerpt.yaml");
    expect(services.records).toEqual([]);
    const airspaces = read("gb_airspace_excerpt.yaml").records;
    expect(applyServices(airspaces, services.services ?? [])).toBe(6);
    expect(airspaces.find((x) => x.name === "ABERDEEN CTR")?.frequencies).toEqual([
      { value: "119.055", unit: 2, name: "ABERDEEN APPROACH", primary: true },
    ]);
  });
});

describe("YAIXM RAT file", () => {
  const name = "gb_rat_2026-06.yaml";
  const r = readAirspaceSource(readFileSync(path.join(FIXTURES, "uk", name)), name);

  it("dates from the names, NOTAM-activated areas, and no dates as unknown", () => {
    const hours = Object.fromEntries(r.records.map((x) => [x.name, x.hours]));
    expect(hours["SILVERSTONE (3-5 JUL)"]).toMatchObject({
      kind: "dates",
      dates: [3, 4, 5].map((day) => ({ month: 6, day })),
    });
    expect(hours["SLEAP (11 JUL)"]).toMatchObject({ kind: "dates", dates: [{ month: 6, day: 11 }] });
    expect(hours.DUXFORD).toMatchObject({ kind: "unknown" });
    expect(hours["KEMBLE CTR (NOTAM)"]).toMatchObject({ kind: "notam" });
  });

  it("ratHours reads a date range across its own month only", () => {
    expect(ratHours("WELLESBORNE MOUNTFORD (18-19 JUL)", []).dates).toEqual([
      { month: 6, day: 18 },
      { month: 6, day: 19 },
    ]);
  });
});

describe("bad YAIXM", () => {
  it("a feature that does not match the schema is a diagnostic with its name; the others are read", () => {
    const text = readFileSync(path.join(DIR, "gb_airspace_excerpt.yaml"), "utf8").replace(
      "- name: R002 DEVONPORT\n  type: R\n  geometry:\n",
      "- name: R002 DEVONPORT\n  type: R\n  geometry: not-a-list\n  volumes:\n",
    );
    expect(parse(text).airspace.length).toBe(11);
    const r = readAirspaceSource(Buffer.from(text), "broken.yaml");
    expect(r.diagnostics.filter((d) => d.severity === "skipped").map((d) => [d.code, d.name])).toEqual([
      ["yaixm.record.schema", "R002 DEVONPORT"],
    ]);
    expect(r.records.some((x) => x.name === "ABERDEEN CTA")).toBe(true);
  });

  it("a YAML file that is not YAIXM is refused, not read as empty", () => {
    expect(() => readAirspaceSource(Buffer.from("release:\n  airac_date: 2026-06-11\n"), "x.yaml")).toThrow(
      SourceError,
    );
    expect(() => readAirspaceSource(Buffer.from("airspace:\n  - name: [unclosed\n"), "cut.yaml")).toThrow(
      /not whole YAML/,
    );
  });

  it("keeps every volume of the whole UK file when ids repeat; each repeat gets its own id and one diagnostic", () => {
    const r = readAirspaceSource(readFileSync(path.join(FIXTURES, "uk", "gb_airspace_2026-06.yaml")), "gb.yaml");
    expect(r.records.length).toBe(1053);
    expect(new Set(r.records.map((x) => x.id)).size).toBe(1053);
    const repeated = r.diagnostics.filter((d) => d.code === "yaixm.id.repeated");
    expect(repeated.map((d) => [d.name, d.id])).toEqual([
      ["WADDINGTON", "yaixm-waddington-matz-2"],
      ["PERSHORE", "yaixm-pershore-2"],
      ["COLERNE", "yaixm-colerne-2"],
      ["WOODVALE", "yaixm-woodvale-atz-2"],
    ]);
    // the services still join both volumes of a repeated id: they carry the file's own id
    expect(r.records.filter((x) => x.refs?.includes("waddington-matz")).length).toBe(2);
  });

  it("reads the whole corpus files: every volume, arcs within 50 m of their radius but a few", () => {
    warnNoShared("YAIXM corpus");
    if (!HAS_SHARED) return;
    const dir = path.join(SHARED_DATA, "airspace", "yaixm");
    for (const [file, volumes] of [
      ["gb_airspace_2024-09.yaml", 1032],
      ["gb_airspace_2026-06.yaml", 1053],
    ] as const) {
      const r = readAirspaceSource(readFileSync(path.join(dir, file)), file);
      expect(r.records.length).toBe(volumes);
      expect(r.diagnostics.filter((d) => d.severity === "skipped")).toEqual([]);
      // the data's own rounding: 9 arc ends of ~516 lie 50–112 m off their radius on the ellipsoid
      expect(r.diagnostics.filter((d) => d.code === "yaixm.arc.radius").length).toBeLessThanOrEqual(9);
      expect(ARC_TOLERANCE_M).toBe(50);
    }
  });
});
