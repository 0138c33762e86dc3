// End to end with the real AUP table (issue 5): the RSA allocations of 2022-02-23 with the airspace
// exports of its countries, published for that day: allocations linked per country, features per
// activation type in the report, zero contract violations.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import { LocalStore } from "../../src/store/local-store.js";
import { FIXTURES, HAS_SHARED, SHARED_DATA, tempDir, warnNoShared } from "../helpers.js";

const day = utcDay("2022-02-23")!;
const now = Date.parse("2022-02-23T10:00:00Z");
const file = (p: string) => ({ name: path.basename(p), bytes: readFileSync(p), fetchedAt: now });

function inputs() {
  if (!HAS_SHARED) {
    warnNoShared("AUP end to end");
    return {
      airspaces: [
        file(path.join(FIXTURES, "sample", "de_asp_2025-06.geojson")),
        file(path.join(FIXTURES, "sample", "at_asp_2022-09.geojson")),
      ],
      aup: [file(path.join(FIXTURES, "aup-csv", "eaup_rsa_2022-02-23T0959Z.csv"))],
    };
  }
  const a = path.join(SHARED_DATA, "airspace");
  return {
    airspaces: [
      "openaip-geojson/de_asp_2022-09.geojson",
      "openaip-geojson/at_asp_2022-09.geojson",
      "openaip-geojson/ch_asp_2022-09.geojson",
      "openaip-v1-xml-2018/openaip_airspace_belgium_be.aip",
      "openaip-v1-xml-2018/openaip_airspace_netherlands_nl.aip",
      "openaip-openair/fr_asp_v2_2025-10.txt",
    ].map((f) => file(path.join(a, f))),
    aup: [file(path.join(SHARED_DATA, "aup", "vlara_eaup_rsa_csv", "eaup_rsa_2022-02-23T0959Z_edead82f.csv"))],
  };
}

describe(`publish with the AUP (${HAS_SHARED ? "shared corpus" : "fixtures only"})`, () => {
  it("links allocations, activates their airspaces, and publishes a valid collection", async () => {
    const store = new LocalStore(tempDir());
    const { airspaces, aup } = inputs();
    const report = await publishDay(
      airspaces,
      { day, now, sources: { notam: [], aup: [] }, aup },
      { store, log: silentLogger },
    );
    expect(report.sourceStates.aup.map((s) => s.standing)).toEqual(["fresh"]);
    expect(report.aup?.allocationsOnTheDay).toBeGreaterThan(0);
    expect(report.diagnostics.byCode["contract.violation"] ?? 0).toBe(0);
    const manifest = (await currentManifest(store))!;
    const europe = await readEurope(store, manifest);
    expect(validateCollection(europe)).toEqual([]);
    const byAup = europe.features.filter(
      (f) => f.properties.vendor.dynamicAirspaceMapping.activationType === "isActivatedByAUPAirspace",
    );
    if (HAS_SHARED) {
      expect(report.aup!.linked).toBeGreaterThan(50);
      expect(Object.keys(report.aup!.linkedPerCountry).sort()).toEqual(
        expect.arrayContaining(["AT", "DE", "FR", "NL"]),
      );
      expect(byAup.length).toBe(report.activity.activationType.isActivatedByAUPAirspace);
      expect(byAup.length).toBeGreaterThan(20);
    }
    for (const f of byAup) {
      const m = f.properties.vendor.dynamicAirspaceMapping;
      expect(m.aupuups.length).toBeGreaterThan(0);
      for (const r of m.aupuups) expect(Date.parse(r.StartDT)).toBeLessThan(Date.parse(r.EndDT));
      expect(m.airspaceActivationTimes.length).toBeGreaterThan(0);
    }
  });

  it("without the plan of the day the AUP is stale, and AUP-managed airspaces are Unknown, never No", async () => {
    const store = new LocalStore(tempDir());
    const { airspaces, aup } = inputs();
    const next = utcDay("2022-02-25")!;
    const report = await publishDay(
      airspaces,
      { day: next, now: next.start + 36e5 * 10, sources: { notam: [], aup: [] }, aup },
      { store, log: silentLogger },
    );
    expect(report.sourceStates.aup.map((s) => s.standing)).toEqual(["stale"]);
    expect(report.activity.activationType.isActivatedByAUPAirspace ?? 0).toBe(0);
    const europe = await readEurope(store, (await currentManifest(store))!);
    const tra = europe.features.filter((f) => f.properties.type === 8 || f.properties.type === 9);
    for (const f of tra) expect(f.properties.vendor.dynamicAirspaceMapping.isActive).toBe("Unknown");
  });
});
