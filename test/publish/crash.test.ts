// Crash safety of `publish` through the CLI as a real process (docs/design.md §5): SIGKILL at random points, a flaky S3
// endpoint (real HTTP proxy injecting 503s, delays, dropped connections), two publishers at once, and re-runs that
// upload only what changed. After every one of them the live version is complete, and the next run converges.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rng } from "../../bench/generate.js";
import { type Fault, FaultProxy, REGION, type S3Server, sha256, startS3rver } from "../../bench/s3-harness.js";
import { main } from "../../jobs/cli.js";
import type { VersionManifest } from "../../src/model/manifest.js";
import { currentManifest, readCollection, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { S3Store } from "../../src/store/s3-store.js";
import type { ObjectStore } from "../../src/store/store.js";
import { io } from "../cli/io.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";
import { startSwift } from "./swift-harness.js";

const CLI = path.join(ROOT, "dist/jobs/cli.js");
const SAMPLE = path.join(FIXTURES, "sample");
const DE = path.join(FIXTURES, "pipeline", "de-mixed", "de_asp.geojson");
const DATE = "2026-09-14";

// A failing sequence of kill points replays with CRASH_SEED=<seed printed by the test>.
const SEED = Number(process.env.CRASH_SEED ?? randomBytes(4).readUInt32LE(0));
const KILLS = 50;

const S3_ENV = {
  AWS_REGION: REGION,
  // the SDK's "needs Node 22 after 2027" warning would be a second stderr line
  NODE_NO_WARNINGS: "1",
};

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const running = new Set<ChildProcess>();

/** The CLI as a child process (asynchronous: the in-process FaultProxy must keep serving meanwhile). */
function cli(
  args: string[],
  options: { env?: Record<string, string>; killAfterMs?: number; killWhen?: Promise<unknown> } = {},
): Promise<Exit> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  const timer =
    options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.killAfterMs);
  void options.killWhen?.then(() => child.kill("SIGKILL"));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** The CLI in this process with its clock at `now` (a child process cannot be given another clock). */
async function inProcess(args: string[], env: Record<string, string>, now: number): Promise<Exit> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const t = io();
  t.io.now = () => now;
  const started = performance.now();
  try {
    const code = await main(args, t.io);
    return { code, signal: null, stdout: t.out(), stderr: t.err(), ms: performance.now() - started };
  } finally {
    for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

async function until(ok: () => Promise<boolean>): Promise<void> {
  while (!(await ok())) await new Promise((r) => setTimeout(r, 20));
}

const publishArgs = (store: string, now: string, airspaces: string, ...extra: string[]) => [
  "publish",
  "--airspaces",
  airspaces,
  "--date",
  DATE,
  "--now",
  now,
  "--store",
  store,
  "--quiet",
  ...extra,
];

const versionOf = (r: Exit): string => {
  const m = /^published (\S+):/.exec(r.stdout);
  if (!m?.[1]) throw new Error(`no version in stdout ${JSON.stringify(r.stdout)}; stderr ${r.stderr}`);
  return m[1];
};

/**
 * The live version is complete: the pointer parses and names a manifest that exists and parses (currentManifest),
 * and every object it names exists with the sha256 the manifest says, its FeatureCollection's count matching.
 */
async function expectComplete(store: ObjectStore): Promise<VersionManifest> {
  const manifest = await currentManifest(store);
  if (!manifest) throw new Error("no pointer");
  for (const [cc, e] of Object.entries(manifest.countries)) {
    const gz = await store.get(e.key);
    expect(gz, `${cc} ${e.key}`).toBeDefined();
    expect(sha256(gz!), `${cc} ${e.key}`).toBe(e.sha256);
    expect(e.key).toBe(`v1/objects/${e.sha256}.geojson.gz`);
    expect(gz!.length).toBe(e.gzBytes);
    const fragment = await store.get(e.fragment);
    expect(fragment, `${cc} ${e.fragment}`).toBeDefined();
    expect(sha256(fragment!), `${cc} ${e.fragment}`).toBe(e.fragmentSha256);
    const fc = await readCollection(store, e.key);
    expect(fc.meta.count.total, cc).toBe(fc.features.length);
    expect(fc.meta.count).toEqual(e.count);
  }
  const europe = await readEurope(store, manifest); // refuses a join that does not hash to the manifest's
  expect(europe.features).toHaveLength(manifest.europe.count.total);
  return manifest;
}

/** Every published file under a folder with its mtime, keyed by store key (`internal/` bookkeeping aside). */
/** The public status document, rewritten by every publish (docs/design.md §5). */
const STATUS = "v1/status/master-features.json";

function snapshot(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && !path.relative(dir, e.parentPath).startsWith("internal")) {
      const file = path.join(e.parentPath, e.name);
      out.set(path.relative(dir, file).split(path.sep).join("/"), statSync(file).mtimeMs);
    }
  }
  return out;
}

