// `make bench`: the vector tiles of the Europe-scale publication (issue 60), after the publish benchmark (it reads
// bench/out/store). Side by side, alternating, each in its own child process: the tile build (buildTiles and the
// PMTiles writer, the features loaded before the clock starts) and the publish floor (bench/publish.ts `floor`).
// Then: the archive of the publication's features, read back and held to them (src/tiles/check.ts); its size and
// largest tile; and refreshes where one country's activation changed, as the tiles they rewrite, their bytes and the
// patch's time. The goal on rewritten bytes is judged on a real refresh's size: the most features one refresh changed
// when the UK's hourly PIBs of a weekend are replayed (../shared/data/notam/uk_pib_hourly_2024-06-14, replayed here
// with tiles), that many features in the FIRs of the state with most features and of a middling one: a country is a
// place, and this benchmark's country labels are not (its countries are copies of real features spread over Europe,
// each keeping its FIR). Reported beside them, not judged: the labelled countries' whole, 1 % and a real refresh's
// most; and whole states. Its GB holds 26 763 NOTAMs (four years of the UK's, all made valid on one day) where the
// real UK PIB holds some 1 300 features, so its 1 % is 286 features, six times what any real hour changed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { ReplayRun } from "../jobs/commands/replay.js";
import type { Feature } from "../src/model/contract.js";
import type { VersionManifest } from "../src/model/manifest.js";
import { utcDay } from "../src/model/time.js";
import { archiveOf, buildTiles, MAX_ZOOM, maxError } from "../src/tiles/build.js";
import { checkArchive } from "../src/tiles/check.js";
import { patchTiles, rewrittenSince } from "../src/tiles/patch.js";
import { openArchive } from "../src/tiles/read-back.js";
import { CLI_NODE_FLAGS, ROOT, SHARED } from "./support.js";

const OUT = path.join(ROOT, "bench", "out");
const STORE = path.join(OUT, "store");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOALS = { buildPerFloor: 1, archiveMb: 25, tileKb: 500, rewrittenShare: 0.15, rssMb: 1024 };

function live(): { manifest: VersionManifest; features: Feature[] } {
  if (!existsSync(path.join(STORE, "v1/current.json")))
    throw new Error(
      `bench tiles: ${path.relative(ROOT, STORE)} holds no publication; run the publish benchmark first ` +
        '(make bench BENCH="publish tiles")',
    );
  const pointer = JSON.parse(readFileSync(path.join(STORE, "v1/current.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(STORE, pointer.manifest), "utf8")) as VersionManifest;
  const features = Object.values(manifest.countries).flatMap(
    (e) =>
      (JSON.parse(gunzipSync(readFileSync(path.join(STORE, e.key))).toString("utf8")) as { features: Feature[] })
        .features,
  );
  return { manifest, features };
}

/** Child mode `build`: one JSON line of seconds, CPU seconds and peak RSS of buildTiles and the archive's writing. */
async function build(): Promise<void> {
  const { manifest, features } = live();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const set = await buildTiles(features, utcDay(manifest.date)!);
  const a = archiveOf(set);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      bytes: a.length,
    }),
  );
}

