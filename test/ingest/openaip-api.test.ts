import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenAipApi } from "../../src/ingest/openaip-api.js";
import { airspaceFromOpenAipItem, OPEN_END, OPEN_START } from "../../src/ingest/openaip-item.js";
import type { ReadResult } from "../../src/model/airspace.js";

const FIXTURES = new URL("../../fixtures/ingest/openaip-api/", import.meta.url).pathname;
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), "utf8");
const read = (name: string): ReadResult => readOpenAipApi(fixture(name), name);
const codes = (r: { diagnostics: Array<{ code: string }> }): string[] => r.diagnostics.map((d) => d.code);

/** Compares with `<case>.expected.json`; `UPDATE_GOLDEN=1` rewrites it. */
function golden(name: string, actual: unknown): void {
  const path = join(FIXTURES, name.replace(/\.(json|jsonl)$/, ".expected.json"));
  // positions on one line: `[lon, lat]`
  const text = `${JSON.stringify(actual, null, 2).replace(/\[\s+(-?[\d.e+-]+),\s+(-?[\d.e+-]+)\s+\]/g, "[$1, $2]")}\n`;
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(path, text);
  expect(existsSync(path)).toBe(true);
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(path, "utf8")));
}

/** The first item of the paged fixture (ED-R SNAP), to vary in the named tests. */
const base = (): Record<string, unknown> => {
  const page = JSON.parse(fixture("de-page.json")) as { items: Array<Record<string, unknown>> };
  return structuredClone(page.items[0] ?? {});
};
const one = (item: unknown, geometry?: unknown) =>
  airspaceFromOpenAipItem(item, geometry ?? (item as { geometry?: unknown }).geometry, { source: "t", record: 0 });

describe("readOpenAipApi golden", () => {
  it("de-page.json (paged answer)", () => golden("de-page.json", read("de-page.json")));
  it("de-items.jsonl (JSON lines)", () => golden("de-items.jsonl", read("de-items.jsonl")));
});

