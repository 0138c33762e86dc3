// What the NOTAM stage makes of real areas (issue 57): an obstacle from GND to its stated top, a border stretch
// followed, and the per-state figures of the run report (drawn from Item E, with a border, from the Q-line and why).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activeAt } from "../../src/client/active.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { utcDay } from "../../src/model/time.js";
import { LimitUnit, ReferenceDatum } from "../../src/model/vocab.js";
import { readSofiaText } from "../../src/notam/sofia.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { notamStage } from "../../src/resolve/notam-stage.js";
import { meetsBand, summarize } from "../../web/logic.js";
import { popup } from "../../web/popup.js";
import { FIXTURES } from "../helpers.js";

const blocks = new Map(
  readFileSync(path.join(FIXTURES, "notam-areas", "notams.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { notam: string; brief: string; block: string })
    .map((r) => [r.notam, r]),
);
const read = (key: string, block = blocks.get(key)!.block) => readSofiaText(block, key).notams[0]!;

// a border stretch that cannot be followed: EER2509B's points moved 1° west, into Estonia
const moved = read(
  "EETN-A0223/26",
  blocks
    .get("EETN-A0223/26")!
    .block.replace(/0280236E/, "0270236E")
    .replace(/0272141E/, "0262141E"),
);
const notams = [
  read("EETN-A0223/26"),
  read("LOWW-B2696/25"),
  read("EBBR-F2859/25"),
  { ...moved, id: "A9223/26", number: 9223 },
];
const day = utcDay("2026-02-09")!;
const stage = notamStage(
  notams,
  new AirspaceLinker([]),
  { day, now: day.start + 10 * 3_600_000, variant: "production" },
  new DiagnosticSink(),
);
const feature = (id: string) => stage.features.find((f) => f.properties._id === id)!;

describe("the NOTAM stage's areas", () => {
  it("publishes an obstacle from GND to the top its Item E states, in the feature and its NOTAM record", () => {
    const crane = feature("notam-B2696-25-LOWW");
    expect(crane.properties.upperLimit).toEqual({
      value: 2930,
      unit: LimitUnit.FEET,
      referenceDatum: ReferenceDatum.MSL,
    });
    expect(crane.properties.lowerLimit).toEqual({ value: 0, unit: LimitUnit.FEET, referenceDatum: ReferenceDatum.GND });
    expect(crane.properties.vendor.formattedUpperLimit).toBe("2930 ft MSL");
    expect(crane.properties.vendor.dynamicAirspaceMapping.notams[0]?.notamUpperLimit).toEqual(
      crane.properties.upperLimit,
    );
    expect(feature("notam-F2859-25-EBBR").properties.vendor.formattedUpperLimit).toBe("51 m AGL");
  });

  it("shows the crane's top in the map page's popup, and a band above it leaves the crane out", () => {
    const crane = feature("notam-B2696-25-LOWW");
    const noon = day.start + 12 * 3_600_000;
    expect(popup(crane, "2026-02-09", noon)).toContain("<td>Limits</td><td>GND – 2930 ft MSL</td>");
    // the map page's band filter, and the client's activeAt with a band
    const low = summarize(crane);
    expect([meetsBand(low, [0, 2500]), meetsBand(low, [3000, 10_000])]).toEqual([true, false]);
    expect(crane.properties.vendor.dynamicAirspaceMapping.isActive).toBe("Yes");
    expect(activeAt(crane, noon)).toBe("Yes");
    expect(activeAt(crane, noon, { lowerFt: 3000, upperFt: 10_000 })).toBe("No");
    expect(activeAt(crane, noon, { lowerFt: 2000, upperFt: 4500 })).toBe("Yes");
  });

  it("counts per state what was drawn from Item E, with a border followed, and the Q-line circles by why", () => {
    expect(stage.summary.geometryByState).toEqual({
      AT: { itemE: 1, borders: 0, qLine: {} },
      BE: { itemE: 1, borders: 0, qLine: {} },
      EE: { itemE: 1, borders: 1, qLine: { borderUnfollowed: 1 } },
    });
    expect(stage.summary.bordersUnfollowed).toEqual([
      { id: "notam-A9223-26-EETN", why: expect.stringMatching(/EE–RU border/) },
    ]);
  });
});
