// Invariants over every real airspace file in ../shared/data/airspace (docs/design.md §2): each publishes on
// its own with zero contract violations, and every record read is published, skipped or filtered, each
// skip and repair with a diagnostic. Without the corpus the same checks run on fixtures/sample.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import { LocalStore } from "../../src/store/local-store.js";
import { FIXTURES, HAS_SHARED, SHARED_DATA, tempDir, warnNoShared } from "../helpers.js";

const AIRSPACE_FILE = /\.(geojson|txt|openair|aip)$/;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && AIRSPACE_FILE.test(e.name) && e.name !== "PROVENANCE.md")
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const corpus = HAS_SHARED ? files(path.join(SHARED_DATA, "airspace")) : files(path.join(FIXTURES, "sample"));
warnNoShared("airspace corpus");
const day = utcDay("2025-06-20")!;

describe(`every airspace file publishes cleanly (${HAS_SHARED ? "shared corpus" : "fixtures only"})`, () => {
  it("finds the files", () => expect(corpus.length).toBeGreaterThanOrEqual(HAS_SHARED ? 20 : 5));

  it.each(corpus.map((f) => [path.relative(path.dirname(SHARED_DATA), f), f]))("%s", async (_, file) => {
    const dir = tempDir();
    const report = await publishDay(
      [{ name: path.basename(file), bytes: readFileSync(file), fetchedAt: day.start }],
      { day, now: day.start + 10 * 3600_000, sources: { notam: [], aup: [] } },
      { store: new LocalStore(dir), log: silentLogger },
    );
    // accounted for: read = published + skipped (+ filtered, none here)
    expect(report.records.read).toBeGreaterThan(0);
    expect(report.records.published + report.records.skipped + report.records.filteredOut).toBe(report.records.read);
    expect(report.diagnostics.byCode["contract.violation"] ?? 0).toBe(0);
    // every published object passes the contract when read back
    const pointer = JSON.parse(readFileSync(path.join(dir, "v1/current.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(dir, pointer.manifest), "utf8"));
    let total = 0;
    for (const [cc, entry] of Object.entries<{ key: string; count: { total: number } }>(manifest.countries)) {
      const fc = JSON.parse(zlib.gunzipSync(readFileSync(path.join(dir, entry.key))).toString("utf8"));
      expect(validateCollection(fc), `${cc} of ${file}`).toEqual([]);
      total += fc.features.length;
    }
    expect(total).toBe(report.records.published);
    const europe = await readEurope(new LocalStore(dir), manifest);
    expect(validateCollection(europe), `EUROPE of ${file}`).toEqual([]);
    expect(europe.features.length).toBe(report.records.published);
  });
});

describe("Poland's lotnik.org OpenAir (issue 42: its records were skipped)", () => {
  const file = path.join(SHARED_DATA, "airspace", "openair-other", "pl_lotnik_2026-03.txt");
  it.runIf(HAS_SHARED)("publishes every record but an empty block and `AH FL2000`; 61 retraced rings cut", async () => {
    const dir = tempDir();
    const report = await publishDay(
      [{ name: path.basename(file), bytes: readFileSync(file), fetchedAt: day.start }],
      { day, now: day.start, sources: { notam: [], aup: [] } },
      { store: new LocalStore(dir), log: silentLogger },
    );
    expect(report.records).toMatchObject({ read: 1349, published: 1347, skipped: 2 });
    expect(report.diagnostics.byCode).toMatchObject({
      "geometry.retraced": 61,
      "openair.geometry.tooFewPoints": 1,
      "openair.limit.unparsable": 1,
    });
    expect(report.diagnostics.byCode["geometry.degenerate"]).toBeUndefined();
  });
});
