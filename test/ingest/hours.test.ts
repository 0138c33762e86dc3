// An airspace's own hours as real sources write them (docs/activation.md §4). Names are copied from the corpus:
// the DAeC OpenAir file, openAIP's DE/FR/CH/SI exports and OpenAir files, the Naviter example.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hoursFromName, hoursFromRemarks } from "../../src/ingest/hours.js";
import { placeholderDiagnostics } from "../../src/ingest/placeholder.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { HAS_SHARED, SHARED_DATA, warnNoShared } from "../helpers.js";

describe("hours in a name's last words", () => {
  it.each([
    ["ED-R1 Garching H24", { kind: "h24", text: "H24" }],
    ["ED-R147 Manching HX (FIS)", { kind: "unknown", text: "HX (FIS)" }],
    ["ED-R SKYSAILS HX 125.100", { kind: "unknown" }],
    ["CTR AVIGNON 2 (HX)", { kind: "unknown", text: "(HX)" }],
    ["TMA BALE T1 HX", { kind: "unknown" }],
    ["ED-R45 Melpitz NOTAM", { kind: "notam" }],
    ["ED-R PEENEMUENDE (NOTAM)", { kind: "notam" }],
    ["ED-R60 Oberpfaffenh. NOTAM nighttime", { kind: "notam" }],
    ["ED-R33B Unterluess (NOTAM MON-SAT)", { kind: "notam" }],
    ["LF-R171 BELFORT (NOTAM | MON-FRI)", { kind: "notam" }],
    ["ATZ-LOW COCHSTEDT 131.130 NOTAM", { kind: "notam" }],
    ["LS-R39B PC-24 (siehe NOTAM) 119.625", { kind: "notam" }],
    ["LF-R201A2 NAVARRENX (NOTAM | SAUF SDJF)", { kind: "notam", text: "(NOTAM | SAUF SDJF)" }],
    ["ZRT SALBRIS (NOTAM) SAUF WE&JF", { kind: "notam", text: "(NOTAM)" }],
    ["ED-R10A Todendorf-Putlos MON-SAT+", { kind: "weekly", weekdays: [1, 2, 3, 4, 5, 6], plusNotam: true }],
    ["ED-R118 Pirmasens TUE+", { kind: "weekly", weekdays: [2], plusNotam: true }],
    ["ED-D28 Ostsee MO-FR+", { kind: "weekly", weekdays: [1, 2, 3, 4, 5], plusNotam: true }],
    ["ED-R14 Moorkamp MON-THU", { kind: "weekly", weekdays: [1, 2, 3, 4], clock: "local" }],
    ["CTR SAINT YAN 1 (MON-FRI)", { kind: "weekly", weekdays: [1, 2, 3, 4, 5] }],
    ["CTR SAINT YAN 2 (MON-FRI HX)", { kind: "weekly", hoursUnknown: true }],
  ])("%s", (name, want) => {
    expect(hoursFromName(name)).toMatchObject({ from: "name", ...want });
  });

  it("a weekday area without + is not open to NOTAM activation on other days", () => {
    expect(hoursFromName("ED-R14 Moorkamp MON-THU")?.plusNotam).toBeUndefined();
  });

  it.each([
    "BERLIN (HX-EAST) 133.630",
    "LJ-R4 PIVKA (UPPER LIMIT BY NOTAM)",
    "R169 Larzac (MPL info 134.37) Officier de Tir 05 65 58 48 04 activable jusqu'au FL245 sur NOTAM",
    "EBR 18 SA",
    "SUN",
    "CTR FRANKFURT",
    "PARA Barth EDBH 118.080",
  ])("%s holds no hours", (name) => {
    expect(hoursFromName(name)).toBeUndefined();
  });
});

describe("hours in remarks", () => {
  it("reads days and UTC times", () => {
    expect(hoursFromRemarks("Active MON-FRI 0800-1600.")).toMatchObject({
      kind: "weekly",
      weekdays: [1, 2, 3, 4, 5],
      times: [[480, 960]],
      clock: "utc",
    });
  });

  it("reads local time", () => {
    expect(hoursFromRemarks("Hours of activity: MON-THU 0730 - 1630 LT")).toMatchObject({
      weekdays: [1, 2, 3, 4],
      times: [[450, 990]],
      clock: "local",
    });
  });

  it("reads the UK AIP's 1 HR EARLIER IN SUMMER as UTC in winter", () => {
    expect(hoursFromRemarks("MON-FRI 0800-1700. 1 HR EARLIER IN SUMMER.")).toMatchObject({
      clock: "utcWinter",
      times: [[480, 1020]],
    });
  });

  it("takes no hours from other remarks", () => {
    expect(hoursFromRemarks("VFR 26/25")).toBeUndefined();
    expect(hoursFromRemarks("Contact FIS before entering")).toBeUndefined();
  });
});

describe("a field that holds one value on every record is a placeholder", () => {
  const item = (hours: unknown) => ({ _id: "x", hoursOfOperation: hours });
  const h24 = { operatingHours: [{ dayOfWeek: 0, startTime: "00:00", endTime: "00:00" }] };

  it("is reported once per source and not read", () => {
    expect(placeholderDiagnostics([item(h24), item(h24), item(h24)], "de_asp.geojson")).toEqual([
      {
        code: "airspace.hours.placeholder",
        severity: "warning",
        message:
          "hoursOfOperation holds the same value on all 3 records: a placeholder, not evidence of hours; not read",
        source: "de_asp.geojson",
      },
    ]);
  });

  it("values that vary are reported as not read; absent ones say nothing", () => {
    const other = { operatingHours: [{ dayOfWeek: 1, startTime: "08:00", endTime: "16:00" }] };
    expect(placeholderDiagnostics([item(h24), item(other)], "s").map((d) => d.code)).toEqual([
      "airspace.hours.notRead",
    ]);
    expect(placeholderDiagnostics([{ _id: "y" }], "s")).toEqual([]);
  });

  it("openAIP's 2025 German export: hoursOfOperation on all 735 airspaces is one placeholder", () => {
    warnNoShared("hoursOfOperation placeholder");
    if (!HAS_SHARED) return;
    const file = path.join(SHARED_DATA, "airspace", "openaip-geojson", "de_asp_2025-06.geojson");
    const r = readAirspaceSource(readFileSync(file), "de_asp_2025-06.geojson");
    expect(r.diagnostics.filter((d) => d.code.startsWith("airspace.hours")).map((d) => d.message)).toEqual([
      "hoursOfOperation holds the same value on all 735 records: a placeholder, not evidence of hours; not read",
    ]);
    expect(r.records.every((x) => x.hours === undefined)).toBe(true);
  });
});
