// `make run` (issue 16 §5): the Makefile's own RUN_ARGS (UK YAIXM airspace + the UK PIB of 2026-08-22, both in
// fixtures/uk) published into a throwaway store. The publication must show the product: several activation types,
// airspaces activated by linked NOTAMs, graphical NOTAMs, frequencies on the CTRs, no contract violation, and a
// short human summary. Also the figure of the issue: the PIB's danger-area activations linked to their areas.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import type { FeatureCollection } from "../../src/model/contract.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { utcDay } from "../../src/model/time.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { notamKind } from "../../src/notam/kind.js";
import { readNotamSource } from "../../src/notam/read.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import type { RunReport } from "../../src/report.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { LocalStore } from "../../src/store/local-store.js";
import { maxError } from "../../src/tiles/build.js";
import { checkArchive } from "../../src/tiles/check.js";
import { openArchive } from "../../src/tiles/read-back.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";
import { io } from "./io.js";

const makefile = readFileSync(path.join(ROOT, "Makefile"), "utf8");
/** The arguments a Makefile variable (`RUN_ARGS := …`) gives the publish command. */
const argsOf = (name: string) => new RegExp(`^${name} := (.+)$`, "m").exec(makefile)?.[1]?.split(/\s+/) ?? [];
const RUN_ARGS = argsOf("RUN_ARGS");
const UK = path.join(FIXTURES, "uk");

/** What `make <target>` does: publish with the Makefile's arguments into a new store; its summary, report, EUROPE. */
async function publishAsMake(
  args: readonly string[],
): Promise<{ out: string; report: RunReport; europe: FeatureCollection; local: LocalStore }> {
  const store = tempDir("make-run-");
  const t = io();
  const full = args.map((a) => (a.startsWith("fixtures/") ? path.join(ROOT, a) : a));
  const code = await main(["publish", ...full, "--store", store, "--report", path.join(store, "report.json")], t.io);
  if (code !== 0) throw new Error(t.err());
  const local = new LocalStore(store);
  return {
    out: t.out(),
    report: JSON.parse(readFileSync(path.join(store, "report.json"), "utf8")),
    europe: await readEurope(local, (await currentManifest(local))!),
    local,
  };
}

let out = "";
let report: RunReport;
let europe: FeatureCollection;
let local: LocalStore;

beforeAll(async () => {
  ({ out, report, europe, local } = await publishAsMake(RUN_ARGS));
}, 60_000);

describe("make run: the UK on 2026-08-22 from YAIXM and the NATS PIB", () => {
  it("is what the Makefile runs", () => {
    expect(RUN_ARGS).toContain("fixtures/uk");
    expect(makefile).toMatch(/^run: build\n\t\$\(CLI\) publish \$\(RUN_ARGS\)/m);
  });

  it("publishes vector tiles that hold at their highest zoom exactly its features, within the stated distance", async () => {
    const m = (await currentManifest(local))!;
    const archive = await openArchive((await local.get(m.tiles!.key))!);
    const r = await checkArchive(archive, europe.features, utcDay(m.date)!);
    expect(r.features).toBe(europe.features.length);
    expect([r.missing, r.extra, r.properties, r.farther]).toEqual([[], [], [], []]);
    expect(r.drawnError).toBeLessThanOrEqual(maxError(49)); // the UK's southernmost tiles
    expect(m.tiles!.largestTile).toBeLessThan(500_000);
  });

  it("shows at least five activation types, NOTAM-activated airspaces and graphical NOTAMs", () => {
    const types = report.activity.activationType;
    expect(Object.keys(types).length).toBeGreaterThanOrEqual(5);
    expect(types.isActivatedByNOTAMAirspace).toBeGreaterThan(0);
    expect(types.isActiveAirspaceDeactivationNOTAM).toBeGreaterThan(0);
    expect(report.countries.GB!.graphicalNotams).toBeGreaterThan(0);
    expect(report.sourceStates.notam.map((s) => [s.standing, [...s.coverage].sort()])).toEqual([
      ["fresh", ["EGGX", "EGPX", "EGTT"]],
    ]);
  });

  it("publishes without a contract violation", () => {
    expect(validateCollection(europe)).toEqual([]);
  });

  it("gives ≥ 80 % of the UK CTRs their frequencies from the YAIXM service file", () => {
    const ctrs = europe.features.filter((f) => f.properties.country === "GB" && f.properties.type === AirspaceType.CTR);
    const withFrequency = ctrs.filter((f) => (f.properties.frequencies ?? []).length > 0);
    expect(ctrs.length).toBeGreaterThan(20);
    expect(withFrequency.length / ctrs.length).toBeGreaterThanOrEqual(0.8);
  });

  it("prints a short human summary: per country, per activation type, the sources, where and how to look", () => {
    expect(out).toMatch(/^published 20260822T111500Z-[0-9a-f]{8}: \d+ features in 2 countries \+ EUROPE/);
    expect(out).toMatch(
      /\n {2}GB +\d+ features: \d+ airspaces, \d+ graphical NOTAMs \(\d+ by evidence, \d+ by default\)\n/,
    );
    expect(out).toMatch(/\n {2}activation: \d+ isActive, .*\d+ isActivatedByNOTAMAirspace/);
    expect(out).toMatch(/\n {2}sources: .*uk_pib_2026-08-22T1116Z\.xml\.gz fresh/);
    expect(out).toMatch(/\n {2}skipped: 2 files that are not data/); // PROVENANCE.md and the PIB, in fixtures/uk
    expect(out).toMatch(/look at it: npx airspace-publisher serve --store \S+ --dev /);
  });
});

