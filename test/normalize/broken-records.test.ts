// One named test per kind of broken record found in ../shared/data/airspace (fixtures/broken/PROVENANCE.md):
// each is repaired or skipped with its code, never a crash, and its good neighbours survive.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { utcDay } from "../../src/model/time.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { validateFeature } from "../../src/publish/validate.js";
import { resolveDay } from "../../src/resolve/day.js";
import { FIXTURES } from "../helpers.js";

function run(dir: string, file: string) {
  const read = readAirspaceSource(readFileSync(path.join(FIXTURES, dir, file)), file);
  const sink = new DiagnosticSink();
  sink.addAll(read.diagnostics);
  const airspaces = normalizeAirspaces(read.records, { firs: bundledFirIndex() }, sink);
  const day = utcDay("2025-06-20")!;
  const features = resolveDay(airspaces, { day, now: day.start, sources: { notam: [], aup: [] } });
  for (const f of features) expect(validateFeature(f)).toEqual([]);
  const codes = (name: string) => sink.items.filter((d) => d.name === name).map((d) => `${d.severity}:${d.code}`);
  return { features, sink, codes, byName: (n: string) => features.find((f) => f.properties.name === n) };
}

describe("broken records of the real data", () => {
  it("self-intersecting LONDON TMA (GB 2018 XML) is published with a warning", () => {
    const r = run("broken", "gb-london-tma-self-intersecting.aip");
    expect(r.byName("LONDON TMA")).toBeDefined();
    expect(r.codes("LONDON TMA")).toContain("warning:geometry.selfIntersection");
  });

  it("TMA LYON 006 (FR OpenAir, rings cross after rounding) is published twice with warnings", () => {
    const r = run("broken", "fr-tma-lyon-006-self-intersecting.txt");
    expect(r.features.filter((f) => f.properties.name === "TMA LYON 006")).toHaveLength(2);
    expect(r.codes("TMA LYON 006").filter((c) => c === "warning:geometry.selfIntersection")).toHaveLength(2);
    expect(r.features.every((f) => f.properties.country === "FR" && f.properties.vendor.FIR_Ident === "LFMM")).toBe(
      true,
    );
  });

  it("icaoClass 7, repeated points and a crossing ring (DE 2022 export): class 8, cleaned, published with a warning", () => {
    const r = run("broken", "de-2022-icaoclass7-self-intersecting.geojson");
    const f = r.features[0]!;
    expect(f.properties.icaoClass).toBe(8);
    expect(r.codes(f.properties.name)).toEqual(
      expect.arrayContaining([
        "repaired:airspace.icaoClass.seven",
        "repaired:geometry.repeatedPoints",
        "warning:geometry.selfIntersection",
      ]),
    );
  });

  it("repeated points (DE 2025 export) are dropped", () => {
    const r = run("broken", "de-2025-repeated-points-partial-window.geojson");
    expect(r.codes("COCHSTEDT")).toContain("repaired:geometry.repeatedPoints");
    const ring = (r.byName("COCHSTEDT")!.geometry.coordinates[0] as number[][]).map((p) => p.join());
    expect(ring.slice(1).every((p, i) => p !== ring[i])).toBe(true);
  });

  it("an activeUntil without activeFrom (ED-R KLIXBÜLL) is a window open at its start, with a warning", () => {
    const r = run("broken", "de-2025-repeated-points-partial-window.geojson");
    const f = r.byName("ED-R KLIXBÜLL")!;
    expect(r.codes("ED-R KLIXBÜLL")).toContain("warning:airspace.activeWindow.partial");
    expect(f.properties.vendor.dynamicAirspaceMapping.activationType).not.toBe("isNotActiveAirspace");
  });

  it("a cable drawn as a two-point line (flyland KABEL) is skipped; the CTR beside it is kept", () => {
    const r = run("broken", "ch-flyland-kabel-line.txt");
    expect(r.features.map((f) => f.properties.name)).toEqual(["BUOCHS Be CTR 119.625"]);
    expect(r.sink.items.filter((d) => d.severity === "skipped").map((d) => d.code)).toEqual([
      "openair.geometry.tooFewPoints",
    ]);
  });

  it("empty names with 0/0 limits and no datum (BE 2018) are skipped; a named 0/0 area goes up to UNL", () => {
    const r = run("pipeline/be-broken", "be.aip");
    expect(r.sink.items.filter((d) => d.code === "airspace.record.empty")).toHaveLength(2);
    const ebr01 = r.byName("EBR01 BRUSSELS CITY")!;
    expect(ebr01.properties.vendor.formattedUpperLimit).toBe("UNL");
    expect(r.codes("EBR01 BRUSSELS CITY")).toContain("repaired:airspace.limits.zeroThickness");
  });

  it("a stray cp1252 byte in a name (BE 2018, U+0096) becomes an en dash", () => {
    const r = run("pipeline/be-broken", "be.aip");
    expect(r.features.some((f) => f.properties.name.startsWith("EBR08 – KOKSIJDE"))).toBe(true);
  });
});
