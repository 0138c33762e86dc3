// A NOTAM feature at another instant (src/resolve/notam-feature.ts notamFeatureAt), as features resolved ahead take
// it, against the feature a derivation at that instant makes: the same JSON, every hour of the day.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { utcDay } from "../../src/model/time.js";
import { readNotamSource } from "../../src/notam/read.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { notamStage } from "../../src/resolve/notam-stage.js";
import type { Track } from "../../src/resolve/now-window.js";
import { FIXTURES } from "../helpers.js";

const day = utcDay("2026-08-22")!;
// the real UK briefing of that day (fixtures/uk): some 2 000 NOTAMs of every kind, with and without Item D
const bytes = readFileSync(path.join(FIXTURES, "uk", "uk_pib_2026-08-22T1116Z.xml.gz"));
const notams = readNotamSource(bytes, "uk_pib_2026-08-22T1116Z.xml.gz").notams;

const stageAt = (now: number, track?: Map<string, Track<Feature>>) =>
  notamStage(
    notams,
    new AirspaceLinker([]),
    { day, now, variant: "production", ...(track ? { track } : {}) },
    new DiagnosticSink(),
  );

describe("a NOTAM feature at another instant", () => {
  it("is, byte for byte, what a derivation at that instant makes", () => {
    const track = new Map<string, Track<Feature>>();
    const first = stageAt(day.start + 11 * 3_600_000, track);
    expect(first.features.length).toBeGreaterThan(500);
    expect(track.size).toBe(first.features.length);
    let changed = 0;
    for (let h = 0; h < 24; h++) {
      const now = day.start + h * 3_600_000 + 17 * 60_000;
      const derived = new Map(stageAt(now).features.map((f) => [f.properties._id, JSON.stringify(f)]));
      for (const f of first.features) {
        const id = f.properties._id;
        const at = track.get(id)!.at(now).feature;
        expect(JSON.stringify(at), `${id} at ${new Date(now).toISOString()}`).toBe(derived.get(id));
        if (
          at.properties.vendor.dynamicAirspaceMapping.isActive !== f.properties.vendor.dynamicAirspaceMapping.isActive
        )
          changed++;
      }
    }
    // the instants do change features: the comparison is not of one state with itself
    expect(changed).toBeGreaterThan(100);
  });
});
