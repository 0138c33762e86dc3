// The validate stage per country: a feature that fails the contract, or repeats an `_id` the country has already,
// is left out with a diagnostic; the rest is published.
import { describe, expect, it } from "vitest";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { countryStage } from "../../src/publish/country-stage.js";
import { feature } from "./fixtures.js";

describe("countryStage", () => {
  it("leaves a repeated _id out (the first feature with it is kept) and says so", async () => {
    const a = feature("ed-r1", "DE", 8);
    const again = {
      ...feature("ed-r1", "DE", 9),
      properties: { ...feature("ed-r1", "DE", 9).properties, name: "TWICE" },
    };
    const b = feature("ed-r2", "DE", 10);
    const sink = new DiagnosticSink();
    const stage = await countryStage(
      [a, again, b],
      { tier: "dynamic", date: "2026-09-14", airspaceNotams: () => 0 },
      sink,
    );
    const de = stage.byCountry.get("DE")!.features;
    expect(de.map((f) => f.properties._id)).toEqual(["ed-r1", "ed-r2"]);
    expect(de[0]).toBe(a);
    expect(sink.countByCode()).toEqual({ "contract.duplicateId": 1 });
    expect(stage.artifacts.get("DE")!.entry.count.total).toBe(2);
  });
});
