import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contractJsonSchema } from "../../src/model/json-schema.js";
import { expectGolden, ROOT } from "../helpers.js";

const FILE = path.join(ROOT, "docs", "contract.schema.json");

describe("docs/contract.schema.json", () => {
  it("is the schema generated from the zod contract (make schema rewrites it)", () => {
    expectGolden(FILE, contractJsonSchema());
  });

  it("names every docs/contract.md §2 structure", () => {
    const defs = Object.keys((JSON.parse(readFileSync(FILE, "utf8")) as { $defs: object }).$defs);
    for (const name of [
      "Feature",
      "FeatureProperties",
      "VerticalLimit",
      "Vendor",
      "DynamicAirspaceMapping",
      "ScheduleRow",
      "LinkedNotam",
      "ItemDParsedSchedule",
      "AupUupRecord",
      "DynamicStyle",
    ]) {
      expect(defs).toContain(name);
    }
  });
});