/** A manifest without its place in the record (previous, first, change sets): what the version holds. */
function contentOf(m: VersionManifest): unknown {
  const { previous: _, first: __, ...rest } = m;
  const countries = Object.fromEntries(Object.entries(m.countries).map(([cc, { changes: ___, ...e }]) => [cc, e]));
  return { ...rest, countries };
}

const changed = (before: Map<string, number>, after: Map<string, number>): string[] =>
  [...after].filter(([k, t]) => before.get(k) !== t).map(([k]) => k);

beforeAll(() => {
  if (!existsSync(CLI)) {
    const r = spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`build failed: ${r.stdout}${r.stderr}`);
  }
});

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

describe("publish under SIGKILL", () => {
  it(`keeps the live version complete after ${KILLS} kills at random points (seed ${SEED}), and the next run converges`, async () => {
    const dir = tempDir("crash-");
    const store = new LocalStore(dir);
    const v1 = await cli(publishArgs(dir, `${DATE}T06:00:00Z`, SAMPLE));
    expect(v1.code, v1.stderr).toBe(0);
    expect((await expectComplete(store)).version).toBe(versionOf(v1));

    // one country's file at a time (a small input keeps 2×50 runs quick), a different one and instant each time
    const files = [...readdirSync(SAMPLE).filter((f) => !f.endsWith(".md")), DE];
    const inputOf = (i: number, into = dir) => {
      const now = `${DATE}T06:${String(i + 1).padStart(2, "0")}:00Z`;
      return publishArgs(into, now, path.resolve(SAMPLE, files[i % files.length]!));
    };
    // a normal run's duration, into a scratch store, bounds the kill points
    const normal = await cli(inputOf(0, tempDir("crash-scratch-")));
    expect(normal.code, normal.stderr).toBe(0);
    const random = rng(SEED);
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      const args = inputOf(i);
      const delay = Math.floor(random() * normal.ms);
      const r = await cli(args, { killAfterMs: delay });
      if (r.signal === "SIGKILL") killed++;
      else expect(r.code, `run ${i} (delay ${delay} ms): ${r.stderr}`).toBe(0);
      await expectComplete(store);
      const again = await cli(args);
      expect(again.code, `re-run ${i} after a kill at ${delay} ms (seed ${SEED}): ${again.stderr}`).toBe(0);
      expect((await expectComplete(store)).version).toBe(versionOf(again));
    }
    expect(killed).toBeGreaterThan(KILLS / 2);
    // ~100 CLI processes: 86-105 s in a full local run beside the other test files, more on a loaded machine (the
    // CI's Node 20 pass once took over 120 s); what is asserted is the store, never the time
  }, 400_000);
});

