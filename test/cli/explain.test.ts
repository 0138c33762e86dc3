// `explain` names the rule of the decision table that fired and its evidence (issue 15 §5), from a published store
// (the explanations kept under internal/explain/) or from the inputs.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { io } from "./io.js";

const DE = path.join(FIXTURES, "pipeline", "de-mixed", "de_asp.geojson");
const DE_NOTAMS = path.join(FIXTURES, "notam", "icao-plain.txt");
// 2025-06-21 is a Saturday
const args = ["--airspaces", DE, "--date", "2025-06-21", "--now", "2025-06-21T10:00:00Z"];
const PEENEMUENDE = "67b6041879a656616c120018"; // ED-R PEENEMUENDE (NOTAM), byNotam, FIR EDWW
const PUTLOS = "67dbee0ea7f2a48e4ee0504f"; // ED-D19A TODENDORF-PUTLOS MON-SAT+

async function explain(extra: string[], id: string) {
  const t = io();
  expect(await main(["explain", ...args, ...extra, "--id", id, "--json"], t.io)).toBe(0);
  return JSON.parse(t.out());
}

describe("explain", () => {
  it("explains a feature of a published store: the rule that fired and why", async () => {
    const store = tempDir();
    expect(await main(["publish", ...args, "--store", store, "--quiet"], io().io)).toBe(0);
    const t = io();
    expect(await main(["explain", "--store", store, "--id", "67dbee0fa7f2a48e4ee05187", "--json"], t.io)).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({
      id: "67dbee0fa7f2a48e4ee05187",
      isActive: "Yes",
      activationType: "isActive",
      rule: "permanent",
      because: expect.stringMatching(/^a permanent airspace/),
    });
  });

  it("names the missing source when a conditional airspace is Unknown", async () => {
    expect(await explain([], PEENEMUENDE)).toMatchObject({
      isActive: "Unknown",
      rule: "conditionalUnknown",
      evidence: [{ kind: "notam", state: "missing" }],
      because: expect.stringMatching(/no NOTAM source was given/),
    });
  });

  it("names the region a fresh but off-region source covers", async () => {
    const french = ["--notams", DE_NOTAMS, "--notam-as-of", "2025-06-21T09:30:00Z", "--notam-firs", "LFFF,LFRR"];
    const e = await explain(french, PEENEMUENDE);
    expect(e).toMatchObject({ isActive: "Unknown", evidence: [{ kind: "notam", state: "offRegion" }] });
    expect(e.because).toBe(
      "conditional, and not every source that could activate it is fresh evidence for FIR EDWW: " +
        "no NOTAM source briefs EDWW (they brief LFFF LFRR)",
    );
    // the source's name is in the evidence, for operators; the sentence, which the map page shows, has none
    expect(e.evidence[0].reason).toMatch(/^briefs .*icao-plain\.txt: LFFF LFRR$/);
    expect(e.conditionalOn).toEqual(["activated by NOTAM (byNotam)"]);
  });

  it("names the fresh covering source, its as-of time and FIR, when a conditional airspace is No", async () => {
    const declared = ["--notams", DE_NOTAMS, "--notam-as-of", "2025-06-21T09:30:00Z", "--notam-firs", "EDWW,EDGG"];
    expect(await explain(declared, PEENEMUENDE)).toMatchObject({
      isActive: "No",
      rule: "conditionalInactive",
      evidence: [{ kind: "notam", state: "fresh", asOf: "2025-06-21T09:30:00Z" }],
      because: expect.stringMatching(/fresh .* and briefs EDWW/),
    });
  });

  it("names the AIP's own hours that decided", async () => {
    expect(await explain([], PUTLOS)).toMatchObject({
      isActive: "Yes",
      activationType: "isActive",
      rule: "aipHours",
      hours: { text: "MON-SAT+", from: "name", kind: "weekly" },
      because: 'active by its own hours "MON-SAT+" (from its name)',
    });
  });

  it("explains from the inputs without a store, as text", async () => {
    const t = io();
    expect(await main(["explain", ...args, "--id", PEENEMUENDE], t.io)).toBe(0);
    expect(t.out()).toMatch(
      new RegExp(
        `^${PEENEMUENDE} {2}ED-R PEENEMUENDE .+\\nisActive Unknown, isOtherActiveAirspace\\nbecause \\(conditionalUnknown\\): conditional, .+\\nconditional: .+\\n {2}notam source: missing\\nintervals: none`,
      ),
    );
  });

  it("exits 1 for an unknown id and 2 without --id", async () => {
    const t = io();
    expect(await main(["explain", ...args, "--id", "nope"], t.io)).toBe(1);
    expect(t.err()).toMatch(/no feature "nope"/);
    expect(await main(["explain", ...args], io().io)).toBe(2);
  });

  it("names the deactivating NOTAM when it cuts a permanent airspace's day (the real UK briefing of make run)", async () => {
    const t = io();
    const uk = [
      "--airspaces",
      path.join(FIXTURES, "uk"),
      "--notams",
      path.join(FIXTURES, "uk", "uk_pib_2026-08-22T1116Z.xml.gz"),
    ];
    const day = ["--date", "2026-08-22", "--now", "2026-08-22T11:15:00Z"];
    expect(await main(["explain", ...uk, ...day, "--id", "yaixm-norwich-ctr"], t.io)).toBe(0);
    expect(t.out()).toContain(
      "because (permanent): active by its type 00:00–04:45, 06:15–07:00, 08:00–09:15, 09:45–11:30, 12:15–13:45 and 14:30–24:00 UTC; deactivated by NOTAM A3203/26 04:45–06:15, 07:00–08:00, 09:15–09:45, 11:30–12:15 and 13:45–14:30 UTC",
    );
  });
});
