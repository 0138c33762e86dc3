// One NOTAM read twice (two briefings that overlap, or one repeated) is one feature: the real UK PIB of 2026-08-22
// given twice publishes exactly what it publishes once, every `_id` once; a second reading whose Item E differs is
// dropped with a warning that names the reading kept.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { FIXTURES } from "../helpers.js";

const DAY = utcDay("2026-08-22")!;
const NOW = Date.parse("2026-08-22T11:20:00Z");
const UK = path.join(FIXTURES, "uk");
const AIRSPACE = ["gb_airspace_2026-06.yaml", "gb_rat_2026-06.yaml", "gb_service_2026-06.yaml"].map((name) => ({
  name,
  bytes: readFileSync(path.join(UK, name)),
  fetchedAt: NOW,
}));
const PIB = readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz"));

async function publish(pibs: Array<{ name: string; bytes: Buffer }>) {
  const store = new MemoryStore();
  const notams = pibs.map((p) => ({ ...p, fetchedAt: NOW }));
  const report = await publishDay(
    AIRSPACE,
    { day: DAY, now: NOW, sources: { notam: [], aup: [] }, notams },
    { store, log: silentLogger },
  );
  return { report, europe: await readEurope(store, (await currentManifest(store))!) };
}

describe("a NOTAM read twice", () => {
  it("is one feature: the PIB given twice publishes what it publishes once", async () => {
    const once = await publish([{ name: "uk_pib.xml.gz", bytes: PIB }]);
    const twice = await publish([
      { name: "uk_pib.xml.gz", bytes: PIB },
      { name: "uk_pib_again.xml.gz", bytes: PIB },
    ]);
    expect(validateCollection(twice.europe)).toEqual([]);
    const ids = twice.europe.features.map((f) => f.properties._id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(JSON.stringify(twice.europe.features)).toBe(JSON.stringify(once.europe.features));
    const read = once.report.notams!.read;
    expect(read).toBeGreaterThan(1000);
    expect(twice.report.notams!.dropped.duplicate).toBe(read);
    expect(twice.report.diagnostics.byCode["notam.duplicate"]).toBeUndefined();
  });

  it("keeps the first reading and warns when a second one says otherwise", async () => {
    const xml = gunzipSync(PIB).toString("utf8");
    const first = xml.indexOf("<ItemE>");
    const edited = `${xml.slice(0, first)}<ItemE>EDITED ${xml.slice(first + "<ItemE>".length)}`;
    const r = await publish([
      { name: "uk_pib.xml.gz", bytes: PIB },
      { name: "uk_pib_edited.xml.gz", bytes: gzipSync(edited) },
    ]);
    expect(r.report.diagnostics.byCode["notam.duplicate"]).toBe(1);
    const ids = r.europe.features.map((f) => f.properties._id);
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(r.europe.features);
    expect(text).not.toContain("EDITED");
  });
});
