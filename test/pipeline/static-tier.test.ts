// The internal static tier (docs/design.md §5): the airspaces built from the airspace sources alone, before NOTAMs and
// AUP, under internal/static/v1 with meta.tier "static"; the public tier is unchanged beside it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { FIXTURES } from "../helpers.js";

describe("the static tier", () => {
  it("holds the airspaces alone, with tier static, beside the dynamic tier", async () => {
    const store = new MemoryStore();
    const day = utcDay("2026-09-14")!;
    const file = (p: string) => ({ name: path.basename(p), bytes: readFileSync(p), fetchedAt: day.start });
    const notams = [file(path.join(FIXTURES, "notam", "uk-pib.jsonl"))];
    await publishDay(
      [file(path.join(FIXTURES, "sample", "de_asp_2025-06.geojson"))],
      { day, now: day.start, sources: { notam: [], aup: [] }, notams, staticTier: true },
      { store, log: silentLogger },
    );
    const dynamic = (await currentManifest(store))!;
    const stat = (await currentManifest(store, "static"))!;
    expect(stat.tier).toBe("static");
    expect(stat.countries.DE!.key.startsWith("internal/static/v1/objects/")).toBe(true);
    expect(Object.values(stat.sources).every((s) => s.kind === "airspace")).toBe(true);
    const fc = await readEurope(store, stat);
    expect(fc.meta.tier).toBe("static");
    expect(validateCollection(fc)).toEqual([]);
    expect(
      fc.features.every(
        (f) => f.properties.type < 98 && f.properties.vendor.dynamicAirspaceMapping.notams.length === 0,
      ),
    ).toBe(true);
    expect(fc.features.length).toBe(dynamic.europe.count.airspaces);
  });
});
