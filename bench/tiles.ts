// `make bench`: the vector tiles of the Europe-scale publication (issue 60), after the publish benchmark (it reads
// bench/out/store). Side by side, alternating, each in its own child process: the tile build (buildTiles and the
// PMTiles writer, the features loaded before the clock starts) and the publish floor (bench/publish.ts `floor`).
// Then: the archive of the publication's features, read back and held to them (src/tiles/check.ts); its size and
// largest tile; and refreshes where one country's activation changed (all of it, and 1 % of it), as the tiles they
// rewrite, their bytes and the patch's time. The goal on rewritten bytes is judged on the 1 % refreshes: this
// benchmark's countries are copies of real ones spread over Europe, so one whole country reaches most tiles.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Feature } from "../src/model/contract.js";
import type { VersionManifest } from "../src/model/manifest.js";
import { utcDay } from "../src/model/time.js";
import { archiveOf, buildTiles, MAX_ZOOM, maxError } from "../src/tiles/build.js";
import { checkArchive } from "../src/tiles/check.js";
import { patchTiles, rewrittenSince } from "../src/tiles/patch.js";
import { openArchive } from "../src/tiles/read-back.js";
import { CLI_NODE_FLAGS, ROOT } from "./support.js";

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
 * A refresh of archive `bytes` where `share` of country `cc`'s features flipped `isActive` and lost their intervals:
 * the tiles patched (src/tiles/patch.ts, byte for byte a build's), how many differ and their bytes, and its time.
 */
async function refresh(bytes: Buffer, features: Feature[], date: string, cc: string, share: number) {
  const day = utcDay(date)!;
  const own = features.filter((f) => f.properties.country === cc);
  const step = Math.max(1, Math.round(1 / share));
  const changed = own
    .filter((_, i) => i % step === 0)
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
  const total = p.tiles.reduce((n, t) => n + t.data.length, 0);
  return {
    country: cc,
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
  const perCountry = new Map<string, number>();
  for (const x of features) perCountry.set(x.properties.country, (perCountry.get(x.properties.country) ?? 0) + 1);
  const ranked = [...perCountry].sort((x, y) => y[1] - x[1]);
  const refreshes = [];
  // a whole country's activation changed, and a refresh's share of it (1 %: the NOTAMs a quarter of an hour moves)
  for (const [cc] of [ranked[0]!, ranked[Math.floor(ranked.length / 2)]!]) {
    for (const share of [1, 0.01]) refreshes.push(await refresh(bytes, features, manifest.date, cc, share));
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
  for (const r of refreshes) {
    console.log(
      `refresh where ${r.changed} of ${r.country}'s ${r.of} features changed: ${r.tiles} of ${r.all} tiles rewritten, ` +
        `${(r.bytes / 1e6).toFixed(2)} MB, ${(100 * r.share).toFixed(1)} % of the tile bytes (goal ≤ ${100 * GOALS.rewrittenShare} %), ` +
        `patched in ${r.seconds.toFixed(2)} s`,
    );
  }
  const missed =
    result.buildPerFloor > GOALS.buildPerFloor ||
    result.archiveMb > GOALS.archiveMb ||
    result.largestTileKb > GOALS.tileKb ||
    c.missing + c.extra + c.properties + c.farther > 0 ||
    refreshes.some((r) => r.changed < r.of && r.share > GOALS.rewrittenShare);
  if (missed) {
    console.log("tiles: MISSED a goal");
    process.exitCode = 1;
  }
}

const mode = process.argv[2];
if (mode === "build") await build();
else await run();
