// Directories of mixed files (issue 16 §4): `--airspaces DIR`, `--notams DIR`, `--aup DIR` over folders that also
// hold a README, PROVENANCE.md, expected-output JSON and a test file. The data files are read; each other file is
// one `input.skipped` diagnostic naming it; a broken data file still fails the run; a folder of nothing but
// non-data files is an error, never a silent empty source.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import type { RunReport } from "../../src/report.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { io } from "./io.js";

function folder(files: Record<string, string | Buffer>): string {
  const dir = tempDir("mixed-");
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), body);
  }
  return dir;
}

const AIRSPACE = readFileSync(path.join(FIXTURES, "sample", "at_asp_2022-09.geojson"));
const AUP = path.join(FIXTURES, "aup-csv", "eaup_rsa_2022-02-23T0959Z.csv");
const PIB = readFileSync(path.join(FIXTURES, "notam-pib", "uk_pib_2026-08-22_excerpt.xml"));

async function publish(args: string[]) {
  const store = tempDir("mixed-store-");
  const report = path.join(store, "report.json");
  const t = io();
  const code = await main(["publish", ...args, "--date", "2022-02-23", "--store", store, "--report", report], t.io);
  const r = code === 0 ? (JSON.parse(readFileSync(report, "utf8")) as RunReport) : undefined;
  return { code, err: t.err(), out: t.out(), report: r };
}

const skippedNames = (r: RunReport) =>
  r.diagnostics.items
    .filter((d) => d.code === "input.skipped")
    .map((d) => path.basename(d.source ?? ""))
    .sort();

describe("directories of mixed files", () => {
  it("reads the data files and names each other file once, for airspaces, NOTAMs and AUP", async () => {
    const airspaces = folder({
      "at.geojson": AIRSPACE,
      "README.md": "# samples\n",
      "PROVENANCE.md": "from openAIP\n",
      "at.expected.json": JSON.stringify({ features: 36, note: "golden output" }),
      "check.test.ts": "import { it } from 'vitest';\n",
    });
    const notams = folder({ "pib.xml": PIB, "README.md": "# PIBs\n", "pib.expected.json": '{"notams": 8}' });
    const aup = folder({ "eaup.csv": readFileSync(AUP), "NOTES.txt": "plans of 2022-02-23\n" });
    copyFileSync(AUP, path.join(aup, "eaup_rsa_2022-02-23T0959Z.csv"));
    const r = await publish(["--airspaces", airspaces, "--notams", notams, "--aup", aup]);
    expect(r.code, r.err).toBe(0);
    const report = r.report!;
    expect(report.countries.AT?.airspaces).toBe(36);
    expect(report.sources.map((s) => path.basename(s.name))).toEqual(["at.geojson"]);
    expect(report.notams?.read).toBe(8);
    expect(skippedNames(report)).toEqual([
      "NOTES.txt",
      "PROVENANCE.md",
      "README.md",
      "README.md",
      "at.expected.json",
      "check.test.ts",
      "eaup.csv",
      "pib.expected.json",
    ]);
    // an RSA table whose name gives no AUP day is not usable data either: skipped, with the fix in its reason
    const eaup = report.diagnostics.items.find((d) => d.source?.endsWith("eaup.csv"));
    expect(eaup?.message).toMatch(/carries no date; name its AUP day/);
    expect(report.aup?.plans).toBe(1);
    expect(report.diagnostics.byCode["input.skipped"]).toBe(8);
    expect(r.out).toMatch(/skipped: 8 files that are not data/);
  });

  it("still fails on a broken data file in the folder, naming it", async () => {
    const dir = folder({ "at.geojson": AIRSPACE, "cut.geojson": AIRSPACE.subarray(0, 500), "README.md": "x" });
    const r = await publish(["--airspaces", dir]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cut\.geojson: not valid JSON/);
  });

  it("refuses a folder with no data file at all instead of publishing nothing", async () => {
    const none = folder({ "README.md": "x", "notes.txt": "hello\n" });
    const r = await publish(["--airspaces", none]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/no airspace file among the inputs|no matching files/);
  });
});
