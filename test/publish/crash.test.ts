// Crash safety (docs/design.md §5) in the fast suite: six kills of a local publish, two kills of a publish to s3rver
// holding the publisher lease and a lease left by another host, two local races, and re-runs that upload only what
// changed. crash.long.test.ts runs fifty kills, both S3 servers through a faulty network, and more of each.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LocalStore } from "../../src/store/local-store.js";
import { tempDir } from "../helpers.js";
import {
  changed,
  cli,
  crashHooks,
  DATE,
  describeKillLoop,
  describeLocalRace,
  describeS3Crash,
  expectComplete,
  publishArgs,
  SAMPLE,
  STATUS,
  snapshot,
  versionOf,
} from "./crash-harness.js";

crashHooks();
describeKillLoop(6);
describeS3Crash(["s3rver"], { faults: false, leaseKills: 2, raceRounds: 0 });
describeLocalRace(2);

describe("re-runs and change detection (local store)", () => {
  it("re-running unchanged inputs rewrites only the pointers (and the status document every publish writes)", async () => {
    const dir = tempDir("crash-rerun-");
    const args = publishArgs(dir, `${DATE}T06:00:00Z`, SAMPLE);
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(0);
    const before = snapshot(dir);
    const manifestKey = `v1/versions/${versionOf(first)}.json`;
    const manifestBytes = readFileSync(path.join(dir, manifestKey));
    await new Promise((r) => setTimeout(r, 20));
    const again = await cli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(versionOf(again)).toBe(versionOf(first));
    const after = snapshot(dir);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(changed(before, after).sort()).toEqual(["v1/current.json", `v1/days/${DATE}/current.json`, STATUS].sort());
    expect(readFileSync(path.join(dir, manifestKey)).equals(manifestBytes)).toBe(true);
  });

  it("one country's input changed: only its objects, its change set, the manifest and the pointers are written", async () => {
    const inputs = tempDir("crash-inputs-");
    for (const f of readdirSync(SAMPLE)) copyFileSync(path.join(SAMPLE, f), path.join(inputs, f));
    const dir = tempDir("crash-change-");
    const args = publishArgs(dir, `${DATE}T06:00:00Z`, inputs, "--tiles");
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(0);
    const store = new LocalStore(dir);
    const m1 = await expectComplete(store);
    const before = snapshot(dir);

    const at = path.join(inputs, "at_asp_2022-09.geojson");
    const fc = JSON.parse(readFileSync(at, "utf8")) as { features: unknown[] };
    fc.features.shift();
    writeFileSync(at, JSON.stringify(fc));
    await new Promise((r) => setTimeout(r, 20));
    const second = await cli(args);
    expect(second.code, second.stderr).toBe(0);
    const m2 = await expectComplete(store);
    expect(m2.version).not.toBe(m1.version);
    expect(m2.countries.AT?.count.total).toBe((m1.countries.AT?.count.total ?? 0) - 1);
    const after = snapshot(dir);
    const added = [...after.keys()].filter((k) => !before.has(k)).sort();
    const at2 = m2.countries.AT!;
    // and the version's vector tiles, where AT's features are drawn (issue 60)
    const expected = [at2.key, at2.fragment, at2.openair!.key, at2.openair!.fragment, at2.changes!.key, m2.tiles!.key];
    expect(m2.tiles!.rewritten!.tiles).toBeGreaterThan(0);
    expect(m2.tiles!.rewritten!.tiles).toBeLessThan(m2.tiles!.tiles);
    expect(at2.changes).toMatchObject({ from: m1.version, added: 0, changed: 0, removed: 1 });
    expect(added).toEqual([...expected, `v1/versions/${m2.version}.json`].sort());
    const pointers = ["v1/current.json", `v1/days/${DATE}/current.json`];
    expect(changed(before, after).sort()).toEqual([...added, ...pointers, STATUS].sort());
    for (const cc of ["BE", "CH", "DE", "FR"]) expect(m2.countries[cc]).toEqual(m1.countries[cc]);
  });
});
