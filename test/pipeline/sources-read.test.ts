// PublishDayOptions.sourcesRead (issue 24): a derivation tells its caller once every source is read, and keeps no
// reference to a source's bytes of its own, so that a caller that empties its input arrays there (the CLI's publish)
// frees them for the rest of the run. Emptying them changes nothing published.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import type { AirspaceInput } from "../../src/options.js";
import { publishDay } from "../../src/pipeline.js";
import type { DynamicInput } from "../../src/sources.js";
import { LocalStore } from "../../src/store/local-store.js";
import { FIXTURES, tempDir } from "../helpers.js";

const file = (p: string) => ({
  name: path.basename(p),
  bytes: readFileSync(p),
  fetchedAt: Date.parse("2022-02-23T09:00:00Z"),
});

/** Every file under `dir`, by path, with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(path.join(dir, f)).isFile());
  return new Map(files.map((f) => [f, readFileSync(path.join(dir, f))]));
}

async function publish(release: boolean) {
  const dir = tempDir();
  const day = utcDay("2022-02-23")!;
  const airspaces: AirspaceInput[] = [file(path.join(FIXTURES, "sample", "de_asp_2025-06.geojson"))];
  const notams: DynamicInput[] = [file(path.join(FIXTURES, "notam", "xctools.jsonl"))];
  const aup: DynamicInput[] = [file(path.join(FIXTURES, "aup-csv", "eaup_rsa_2022-02-23T0959Z.csv"))];
  let calls = 0;
  const report = await publishDay(
    airspaces,
    {
      day,
      now: Date.parse("2022-02-23T10:00:00Z"),
      sources: { notam: [], aup: [] },
      notams,
      aup,
      ...(release
        ? {
            sourcesRead: () => {
              calls++;
              expect(airspaces.length + notams.length + aup.length).toBe(3);
              for (const list of [airspaces, notams, aup]) list.splice(0);
            },
          }
        : {}),
    },
    { store: new LocalStore(dir), log: silentLogger, codeVersion: "test" },
  );
  return { report, calls, left: airspaces.length + notams.length + aup.length, files: tree(path.join(dir, "v1")) };
}

describe("sourcesRead: the sources' bytes let go of once read", () => {
  it("is called once, after every source is read; the inputs emptied there change no published byte", async () => {
    const kept = await publish(false);
    const released = await publish(true);
    expect(released.calls).toBe(1);
    expect(released.left).toBe(0);
    expect(kept.left).toBe(3);
    expect(released.report.version).toBe(kept.report.version);
    expect(released.report.records).toEqual(kept.report.records);
    expect(released.report.sources).toEqual(kept.report.sources);
    expect([...released.files.keys()].sort()).toEqual([...kept.files.keys()].sort());
    for (const [k, bytes] of kept.files) expect(released.files.get(k)?.equals(bytes), k).toBe(true);
    // the run had NOTAMs and a plan to publish: not an empty day
    expect(Object.keys(kept.report.countries)).toContain("DE");
  });
});
