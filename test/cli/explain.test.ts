import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { io } from "./io.js";

const DE = path.join(FIXTURES, "pipeline", "de-mixed", "de_asp.geojson");
const args = ["--airspaces", DE, "--date", "2025-06-20", "--now", "2025-06-20T10:00:00Z"];

describe("explain", () => {
  it("explains a feature of a published store: state, rule and intervals", async () => {
    const store = tempDir();
    expect(await main(["publish", ...args, "--store", store, "--quiet"], io().io)).toBe(0);
    const t = io();
    expect(await main(["explain", "--store", store, "--id", "67dbee0fa7f2a48e4ee05187", "--json"], t.io)).toBe(0);
    const e = JSON.parse(t.out());
    expect(e).toMatchObject({
      id: "67dbee0fa7f2a48e4ee05187",
      isActive: expect.any(String),
      activationType: expect.any(String),
    });
    expect(e.rule.length).toBeGreaterThan(10);
  });

  it("explains from the inputs without a store, as text", async () => {
    const t = io();
    expect(await main(["explain", ...args, "--id", "67dbee0fa7f2a48e4ee05187"], t.io)).toBe(0);
    expect(t.out()).toMatch(/^67dbee0fa7f2a48e4ee05187 {2}.+\nisActive (Yes|No|Unknown), \w+: .+\nintervals: /);
  });

  it("exits 1 for an unknown id and 2 without --id", async () => {
    const t = io();
    expect(await main(["explain", ...args, "--id", "nope"], t.io)).toBe(1);
    expect(t.err()).toMatch(/no feature "nope"/);
    expect(await main(["explain", ...args], io().io)).toBe(2);
  });
});
