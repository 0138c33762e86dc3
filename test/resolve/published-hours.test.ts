// Published hours are a plan that a NOTAM may extend (issue 22 §2, docs/design.md §4): outside its own hours an airspace is
// `No` only when a fresh NOTAM source briefs its FIR. Real records: the 95 French restricted areas named
// `(MON-FRI)` and 15 named `(HX)` of the openAIP 2025 export (fixtures/hours-fr), published through the CLI on
// Saturday 2026-08-22 with no NOTAM source, with the UK briefing of that morning (fresh, but it briefs EGTT and
// EGPX only), and with French NOTAMs declared fresh for the five French FIRs.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import type { FeatureCollection } from "../../src/model/contract.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { io } from "../cli/io.js";
import { FIXTURES, tempDir } from "../helpers.js";

const FR = path.join(FIXTURES, "hours-fr", "fr_hours_2025-10.geojson");
const LF_NOTAMS = path.join(FIXTURES, "hours-fr", "lfff_notams_2018.jsonl");
const UK_PIB = path.join(FIXTURES, "uk", "uk_pib_2026-08-22T1116Z.xml.gz");

async function publish(date: string, now: string, extra: string[] = []) {
  const dir = tempDir("hours-fr-");
  const argv = ["publish", "--airspaces", FR, "--date", date, "--now", now, "--store", dir, "--quiet", ...extra];
  expect(await main(argv, io().io)).toBe(0);
  const store = new LocalStore(dir);
  const manifest = (await currentManifest(store))!;
  const europe: FeatureCollection = await readEurope(store, manifest);
  const explanations = (await readExplanations(store, manifest.version))!;
  const areas = europe.features
    .filter((f) => f.properties.featureCategory === "airspace" && f.properties.country === "FR")
    .map((f) => {
      const m = f.properties.vendor.dynamicAirspaceMapping;
      const e = explanations.features[f.properties._id]!;
      return {
        name: f.properties.name,
        isActive: m.isActive,
        type: m.activationType,
        rule: e.rule,
        because: e.because,
      };
    });
  return {
    weekday: areas.filter((a) => a.name.endsWith("(MON-FRI)")),
    hx: areas.filter((a) => a.name.endsWith("(HX)")),
  };
}

const saturday = (extra: string[] = []) => publish("2026-08-22", "2026-08-22T11:15:00Z", extra);

describe("published hours a NOTAM may extend, on the French (MON-FRI) areas", () => {
  it("with no NOTAM source: Unknown on a Saturday, never No, and explain says why", async () => {
    const { weekday, hx } = await saturday();
    expect(weekday).toHaveLength(95);
    expect(weekday.filter((a) => a.isActive !== "Unknown")).toEqual([]);
    expect(new Set(weekday.map((a) => `${a.type} ${a.rule}`))).toEqual(
      new Set(["isOtherActiveAirspace aipHoursMayExtend"]),
    );
    expect(weekday[0]!.because).toMatch(
      /^outside its published hours \(MON-FRI\); no fresh NOTAM source covers LF[A-Z]{2}, and a NOTAM may extend them: no NOTAM source was given$/,
    );
    expect(hx.filter((a) => a.isActive !== "Unknown")).toEqual([]);
  });

  it("with the UK briefing only (fresh, off-region for France): still Unknown", async () => {
    const { weekday } = await saturday(["--notams", UK_PIB]);
    expect(weekday.filter((a) => a.isActive !== "Unknown")).toEqual([]);
    expect(weekday[0]!.because).toMatch(/no fresh NOTAM source covers LF[A-Z]{2}.*no NOTAM source briefs LF/);
  });

  it("with a NOTAM source declared fresh for the French FIRs: No, naming that source", async () => {
    const declared = ["--notams", LF_NOTAMS, "--notam-as-of", "2026-08-22T11:00:00Z"];
    const { weekday, hx } = await saturday([...declared, "--notam-firs", "LFFF,LFEE,LFMM,LFBB,LFRR"]);
    expect(weekday.filter((a) => a.isActive !== "No" || a.rule !== "aipHoursOff")).toEqual([]);
    expect(weekday[0]!.because).toMatch(
      /^not active: its own hours "\(MON-FRI\)" \(from its name\) do not cover the day; the NOTAM source is fresh \(as of 2026-08-22T11:00:00Z\) and briefs LF[A-Z]{2}, and no NOTAM extends them$/,
    );
    // HX publishes no times: never No, whatever the sources
    expect(hx.filter((a) => a.isActive !== "Unknown")).toEqual([]);
  });

  it("on a Monday the same areas are active by their hours, with or without a NOTAM source", async () => {
    const { weekday } = await publish("2026-08-24", "2026-08-24T11:15:00Z");
    expect(weekday.filter((a) => a.isActive !== "Yes" || a.rule !== "aipHours")).toEqual([]);
  });
});