describe("readOpenAipApi", () => {
  const page = read("de-page.json");

  it("reads the three accepted shapes alike", () => {
    const items = (JSON.parse(fixture("de-page.json")) as { items: unknown[] }).items;
    const array = readOpenAipApi(JSON.stringify(items), "de-page.json");
    expect(array).toEqual(page);
    const lines = read("de-items.jsonl");
    const noLine = lines.records.map(({ origin, ...r }) => ({ ...r, origin: { ...origin, source: "de-page.json" } }));
    expect(noLine.map(({ origin: { line, ...o }, ...r }) => ({ ...r, origin: o }))).toEqual(page.records);
    expect(lines.records.map((r) => r.origin.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it("maps the real items", () => {
    expect(page.records.map((r) => [r.name, r.type, r.icaoClass, r.country, r.activeTimes.length])).toEqual([
      ["ED-R SNAP", 1, 8, "DE", 1],
      ["ED-R REICHENHALL", 1, 8, "DE", 1],
      ["CTR KASSEL", 4, 3, "DE", 0],
      ["TMZ-EDDH XPDR A4671", 5, 4, "DE", 0],
      ["ED-R137B HOHENFELS NOTAM", 1, 8, "DE", 0],
    ]);
    expect(page.records[0]?.activeTimes).toEqual([{ start: "2025-06-27T07:30:00Z", end: "2025-06-28T16:00:00Z" }]);
    expect(page.records[1]?.frequencies).toEqual([
      { value: "126.950", unit: 2, name: "LANGEN INFORMATION", primary: true },
    ]);
    expect(Object.keys(page.records[1]?.frequencies[0] ?? {})).toEqual(["value", "unit", "name", "primary"]);
    expect(page.records[1]?.onDemand).toBe(true);
  });

  it("icaoClass 7 (2022 export) → 8, repaired once per record", () => {
    const d = page.diagnostics.filter((x) => x.code === "airspace.icaoClass.seven");
    expect(d.map((x) => [x.severity, x.id, x.record])).toEqual([["repaired", "62614ad6cb27f42509448055", 4]]);
    expect(page.diagnostics.filter((x) => x.code !== "airspace.hours.placeholder")).toEqual(d);
  });

  it("hoursOfOperation, the same on every item, is a placeholder: reported, not read as a window or hours", () => {
    expect(page.records[2]?.activeTimes).toEqual([]);
    expect(page.records.every((r) => r.hours === undefined)).toBe(true);
    expect(page.diagnostics.filter((x) => x.code === "airspace.hours.placeholder")).toHaveLength(1);
  });

  it("JSON lines: a broken line is skipped, its neighbours kept", () => {
    const [a, b] = fixture("de-items.jsonl").split("\n");
    const r = readOpenAipApi(`${a}\n{"_id": "x", oops\n\n${b}\n`, "t.jsonl");
    expect(r.records.map((x) => x.origin.line)).toEqual([1, 4]);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.line, d.record])).toEqual([
      ["api.line.malformed", "skipped", 2, 1],
      ["airspace.hours.placeholder", "warning", undefined, undefined],
    ]);
  });

  it("not JSON at all: one api.malformed", () => {
    for (const bad of ["<html>502 Bad Gateway</html>", "", "42", '"items"']) {
      const r = readOpenAipApi(bad, "t");
      expect([r.records, codes(r)]).toEqual([[], ["api.malformed"]]);
    }
    expect(codes(readOpenAipApi('{"items": 3}', "t"))).toEqual(["api.page.invalid"]);
  });

  it("a page of several warns that it is partial", () => {
    const r = readOpenAipApi('{"limit":1,"totalCount":2,"totalPages":2,"page":1,"items":[]}', "t");
    expect(codes(r)).toEqual(["api.page.partial"]);
  });
});

describe("airspaceFromOpenAipItem", () => {
  it("empty name → placeholder; C1 control → en dash", () => {
    const unnamed = one({ ...base(), name: " " });
    expect(unnamed.record?.name).toBe("(unnamed 684b14d31c482a43227aaa18)");
    expect(codes(unnamed)).toEqual(["airspace.name.missing"]);
    const c1 = one({ ...base(), name: "LCA \u0096 FIR BRUSSELS" });
    expect(c1.record?.name).toBe("LCA – FIR BRUSSELS");
    expect(c1.diagnostics.map((d) => [d.code, d.severity])).toEqual([["airspace.name.controlCharacter", "repaired"]]);
  });

  it("missing referenceDatum repaired: FL → STD, 0 → GND, else MSL", () => {
    const r = one({
      ...base(),
      upperLimit: { value: 100, unit: 6, referenceDatum: null },
      lowerLimit: { value: 0, unit: 1 },
    });
    expect([r.record?.upperLimit, r.record?.lowerLimit]).toEqual([
      { value: 100, unit: 6, referenceDatum: 2 },
      { value: 0, unit: 1, referenceDatum: 0 },
    ]);
    expect(codes(r)).toEqual(["airspace.limit.referenceMissing", "airspace.limit.referenceMissing"]);
    const msl = one({ ...base(), lowerLimit: { value: 1000, unit: 1, referenceDatum: null } });
    expect(msl.record?.lowerLimit).toEqual({ value: 1000, unit: 1, referenceDatum: 1 });
  });

  it("skips with one diagnostic: type, limit, id, geometry", () => {
    const cases: Array<[unknown, unknown, string]> = [
      [{ ...base(), type: 37 }, undefined, "airspace.type.invalid"],
      [{ ...base(), upperLimit: { value: 1, unit: 3, referenceDatum: 1 } }, undefined, "airspace.limit.invalid"],
      [{ ...base(), lowerLimit: { value: "GND", unit: 1, referenceDatum: 0 } }, undefined, "airspace.limit.invalid"],
      [{ ...base(), _id: undefined }, undefined, "airspace.id.missing"],
      [{ ...base(), _id: 12 }, undefined, "airspace.id.missing"],
      [{ ...base(), geometry: null }, null, "airspace.geometry.missing"],
      [base(), { type: "Point", coordinates: [9, 50] }, "airspace.geometry.unsupported"],
      [
        base(),
        {
          type: "Polygon",
          coordinates: [
            [
              [9, 50],
              [10, Number.POSITIVE_INFINITY],
            ],
          ],
        },
        "airspace.geometry.invalidCoordinate",
      ],
      [
        base(),
        {
          type: "Polygon",
          coordinates: [
            [
              [9, 50],
              ["10", 51],
            ],
          ],
        },
        "airspace.geometry.invalidCoordinate",
      ],
      [base(), { type: "Polygon", coordinates: [] }, "airspace.geometry.malformed"],
      ["not an item", undefined, "airspace.item.invalid"],
    ];
    for (const [item, geometry, code] of cases) {
      const r = one(item, geometry);
      expect([code, r.record, r.diagnostics.map((d) => [d.code, d.severity])]).toEqual([
        code,
        undefined,
        [[code, "skipped"]],
      ]);
    }
  });

  it("1e999 in JSON is a non-finite coordinate, skipped", () => {
    const item = base();
    const text = JSON.stringify(item).replace(/"coordinates":\[\[\[[-\d.]+/, '"coordinates":[[[1e999');
    expect(codes(readOpenAipApi(text, "t"))).toEqual(["airspace.geometry.invalidCoordinate"]);
  });

  it("MultiPolygon: each polygon's rings kept as [lon, lat], winding untouched", () => {
    const ring = [
      [10, 50, 300],
      [10, 51],
      [11, 51],
      [10, 50],
    ];
    const r = one(base(), { type: "MultiPolygon", coordinates: [[ring], [ring, ring]] });
    expect(r.record?.geometry.map((p) => p.length)).toEqual([1, 2]);
    expect(r.record?.geometry[0]?.[0]?.[0]).toEqual([10, 50]);
  });

  it("activeFrom/activeUntil: partial windows open-ended, bad ones ignored", () => {
    const from = one({ ...base(), activeUntil: undefined });
    expect(from.record?.activeTimes).toEqual([{ start: "2025-06-27T07:30:00Z", end: OPEN_END }]);
    expect(codes(from)).toEqual(["airspace.activeWindow.partial"]);
    const until = one({ ...base(), activeFrom: null, activeUntil: "2025-12-31T23:00:00.000+01:00" });
    expect(until.record?.activeTimes).toEqual([{ start: OPEN_START, end: "2025-12-31T22:00:00Z" }]);
    const reversed = one({ ...base(), activeFrom: "2025-07-01T00:00:00Z", activeUntil: "2025-06-01T00:00:00Z" });
    expect([reversed.record?.activeTimes, codes(reversed)]).toEqual([[], ["airspace.activeWindow.invalid"]]);
    const bogus = one({ ...base(), activeFrom: "2025-02-30T00:00:00Z", activeUntil: "soon" });
    expect([bogus.record?.activeTimes, codes(bogus)]).toEqual([
      [],
      ["airspace.activeWindow.invalid", "airspace.activeWindow.invalid"],
    ]);
  });

  it("country: upper-cased, else unset with a warning", () => {
    expect(one({ ...base(), country: "de" }).record?.country).toBe("DE");
    const bad = one({ ...base(), country: "DEU" });
    expect([bad.record?.country, "country" in (bad.record ?? {}), codes(bad)]).toEqual([
      undefined,
      false,
      ["airspace.country.invalid"],
    ]);
  });

  it("frequencies: no value dropped silently, extra keys dropped; remarks kept when non-empty", () => {
    const r = one({
      ...base(),
      frequencies: [{ value: "", unit: 2 }, { value: "123.450", unit: 2, _id: "x", name: "X RADIO" }, { value: "1" }],
      remarks: "VFR 26/25",
    });
    expect(r.record?.frequencies).toEqual([{ value: "123.450", unit: 2, name: "X RADIO" }]);
    expect(r.record?.remarks).toBe("VFR 26/25");
    expect(codes(r)).toEqual(["airspace.frequency.invalid"]);
    expect("remarks" in (one({ ...base(), remarks: "  " }).record ?? {})).toBe(false);
  });
});
