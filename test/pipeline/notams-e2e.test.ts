// End to end with NOTAMs (issue 4): the DE airspace export (and the 2018 BE export, so that Belgian
// NOTAMs find their areas) with the continental NOTAMs, published for a day and read back: NOTAM-derived
// features of the kinds the data holds, linked activation, zero contract violations, counts that add up.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import { LocalStore } from "../../src/store/local-store.js";
import { FIXTURES, HAS_SHARED, SHARED_DATA, tempDir, warnNoShared } from "../helpers.js";

const file = (p: string) => ({ name: path.basename(p), bytes: readFileSync(p), fetchedAt: 0 });

function inputs() {
  if (!HAS_SHARED) {
    warnNoShared("NOTAM end to end");
    return {
      airspaces: [file(path.join(FIXTURES, "sample", "de_asp_2025-06.geojson"))],
      notams: [
        file(path.join(FIXTURES, "notam", "xctools.jsonl")),
        file(path.join(FIXTURES, "notam", "raw-text.jsonl")),
      ],
    };
  }
  return {
    airspaces: [
      file(path.join(SHARED_DATA, "airspace", "openaip-geojson", "de_asp_2025-06.geojson")),
      file(path.join(SHARED_DATA, "airspace", "openaip-v1-xml-2018", "openaip_airspace_belgium_be.aip")),
    ],
    notams: [
      file(path.join(SHARED_DATA, "notam", "notamsprint_faa_dins_notams.jsonl")),
      file(path.join(SHARED_DATA, "notam", "xctools_nats_pib_2018_ebbu_lfff.jsonl")),
    ],
  };
}

async function publish(date: string) {
  const dir = tempDir();
  const day = utcDay(date)!;
  const { airspaces, notams } = inputs();
  const report = await publishDay(
    airspaces,
    {
      day,
      now: day.start + 6 * 3_600_000,
      sources: { notam: [], aup: [] },
      notams,
      variant: "production",
    },
    { store: new LocalStore(dir), log: silentLogger },
  );
  const pointer = JSON.parse(readFileSync(path.join(dir, "v1/current.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(dir, pointer.manifest), "utf8"));
  return { report, manifest, dir };
}

describe(`publish with NOTAMs (${HAS_SHARED ? "shared corpus" : "fixtures only"})`, () => {
  it("publishes valid NOTAM-derived features of every kind the day holds, and links Belgian NOTAMs to their areas", async () => {
    const { report, manifest, dir } = await publish("2018-09-14");
    expect(report.diagnostics.byCode["contract.violation"] ?? 0).toBe(0);
    const europe = await readEurope(new LocalStore(dir), manifest);
    expect(validateCollection(europe)).toEqual([]);
    const types = new Set(europe.features.map((f) => f.properties.vendor.dynamicAirspaceMapping.activationType));
    if (HAS_SHARED) {
      for (const t of [
        "isActiveRestrictiveNOTAM",
        "isActiveActivityNOTAM",
        "isActiveAirspaceNOTAM",
        "isActivatedByNOTAMAirspace",
      ]) {
        expect(types, t).toContain(t);
      }
    }
    for (const f of europe.features) {
      const p = f.properties;
      const m = p.vendor.dynamicAirspaceMapping;
      if (p.type === 99) {
        expect(p.featureCategory).toBe("graphicalNotam");
        expect(p._id).toMatch(/^notam-[A-Z]\d{4}-\d{2}-[A-Z]{4}$/);
        expect(m.notams).toHaveLength(1);
        expect(m.notams[0]!.GeoJSONGeometry).toBeDefined();
        expect(p.iscraneobstacle).toBeDefined(); // production variant
      }
      if (m.activationType === "isActivatedByNOTAMAirspace") {
        expect(m.notams.every((n) => n.NotamIsOfKind === "A")).toBe(true);
        expect(m.airspaceActivationTimes.length).toBeGreaterThan(0);
      }
    }
    // meta.count: graphical NOTAMs and A/D NOTAMs add up per country and for EUROPE
    const sum = (k: "graphicalNotams" | "airspaces") =>
      Object.values(manifest.countries).reduce<number>(
        (n, e) => n + (e as { count: Record<string, number> }).count[k]!,
        0,
      );
    expect(europe.meta.count.graphicalNotams).toBe(sum("graphicalNotams"));
    expect(europe.meta.count.graphicalNotams).toBe(europe.features.filter((f) => f.properties.type === 99).length);
    expect(europe.meta.count.airspaces).toBe(sum("airspaces"));
    expect(report.notams?.read).toBeGreaterThan(0);
  });

  it("leaves the obstacle facets out in the development variant but keeps the features", async () => {
    const day = utcDay("2018-09-14")!;
    const { airspaces, notams } = inputs();
    const dir = tempDir();
    await publishDay(
      airspaces,
      { day, now: day.start, sources: { notam: [], aup: [] }, notams, variant: "development" },
      { store: new LocalStore(dir), log: silentLogger },
    );
    const pointer = JSON.parse(readFileSync(path.join(dir, "v1/current.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(dir, pointer.manifest), "utf8"));
    const europe = await readEurope(new LocalStore(dir), manifest);
    const notamFeatures = europe.features.filter((f) => f.properties.type >= 98);
    expect(notamFeatures.length).toBeGreaterThan(0);
    expect(notamFeatures.every((f) => f.properties.iscraneobstacle === undefined)).toBe(true);
  });
});