describe("the PIB's danger- and restricted-area activations", () => {
  it("link ≥ 90 % of those that name an area of the airspace data", () => {
    const records = ["gb_airspace_2026-06.yaml", "gb_rat_2026-06.yaml"].flatMap(
      (f) => readAirspaceSource(readFileSync(path.join(UK, f)), f).records,
    );
    const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, new DiagnosticSink());
    const linker = new AirspaceLinker(airspaces);
    const designators = new Set(airspaces.map((a) => a.name.split(" ")[0]));
    const pib = "uk_pib_2026-08-22T1116Z.xml.gz";
    let naming = 0;
    let linked = 0;
    for (const n of readNotamSource(readFileSync(path.join(UK, pib)), pib).notams) {
      if (!/^QR[DRP]/.test(n.q?.code ?? "") || notamKind(n.q, n.itemE) !== "R") continue;
      // `EGD117`, `EG D323H`: an area the airspace data holds (temporary areas the NOTAM draws itself are not)
      const named = [...n.itemE.matchAll(/\bEG ?([DRP]) ?(\d{3}[A-Z]?)\b/g)].some((m) =>
        designators.has(m[1]! + m[2]!),
      );
      if (!named) continue;
      naming++;
      const q = { text: n.itemE, locations: n.itemA, country: "GB", ...(n.q?.centre ? { centre: n.q.centre } : {}) };
      if (linker.link(q).airspaces.length > 0) linked++;
    }
    expect(naming).toBeGreaterThanOrEqual(25);
    expect(linked / naming).toBeGreaterThanOrEqual(0.9);
  });
});

describe("make run-europe: a continental day from a SOFIA brief on openAIP FR, DE and CH (fixtures/europe)", () => {
  const ARGS = argsOf("RUN_EUROPE_ARGS");
  let text = "";
  let collection: FeatureCollection;
  let runReport: RunReport;

  beforeAll(async () => {
    ({ out: text, report: runReport, europe: collection } = await publishAsMake(ARGS));
  }, 60_000);

  it("is what the Makefile runs", () => {
    expect(ARGS).toContain("fixtures/europe/airspace");
    expect(makefile).toMatch(/^run-europe: build\n\t\$\(CLI\) publish \$\(RUN_EUROPE_ARGS\)/m);
  });

  it("publishes France, Germany and Switzerland with the brief's NOTAMs, the same kind of summary as make run", () => {
    expect(validateCollection(collection)).toEqual([]);
    expect(text).toMatch(/^published 20260207T100000Z-[0-9a-f]{8}: \d+ features in \d+ countries \+ EUROPE/);
    for (const cc of ["FR", "DE", "CH"])
      expect(text).toMatch(new RegExp(`\\n {2}${cc} +\\d+ features: \\d+ airspaces`));
    expect(text).toMatch(/\n {2}NOTAMs: 926 read, \d+ on the day, \d+ linked to airspaces/);
    // the brief states no issue time: stale, so no conditional area is said to be inactive for want of a NOTAM
    expect(text).toMatch(/\n {2}sources: \S*LPPT-EPWA-20260207\.txt\.gz stale \(no as-of time/);
    expect(runReport.sourceStates.notam.map((s) => s.standing)).toEqual(["stale"]);
  });

  it("counts per country the airspaces decided by evidence and by default, as the features' rows say", () => {
    for (const cc of ["FR", "DE", "CH"]) {
      const c = runReport.countries[cc]!;
      const airspaces = collection.features.filter(
        (f) => f.properties.country === cc && f.properties.featureCategory === "airspace",
      );
      expect(c.decided!.evidence + c.decided!.default).toBe(airspaces.length);
      // `other` (Yes with nothing behind it) and the Unknown defaults all carry isOtherActiveAirspace
      const other = airspaces.filter(
        (f) => f.properties.vendor.dynamicAirspaceMapping.activationType === "isOtherActiveAirspace",
      );
      expect(c.decided!.default).toBeGreaterThan(0);
      expect(c.decided!.default).toBeLessThanOrEqual(other.length);
    }
    expect(text).toMatch(
      /\n {2}FR +\d+ features: \d+ airspaces, \d+ graphical NOTAMs \(\d+ by evidence, \d+ by default\)/,
    );
  });

  it("activates the areas the brief's NOTAMs name, in the three states", () => {
    const byName = (name: string) => collection.features.filter((f) => f.properties.name.split(" (")[0] === name);
    const activated = (name: string) =>
      byName(name).map((f) => f.properties.vendor.dynamicAirspaceMapping.activationType);
    // LFFA R0277/26 `ZONE REGLEMENTEE LF-R203C 'LA COURTINE' ACTIVE`: the file's combined LF-R203ABC
    expect(activated("LF-R203ABC LA COURTINE")).toEqual(["isActivatedByNOTAMAirspace"]);
    // LSSN A0756/25 `Y AND Z WITHIN LSGG TMA PROHIBITED …`: Geneva's TMA, by the aerodrome's point
    expect(activated("TMA GENEVA 1")).toEqual(["isActivatedByNOTAMAirspace"]);
    expect(runReport.activity.activationType.isActivatedByNOTAMAirspace).toBeGreaterThanOrEqual(15);
    expect(collection.features.filter((f) => f.properties.featureCategory === "graphicalNotam").length).toBeGreaterThan(
      300,
    );
  });
});