describe.each([
  ["s3rver", startS3rver],
  ["swift", startSwift],
] as const)("publish to S3 (%s) through a faulty network", (_, start) => {
  let server: S3Server;
  let proxy: FaultProxy;
  let direct: S3Store;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await start("crash");
    proxy = await new FaultProxy(server.endpoint, server.credentials).start();
    direct = new S3Store("s3://crash/p", {
      endpoint: server.endpoint,
      region: REGION,
      credentials: server.credentials,
    });
    env = {
      ...S3_ENV,
      AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    };
  }, 200_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  const viaProxy = (now: string, airspaces: string, ...extra: string[]) =>
    cli([...publishArgs("s3://crash/p", now, airspaces, ...extra), "--s3-endpoint", proxy.endpoint], { env });

  it("finishes complete through 503 bursts, delays and dropped connections; fails cleanly when retries run out", async () => {
    proxy.reset();
    const first = await viaProxy(`${DATE}T06:00:00Z`, DE);
    expect(first.code, first.stderr).toBe(0);
    const v1 = versionOf(first);
    expect((await expectComplete(direct)).version).toBe(v1);

    // the same input into a local folder: the reference for byte-for-byte comparison
    const local = tempDir("crash-ref-");
    const ref = await cli(publishArgs(local, `${DATE}T06:10:00Z`, SAMPLE));
    expect(ref.code, ref.stderr).toBe(0);

    const s503: Fault = { kind: "status", status: 503, code: "SlowDown" };
    const delay: Fault = { kind: "delay", ms: 400 };
    const drop: Fault = { kind: "drop" };
    // a burst of 503s, then delays and drops, never more than 4 in a row for any one request (5 tries)
    proxy.faults.push(s503, s503, s503, delay, drop, s503, delay, drop, delay, s503, drop, delay);
    let n = 0;
    proxy.only = () => n++ % 2 === 0 || proxy.faults.length > 9; // the burst on consecutive requests, then every other
    const faulty = await viaProxy(`${DATE}T06:10:00Z`, SAMPLE);
    expect(faulty.code, faulty.stderr).toBe(0);
    expect(proxy.seen.filter((s) => s.fault).length).toBe(12);
    expect(new Set(proxy.seen.map((s) => s.fault).filter(Boolean))).toEqual(new Set(["status", "delay", "drop"]));
    const v2 = versionOf(faulty);
    expect(v2).toBe(versionOf(ref));
    const live = await expectComplete(direct);
    expect(live.version).toBe(v2);
    const refStore = new LocalStore(local);
    // the same content as the reference; where it stands in its day's record differs (the reference is a day's first)
    expect(contentOf(live)).toEqual(contentOf((await currentManifest(refStore))!));
    for (const e of Object.values(live.countries)) {
      for (const key of [e.key, e.fragment])
        expect((await direct.get(key))?.equals((await refStore.get(key))!)).toBe(true);
    }

    // every request fails for longer than the retries last: exit 1, one line, v2 still live and complete
    proxy.reset();
    proxy.faults.push(...Array.from({ length: 10_000 }, () => s503));
    const down = await viaProxy(`${DATE}T06:20:00Z`, DE, "--countries", "DE");
    expect(down.code).toBe(1);
    expect(down.stderr.trimEnd().split("\n")).toHaveLength(1);
    // the run's first request, the publisher lease's or the pointer's, fails: nothing was switched
    expect(down.stderr).toMatch(/^airspace-publisher: head (internal\/publisher|v1\/current)\.json failed/);
    expect((await expectComplete(direct)).version).toBe(v2);

    // only the object uploads fail (after the lease is taken): exit 1, v2 live, and the lease is released
    proxy.reset();
    proxy.faults.push(...Array.from({ length: 10_000 }, () => s503));
    proxy.only = (s) => s.method === "PUT" && s.url.includes("/objects/");
    // AT without its first airspace: objects no version holds yet, so uploads are attempted
    const inputs = tempDir("crash-at-");
    const at = JSON.parse(readFileSync(path.join(SAMPLE, "at_asp_2022-09.geojson"), "utf8")) as { features: unknown[] };
    at.features.shift();
    writeFileSync(path.join(inputs, "at_asp.geojson"), JSON.stringify(at));
    const uploadsDown = await viaProxy(`${DATE}T06:30:00Z`, inputs, "--countries", "AT");
    expect(uploadsDown.code).toBe(1);
    expect(uploadsDown.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(uploadsDown.stderr).toMatch(/^airspace-publisher: put v1\/objects\//);
    expect((await expectComplete(direct)).version).toBe(v2);
    expect(await direct.get("v1/lease.json")).toBeUndefined();

    proxy.reset();
    const healed = await viaProxy(`${DATE}T06:30:00Z`, inputs, "--countries", "AT");
    expect(healed.code, healed.stderr).toBe(0);
    expect((await expectComplete(direct)).version).toBe(versionOf(healed));
  }, 60_000);

  it("a publisher killed while holding the lease keeps others out until the lease expires (15 min), then one takes over", async () => {
    proxy.reset();
    const base = await cli(
      [...publishArgs("s3://crash/p", `${DATE}T07:50:00Z`, DE), "--s3-endpoint", server.endpoint],
      {
        env,
      },
    );
    expect(base.code, base.stderr).toBe(0);
    const v = (await expectComplete(direct)).version;
    // every object upload waits, so the run is still uploading under its lease when it is killed
    proxy.faults.push(...Array.from({ length: 100 }, () => ({ kind: "delay", ms: 300 }) as const));
    proxy.only = (r) => r.method === "PUT" && r.url.includes("/objects/");
    const inputs = tempDir("crash-lease-");
    const de = JSON.parse(readFileSync(DE, "utf8")) as { features: unknown[] };
    de.features.pop();
    writeFileSync(path.join(inputs, "de_asp.geojson"), JSON.stringify(de));
    const leaseSeen = until(async () => (await direct.get("v1/lease.json")) !== undefined);
    const killed = await cli(
      [...publishArgs("s3://crash/p", `${DATE}T08:00:00Z`, inputs), "--s3-endpoint", proxy.endpoint],
      { env, killWhen: leaseSeen },
    );
    expect(killed.signal).toBe("SIGKILL");
    const lease = JSON.parse((await direct.get("v1/lease.json"))!.toString()) as { expires: number };
    expect(lease.expires - Date.now()).toBeGreaterThan(14 * 60_000);
    expect((await expectComplete(direct)).version).toBe(v);

    proxy.reset();
    const at = (offsetMin: number) =>
      inProcess(
        [...publishArgs("s3://crash/p", `${DATE}T08:00:00Z`, inputs), "--s3-endpoint", server.endpoint],
        env,
        Date.now() + offsetMin * 60_000,
      );
    const early = await at(10);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/another run holds v1\/lease\.json until \d{4}-.*; nothing was switched/);
    expect((await expectComplete(direct)).version).toBe(v);
    const late = await at(16);
    expect(late.code, late.stderr).toBe(0);
    expect((await expectComplete(direct)).version).toBe(versionOf(late));
    expect(await direct.get("v1/lease.json")).toBeUndefined();
  }, 60_000);

  it("two publishers started together: one version live, complete; the other succeeded before it or names the lease", async () => {
    proxy.reset();
    const store = "s3://crash/race";
    const raceStore = new S3Store(store, {
      endpoint: server.endpoint,
      region: REGION,
      credentials: server.credentials,
    });
    const base = await cli([...publishArgs(store, `${DATE}T05:00:00Z`, DE), "--s3-endpoint", server.endpoint], {
      env,
    });
    expect(base.code, base.stderr).toBe(0);
    for (let round = 0; round < 3; round++) {
      const now = `${DATE}T07:0${round}:00Z`;
      const [a, b] = await Promise.all([
        cli([...publishArgs(store, now, SAMPLE, "--countries", "AT,BE"), "--s3-endpoint", server.endpoint], { env }),
        cli([...publishArgs(store, now, SAMPLE, "--countries", "CH,DE"), "--s3-endpoint", server.endpoint], { env }),
      ]);
      await expectRace(raceStore, a!, b!, /another run (holds|took) v1\/lease\.json|another publisher holds the store/);
    }
  }, 60_000);
});

