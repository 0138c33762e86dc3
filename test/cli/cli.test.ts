// The CLI in-process (main with a fake Io) and as a real process (node dist/jobs/cli.js).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";
import { io } from "./io.js";

const SAMPLE = path.join(FIXTURES, "sample");

describe("publish (in-process)", () => {
  it("publishes the sample data, writes the report, exits 0", async () => {
    const store = tempDir();
    const report = path.join(store, "report.json");
    const t = io();
    const code = await main(
      ["publish", "--airspaces", SAMPLE, "--date", "2026-09-14", "--store", store, "--report", report],
      t.io,
    );
    expect(code).toBe(0);
    expect(t.out()).toMatch(/^published 20260914T100000Z-[0-9a-f]{8}: \d+ features in 5 countries \+ EUROPE/);
    const r = JSON.parse(readFileSync(report, "utf8"));
    expect(Object.keys(r.countries)).toEqual(["AT", "BE", "CH", "DE", "FR"]);
    expect(r.records.published + r.records.skipped).toBe(r.records.read);
    expect(existsSync(path.join(store, "v1/current.json"))).toBe(true);
    // JSON logs on a non-terminal stderr
    const lines = t.err().trim().split("\n");
    expect(lines.every((l) => JSON.parse(l).level)).toBe(true);
  });

  it("restricts to --countries and names the operator's country for a source", async () => {
    const store = tempDir();
    const args = (countries: string) => [
      "publish",
      ...["--airspaces", `LU=${path.join(SAMPLE, "fr_asp_v2_2025-10.txt")}`, "--date", "2026-09-14"],
      ...["--store", store, "--countries", countries, "--quiet"],
    ];
    const t = io();
    expect(await main(args("lu"), t.io)).toBe(0);
    const pointer = JSON.parse(readFileSync(path.join(store, "v1/current.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(store, pointer.manifest), "utf8"));
    expect(Object.keys(manifest.countries)).toEqual(["LU"]);
    expect(manifest.countries.LU.count.total).toBeGreaterThan(0);
    expect(t.err()).toBe("");
    // an unknown code, or one the inputs hold nothing of, is bad usage naming it: never an empty publication
    for (const [countries, message] of [
      ["lu,XX", "airspace-publisher: --countries: XX is not a country code\n"],
      ["LU,IT", "airspace-publisher: --countries IT: no airspace of it in the inputs (they hold LU)\n"],
    ]) {
      const u = io();
      expect(await main(args(countries!), u.io)).toBe(2);
      expect(u.err()).toBe(message);
    }
    expect(JSON.parse(readFileSync(path.join(store, "v1/current.json"), "utf8"))).toEqual(pointer);
  });

  it("serve --dev is for loopback only", async () => {
    const t = io();
    expect(await main(["serve", "--store", tempDir(), "--dev", "--host", "0.0.0.0"], t.io)).toBe(2);
    expect(t.err()).toBe("airspace-publisher: --dev serves loopback only; drop --host 0.0.0.0 or --dev\n");
  });

  it("reads a source from standard input with -", async () => {
    const store = tempDir();
    const t = io(readFileSync(path.join(SAMPLE, "ch_asp_2022-09.geojson"), "utf8"));
    expect(await main(["publish", "--airspaces", "-", "--date", "2026-09-14", "--store", store, "--quiet"], t.io)).toBe(
      0,
    );
    expect(t.out()).toMatch(/in 1 country/);
  });

  it.each([
    [["publish", "--date", "2026-09-14"], /required option '--airspaces/],
    [
      ["publish", "--airspaces", SAMPLE, "--date", "2026-02-30"],
      /--date must be a calendar date YYYY-MM-DD, got "2026-02-30"/,
    ],
    [["publish", "--airspaces", SAMPLE, "--date", "2026-09-14", "--now", "noon"], /--now must be an ISO 8601 instant/],
    [
      ["publish", "--airspaces", "/nonexistent/x.geojson", "--date", "2026-09-14"],
      /no such file or directory "\/nonexistent\/x.geojson"/,
    ],
    [
      ["publish", "--airspaces", SAMPLE, "--date", "2026-09-14", "--countries", "Germany"],
      /--countries takes ISO 3166-1 alpha-2 codes/,
    ],
    [["frobnicate"], /unknown command 'frobnicate'/],
  ])("exits 2 with a one-line reason for bad usage: %j", async (argv, message) => {
    const t = io();
    expect(await main(argv as string[], t.io)).toBe(2);
    expect(t.err()).toMatch(message);
    expect(t.err().trim().split("\n")).toHaveLength(1);
  });

  it("exits 1 and switches nothing when a source is unusable", async () => {
    const store = tempDir();
    const ok = io();
    await main(["publish", "--airspaces", SAMPLE, "--date", "2026-09-14", "--store", store, "--quiet"], ok.io);
    const before = readFileSync(path.join(store, "v1/current.json"), "utf8");
    const broken = path.join(tempDir(), "truncated.geojson");
    writeFileSync(broken, readFileSync(path.join(SAMPLE, "ch_asp_2022-09.geojson"), "utf8").slice(0, 5000));
    const t = io();
    const code = await main(
      ["publish", "--airspaces", SAMPLE, "--airspaces", broken, "--date", "2026-09-15", "--store", store, "--quiet"],
      t.io,
    );
    expect(code).toBe(1);
    expect(t.err()).toMatch(/^airspace-publisher: .*truncated\.geojson/);
    expect(t.err().trim().split("\n")).toHaveLength(1);
    expect(readFileSync(path.join(store, "v1/current.json"), "utf8")).toBe(before);
  });

  it("exits 1 on a truncated XML download, though records before the cut were readable", async () => {
    const store = tempDir();
    const t = io();
    const truncated = path.join(FIXTURES, "ingest", "openaip-xml", "be-truncated.aip");
    const code = await main(
      ["publish", "--airspaces", truncated, "--date", "2026-09-14", "--store", store, "--quiet"],
      t.io,
    );
    expect(code).toBe(1);
    expect(t.err()).toMatch(/be-truncated\.aip: source ends inside <ASP>/);
    expect(existsSync(path.join(store, "v1/current.json"))).toBe(false);
  });
});

describe("validate (in-process)", () => {
  it("passes a published object and fails a broken one, printing each violation", async () => {
    const store = tempDir();
    await main(
      [
        "publish",
        "--airspaces",
        path.join(SAMPLE, "de_asp_2025-06.geojson"),
        "--date",
        "2026-09-14",
        "--store",
        store,
        "--quiet",
      ],
      io().io,
    );
    const pointer = JSON.parse(readFileSync(path.join(store, "v1/current.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(store, pointer.manifest), "utf8"));
    const gz = path.join(store, manifest.countries.DE.key);
    const good = io();
    expect(await main(["validate", gz], good.io)).toBe(0);
    expect(good.out()).toMatch(/0 violations in \d+ features/);

    const fc = JSON.parse(zlib.gunzipSync(readFileSync(gz)).toString());
    fc.features[0].geometry.coordinates[0].reverse();
    fc.features[1].properties.vendor.FIR_Ident = "X";
    const bad = path.join(store, "bad.geojson");
    writeFileSync(bad, JSON.stringify(fc));
    const t = io();
    expect(await main(["validate", bad], t.io)).toBe(1);
    expect(t.out()).toMatch(
      /: features\[0\]\.geometry: .*exterior ring must be counter-clockwise .*\[rfc7946.winding\]/,
    );
    expect(t.out()).toMatch(/: features\[1\]\.properties\.vendor\.FIR_Ident: /);
    expect(t.out()).toMatch(/2 violations/);
  });
});

describe("as a process", () => {
  const cli = path.join(ROOT, "dist/jobs/cli.js");
  const publishArgs = (store: string) => [
    "publish",
    "--airspaces",
    SAMPLE,
    "--date",
    "2026-09-14",
    "--now",
    "2026-09-14T08:00:00Z",
    "--store",
    store,
  ];
  beforeAll(() => {
    // `make test` builds first; build here too when the test runs on its own
    if (!existsSync(cli)) execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  });

  it("publishes with exit 0 and answers bad usage with exit 2", () => {
    const store = tempDir();
    const ok = spawnSync("node", [cli, ...publishArgs(store)], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^published 20260914T080000Z-/);
    const bad = spawnSync("node", [cli, "publish", "--airspaces", SAMPLE], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /^airspace-publisher: required option '--date <YYYY-MM-DD>' not specified; see --help\n$/,
    );
    // an unknown option is named before a missing required one, with commander's suggestion; `-` is a value
    const unknown = spawnSync("node", [cli, "publish", "--airspaces", "-", "--dat", "2026-09-14"], {
      encoding: "utf8",
    });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe("airspace-publisher: unknown option '--dat' (Did you mean --date?); see --help\n");
    const bogus = spawnSync("node", [cli, "publish", "--bogus"], { encoding: "utf8" });
    expect(bogus.stderr).toBe("airspace-publisher: unknown option '--bogus'; see --help\n");
    const typo = spawnSync("node", [cli, "pubish"], { encoding: "utf8" });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe("airspace-publisher: unknown command 'pubish' (Did you mean publish?); see --help\n");
  });

  it("ends quietly when the reader goes away (`| head`): exit 0, nothing on stderr", () => {
    const line = JSON.stringify({
      itemB: "2608010000",
      itemC: "2609010000",
      itemD: "MON-FRI 0800-1600",
      day: "2026-08-03",
    });
    const input = path.join(tempDir(), "many.jsonl");
    writeFileSync(input, `${Array.from({ length: 20_000 }, () => line).join("\n")}\n`);
    // bash's PIPESTATUS gives the CLI's own exit status, not head's
    const r = spawnSync(
      "bash",
      ["-c", `node "${cli}" explain-schedule --jsonl < "${input}" | head -1; echo "\${PIPESTATUS[0]}"`],
      {
        encoding: "utf8",
      },
    );
    const [first, status] = r.stdout.trim().split("\n");
    expect(first).toMatch(/^\{"status":"exact"/);
    expect(status).toBe("0");
    expect(r.stderr).toBe("");
  });

  it("is byte-for-byte repeatable for the same inputs, date and now", () => {
    const run = () => {
      const store = tempDir();
      execFileSync("node", [cli, ...publishArgs(store), "--quiet"]);
      const pointer = readFileSync(path.join(store, "v1/current.json"));
      const manifest = JSON.parse(readFileSync(path.join(store, JSON.parse(pointer.toString()).manifest), "utf8"));
      const de = readFileSync(path.join(store, manifest.countries.DE.key));
      return { pointer, manifest, de, files: readdirSync(path.join(store, "v1/objects")).sort() };
    };
    const a = run();
    const b = run();
    expect(b.pointer.equals(a.pointer)).toBe(true);
    expect(b.manifest).toEqual(a.manifest);
    expect(b.de.equals(a.de)).toBe(true);
    expect(b.files).toEqual(a.files);
  });
});