function child(file: string, mode: string): { seconds: number; cpuSeconds: number; maxRssMb: number } {
  const out = execFileSync(process.execPath, [...CLI_NODE_FLAGS, file, mode], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

/**
 * The UK's weekend replayed (74 hourly PIBs, YAIXM airspace of 2024-09) with tiles, in a child process: per version
 * after a day's first, the features the refresh changed (added, changed, removed) and the share of that UK-only
 * archive's tile bytes it rewrote (the manifest's `tiles.rewritten`).
 */
function ukWeekend(): { changes: number[]; shares: number[] } {
  const pibs = path.join(SHARED, "notam", "uk_pib_hourly_2024-06-14");
  const yaixm = path.join(SHARED, "airspace", "yaixm");
  if (!existsSync(pibs)) throw new Error(`bench tiles: ${pibs} is absent (set SHARED_DATA)`);
  const store = path.join(OUT, "uk-weekend");
  rmSync(store, { recursive: true, force: true });
  const report = path.join(OUT, "uk-weekend.json");
  const cli = path.join(ROOT, "dist", "jobs", "cli.js");
  const airspaces = ["gb_airspace_2024-09.yaml", "gb_service_2024-09.yaml"].flatMap((f) => [
    "--airspaces",
    path.join(yaixm, f),
  ]);
  const flags = ["--notams", pibs, "--store", store, "--tiles", "--report", report, "--quiet"];
  execFileSync(process.execPath, [...CLI_NODE_FLAGS, cli, "replay", ...airspaces, ...flags], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const runs = (JSON.parse(readFileSync(report, "utf8")) as { runs: ReplayRun[] }).runs;
  // a day's first version has no version before it to change from
  const days = new Set<string>();
  const changes: number[] = [];
  for (const { date, changes: c } of runs.flatMap((r) => r.versions)) {
    if (days.has(date)) changes.push(c.added + c.changed + c.removed);
    days.add(date);
  }
  const versions = path.join(store, "v1", "versions");
  const shares = readdirSync(versions).flatMap((f) => {
    const t = (JSON.parse(readFileSync(path.join(versions, f), "utf8")) as VersionManifest).tiles;
    return t?.rewritten && t.tileBytes ? [t.rewritten.bytes / t.tileBytes] : [];
  });
  return { changes, shares };
}

/** Whose features a refresh changes: a country's, as the generator labels them, or those in one state's FIRs. */
interface Whose {
  /** Possessive: `GB's`, or `the EG FIRs'`. */
  name: string;
  has: (f: Feature) => boolean;
}

const labelled = (cc: string): Whose => ({ name: `${cc}'s`, has: (f) => f.properties.country === cc });
const firOf = (f: Feature): string => String(f.properties.vendor.FIR_Ident ?? "");
const inFirs = (prefix: string): Whose => ({ name: `the ${prefix} FIRs'`, has: (f) => firOf(f).startsWith(prefix) });

/**
 * A refresh of archive `bytes` where `count` (all when undefined) of `whose` features, spread over them, flipped
 * `isActive` and lost their intervals: the tiles patched (src/tiles/patch.ts, byte for byte a build's), how many differ
 * and their bytes, and its time. `judged`: the goal on rewritten bytes applies.
 */
async function refresh(bytes: Buffer, features: Feature[], date: string, whose: Whose, count?: number, judged = false) {
  const day = utcDay(date)!;
  const own = features.filter(whose.has);
  const n = Math.min(count ?? own.length, own.length);
  const step = Math.max(1, Math.floor(own.length / n));
  const changed = own
    .filter((_, i) => i % step === 0)
    .slice(0, n)
    .map((f) => {
      const g = structuredClone(f);
      const m = g.properties.vendor.dynamicAirspaceMapping;
      m.isActive = m.isActive === "Yes" ? "No" : "Yes";
      m.airspaceActivationTimes = [];
      m.dynamicScheduleAndVerticalLimits = [];
      return g;
    });
  const t0 = performance.now();
  const p = await patchTiles(bytes, changed, day);
  const seconds = (performance.now() - t0) / 1000;
  const { tiles, bytes: rewritten } = rewrittenSince(bytes, p.tiles);
  const total = p.tiles.reduce((k, t) => k + t.data.length, 0);
  return {
    whose: whose.name,
    judged,
    changed: changed.length,
    of: own.length,
    tiles,
    all: p.tiles.length,
    bytes: rewritten,
    share: rewritten / total,
    seconds,
  };
}

async function run(): Promise<void> {
  const me = fileURLToPath(import.meta.url);
  const publishJs = path.join(path.dirname(me), "publish.js");
  const { manifest, features } = live();
  // the publish benchmark publishes without tiles (PublishDayOptions.tiles is off by default): built here for the rest
  const day = utcDay(manifest.date)!;
  const set = await buildTiles(features, day);
  const bytes = archiveOf(set);
  const largest = set.tiles.reduce((n, t) => Math.max(n, t.data.length), 0);
  const builds = [];
  const floors = [];
  for (let i = 0; i < RUNS; i++) {
    builds.push(child(me, "build"));
    floors.push(child(publishJs, "floor"));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const b = median(builds.map((m) => m.seconds));
  const f = median(floors.map((m) => m.seconds));
  const archive = await openArchive(bytes);
  const t0 = performance.now();
  const check = await checkArchive(archive, features, day);
  const checkSeconds = (performance.now() - t0) / 1000;
  const ranked = (key: (f: Feature) => string) => {
    const n = new Map<string, number>();
    for (const k of features.map(key)) n.set(k, (n.get(k) ?? 0) + 1);
    const r = [...n].sort((x, y) => y[1] - x[1]).map(([k]) => k);
    return [r[0]!, r[Math.floor(r.length / 2)]!];
  };
  const refreshes = [];
  const uk = ukWeekend();
  const most = Math.max(...uk.changes);
  // the largest and a middling country as labelled (not judged): all of it, 1 % of it, a real refresh's most
  for (const cc of ranked((f) => f.properties.country)) {
    const whose = labelled(cc);
    const all = features.filter(whose.has).length;
    refreshes.push(await refresh(bytes, features, manifest.date, whose));
    refreshes.push(await refresh(bytes, features, manifest.date, whose, Math.round(all / 100)));
    refreshes.push(await refresh(bytes, features, manifest.date, whose, most));
  }
  // by place, the features in one state's FIRs: all of them, and a real refresh's most (judged)
  for (const prefix of ranked((f) => firOf(f).slice(0, 2))) {
    refreshes.push(await refresh(bytes, features, manifest.date, inFirs(prefix)));
    refreshes.push(await refresh(bytes, features, manifest.date, inFirs(prefix), most, true));
  }
  const result = {
    runs: RUNS,
    buildSeconds: builds.map((m) => +m.seconds.toFixed(2)),
    floorSeconds: floors.map((m) => +m.seconds.toFixed(2)),
    buildPerFloor: +(b / f).toFixed(2),
    buildPeakRssMb: Math.round(Math.max(...builds.map((m) => m.maxRssMb))),
    archiveMb: +(bytes.length / 1e6).toFixed(1),
    tiles: set.tiles.length,
    largestTileKb: +(largest / 1e3).toFixed(0),
    check: {
      seconds: +checkSeconds.toFixed(1),
      features: check.features,
      tiles: check.tiles,
      missing: check.missing.length,
      extra: check.extra.length,
      properties: check.properties.length,
      farther: check.farther.length,
      vertices: check.vertices,
      worstMetres: +Math.max(check.drawnError, check.publishedError).toFixed(2),
      statedMetres: +maxError(0).toFixed(2),
    },
    ukWeekend: {
      refreshes: uk.changes.length,
      changesMedian: median(uk.changes),
      changesMost: most,
      ukArchiveShareMedian: +median(uk.shares).toFixed(3),
      ukArchiveShareMost: +Math.max(...uk.shares).toFixed(3),
    },
    refreshes,
    goals: GOALS,
  };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, "tiles.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `tile build: median ${b.toFixed(2)} s (${result.buildSeconds.join(", ")}), peak RSS ${result.buildPeakRssMb} MB`,
  );
  console.log(`floor:      median ${f.toFixed(2)} s (${result.floorSeconds.join(", ")})`);
  console.log(`build/floor: ${result.buildPerFloor} (goal ≤ ${GOALS.buildPerFloor})`);
  console.log(
    `archive: ${result.archiveMb} MB (goal ≤ ${GOALS.archiveMb}), ${result.tiles} tiles, largest ${result.largestTileKb} KB (goal ≤ ${GOALS.tileKb})`,
  );
  const c = result.check;
  console.log(
    `read back at z${MAX_ZOOM}: ${c.features} features in ${c.tiles} tiles, missing ${c.missing}, extra ${c.extra}, ` +
      `properties differing ${c.properties}, ${c.vertices} positions, worst ${c.worstMetres} m (stated ≤ ${c.statedMetres} m), ${c.seconds} s`,
  );
  const w = result.ukWeekend;
  console.log(
    `the UK's weekend replayed: ${w.refreshes} refreshes changed a median ${w.changesMedian} and at most ${w.changesMost} features; ` +
      `they rewrote a median ${(100 * w.ukArchiveShareMedian).toFixed(1)} % and at most ${(100 * w.ukArchiveShareMost).toFixed(1)} % of the UK-only archive's tile bytes`,
  );
  for (const r of refreshes) {
    console.log(
      `refresh where ${r.changed} of ${r.whose} ${r.of} features changed: ${r.tiles} of ${r.all} tiles rewritten, ` +
        `${(r.bytes / 1e6).toFixed(2)} MB, ${(100 * r.share).toFixed(1)} % of the tile bytes` +
        `${r.judged ? ` (a real refresh's most; goal ≤ ${100 * GOALS.rewrittenShare} %)` : ""}, patched in ${r.seconds.toFixed(2)} s`,
    );
  }
  const missed =
    result.buildPerFloor > GOALS.buildPerFloor ||
    result.archiveMb > GOALS.archiveMb ||
    result.largestTileKb > GOALS.tileKb ||
    c.missing + c.extra + c.properties + c.farther > 0 ||
    refreshes.some((r) => r.judged && r.share > GOALS.rewrittenShare);
  if (missed) {
    console.log("tiles: MISSED a goal");
    process.exitCode = 1;
  }
}

const mode = process.argv[2];
if (mode === "build") await build();
else await run();
