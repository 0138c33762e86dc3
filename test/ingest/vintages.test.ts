// Two vintages of one country given together (issue 16 §3): the newer only, and one warning naming both.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { dropOlderVintages } from "../../src/ingest/vintages.js";
import type { AirspaceRecord } from "../../src/model/airspace.js";
import type { RunReport } from "../../src/report.js";
import { io } from "../cli/io.js";
import { HAS_SHARED, SHARED_DATA, tempDir, warnNoShared } from "../helpers.js";

const records = (country: string | undefined, names: string[]) =>
  names.map((name) => ({ name, ...(country ? { country } : {}) }) as AirspaceRecord);
const names = (n: number, prefix = "ED-R ") => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe("dropOlderVintages", () => {
  it("keeps the newer of one country's two vintages by the year-month in the names, whatever the order", () => {
    const old = { name: "in/de_asp_2022-09.geojson", records: records("DE", names(40)) };
    const neu = { name: "in/de_asp_2025-06.geojson", records: records("DE", [...names(35), ...names(10, "TMZ ")]) };
    for (const order of [
      [old, neu],
      [neu, old],
    ]) {
      const r = dropOlderVintages(order);
      expect(r.keep.map((i) => order[i]!.name)).toEqual(["in/de_asp_2025-06.geojson"]);
      expect(r.diagnostics.map((d) => [d.code, d.source])).toEqual([
        ["airspace.vintage.duplicate", "in/de_asp_2022-09.geojson"],
      ]);
      expect(r.diagnostics[0]!.message).toMatch(
        /35 of 40 names.*only in\/de_asp_2025-06\.geojson \(newer by its name\)/,
      );
    }
  });

  it("keeps sources that complement each other, other countries' copies and small hand-made sets", () => {
    const de = { name: "de.geojson", records: records("DE", names(40)) };
    expect(dropOlderVintages([de, { name: "rat.yaml", records: records("DE", names(12, "RA(T) ")) }]).keep).toEqual([
      0, 1,
    ]);
    // the benchmark's generated countries repeat real names under other country codes
    expect(dropOlderVintages([de, { name: "xx.geojson", records: records("FR", names(40)) }]).keep).toEqual([0, 1]);
    expect(dropOlderVintages([de, { name: "few.geojson", records: records("DE", names(5)) }]).keep).toEqual([0, 1]);
    // no country known (OpenAir without CC=): never taken for a vintage
    const openair = { name: "a.txt", records: records(undefined, names(40)) };
    expect(dropOlderVintages([openair, { ...openair, name: "b.txt" }]).keep).toEqual([0, 1]);
    // a declared country counts; without dates the one given later wins
    const declared = [
      { ...openair, country: "DE" },
      { ...openair, name: "b.txt", country: "DE" },
    ];
    expect(dropOlderVintages(declared).keep).toEqual([1]);
  });

  it("publishes DE 2025 alone when the corpus's DE 2022 and DE 2025 openAIP exports are given together", async () => {
    warnNoShared("two DE vintages");
    if (!HAS_SHARED) return;
    const dir = path.join(SHARED_DATA, "airspace", "openaip-geojson");
    const store = tempDir("vintage-");
    const report = path.join(store, "report.json");
    const t = io();
    const args = [
      "--airspaces",
      path.join(dir, "de_asp_2022-09.geojson"),
      "--airspaces",
      path.join(dir, "de_asp_2025-06.geojson"),
    ];
    expect(
      await main(["publish", ...args, "--date", "2025-06-21", "--store", store, "--report", report, "--quiet"], t.io),
    ).toBe(0);
    const r = JSON.parse(readFileSync(report, "utf8")) as RunReport;
    expect(r.sources.map((s) => path.basename(s.name))).toEqual(["de_asp_2025-06.geojson"]);
    expect(r.diagnostics.byCode["airspace.vintage.duplicate"]).toBe(1);
    expect(t.err()).toMatch(/older vintage dropped/);
  }, 60_000);
});