/** Exactly one of the racers' versions is live and complete; a loser says why. */
async function expectRace(store: ObjectStore, a: Exit, b: Exit, conflict: RegExp): Promise<void> {
  const winners = [a, b].filter((r) => r.code === 0).map(versionOf);
  for (const r of [a, b]) {
    if (r.code !== 0) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(conflict);
    }
  }
  expect(winners.length).toBeGreaterThan(0);
  const live = await expectComplete(store);
  expect(winners).toContain(live.version);
}

describe("two local publishers started together", () => {
  it("leave one version live and complete; a loser names the conflict", async () => {
    const dir = tempDir("crash-race-");
    const base = await cli(publishArgs(dir, `${DATE}T05:00:00Z`, DE));
    expect(base.code, base.stderr).toBe(0);
    let both = 0;
    for (let round = 0; round < 5; round++) {
      const now = `${DATE}T07:0${round}:00Z`;
      const [a, b] = await Promise.all([
        cli(publishArgs(dir, now, SAMPLE, "--countries", "AT,BE")),
        cli(publishArgs(dir, now, SAMPLE, "--countries", "CH,DE")),
      ]);
      if (a.code === 0 && b.code === 0) both++;
      await expectRace(
        new LocalStore(dir),
        a,
        b,
        /another run switched v1\/(days\/[-0-9]+\/)?current\.json|another publisher holds the store/,
      );
    }
    if (both > 0)
      console.warn(
        `local race: both publishers exited 0 in ${both} of 5 rounds (LocalStore's compare-and-swap is per process: not told apart from one run following the other)`,
      );
  }, 60_000);
});

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
    const args = publishArgs(dir, `${DATE}T06:00:00Z`, inputs);
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
    const expected = [at2.key, at2.fragment, at2.openair!.key, at2.openair!.fragment, at2.changes!.key];
    expect(at2.changes).toMatchObject({ from: m1.version, added: 0, changed: 0, removed: 1 });
    expect(added).toEqual([...expected, `v1/versions/${m2.version}.json`].sort());
    const pointers = ["v1/current.json", `v1/days/${DATE}/current.json`];
    expect(changed(before, after).sort()).toEqual([...added, ...pointers, STATUS].sort());
    for (const cc of ["BE", "CH", "DE", "FR"]) expect(m2.countries[cc]).toEqual(m1.countries[cc]);
  });
});
