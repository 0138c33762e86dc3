// `make bench`: the vector tiles of the Europe-scale publication (issue 60), after the publish benchmark (it reads
// bench/out/store). Side by side, alternating, each in its own child process: the tile build (buildTiles and the
// PMTiles writer, the features loaded before the clock starts) and the publish floor (bench/publish.ts `floor`).
// Then: the archive the publish wrote, read back and held to its features (src/tiles/check.ts); its size and largest
// tile; and a refresh where one country's activation changed, as the tiles it rewrites and their bytes.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Feature } from "../src/model/contract.js";
import type { VersionManifest } from "../src/model/manifest.js";
import { utcDay } from "../src/model/time.js";
import { buildTiles, MAX_ZOOM, maxError } from "../src/tiles/build.js";
import { checkArchive } from "../src/tiles/check.js";
import { writeArchive } from "../src/tiles/pmtiles.js";
import { openArchive } from "../src/tiles/read-back.js";
import { CLI_NODE_FLAGS, ROOT } from "./support.js";

const OUT = path.join(ROOT, "bench", "out");
const STORE = path.join(OUT, "store");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOALS = { buildPerFloor: 1, archiveMb: 25, tileKb: 500, rewrittenShare: 0.15, rssMb: 1024 };

function live(): { manifest: VersionManifest; features: Feature[] } {
  const pointer = JSON.parse(readFileSync(path.join(STORE, "v1/current.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(STORE, pointer.manifest), "utf8")) as VersionManifest;
  const features = Object.values(manifest.countries).flatMap(
    (e) =>
      (JSON.parse(gunzipSync(readFileSync(path.join(STORE, e.key))).toString("utf8")) as { features: Feature[] })
        .features,
  );
  return { manifest, features };
}

/** Child mode `build`: one JSON line of seconds, CPU seconds and peak RSS of buildTiles and writeArchive. */
async function build(): Promise<void> {
  const { manifest, features } = live();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const set = await buildTiles(features, utcDay(manifest.date)!);
  const a = writeArchive(set.tiles, {
    minZoom: 0,
    maxZoom: MAX_ZOOM,
    bounds: set.bounds,
    center: [10, 50, 4],
    metadata: {},
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      bytes: a.bytes,
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

/** The tiles whose bytes differ when every feature of `cc` flips `isActive` and loses its intervals (a refresh). */
async function refresh(features: Feature[], date: string, cc: string) {
  const day = utcDay(date)!;
  const before = await buildTiles(features, day);
  const changed = features.map((f) => {
    if (f.properties.country !== cc) return f;
    const g = structuredClone(f);
    const m = g.properties.vendor.dynamicAirspaceMapping;
    m.isActive = m.isActive === "Yes" ? "No" : "Yes";
    m.airspaceActivationTimes = [];
    m.dynamicScheduleAndVerticalLimits = [];
    return g;
  });
  const after = await buildTiles(changed, day);
  const was = new Map(before.tiles.map((t) => [`${t.z}/${t.x}/${t.y}`, Buffer.from(t.data)]));
  let [tiles, bytes] = [0, 0];
  for (const t of after.tiles) {
    const w = was.get(`${t.z}/${t.x}/${t.y}`);
    if (w && Buffer.compare(w, t.data) === 0) continue;
    tiles++;
    bytes += t.data.length;
  }
  const total = after.tiles.reduce((n, t) => n + t.data.length, 0);
  return {
    country: cc,
    features: features.filter((f) => f.properties.country === cc).length,
    tiles,
    of: after.tiles.length,
    bytes,
    share: bytes / total,
  };
}

async function run(): Promise<void> {
  const me = fileURLToPath(import.meta.url);
  const publishJs = path.join(path.dirname(me), "publish.js");
  const { manifest, features } = live();
  if (!manifest.tiles)
    throw new Error("the publish benchmark's version has no tiles: run `make bench BENCH=publish` first");
  const builds = [];
  const floors = [];
  for (let i = 0; i < RUNS; i++) {
    builds.push(child(me, "build"));
    floors.push(child(publishJs, "floor"));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const b = median(builds.map((m) => m.seconds));
  const f = median(floors.map((m) => m.seconds));
  const archive = await openArchive(readFileSync(path.join(STORE, manifest.tiles.key)));
  const t0 = performance.now();
  const check = await checkArchive(archive, features, utcDay(manifest.date)!);
  const checkSeconds = (performance.now() - t0) / 1000;
  const perCountry = new Map<string, number>();
  for (const x of features) perCountry.set(x.properties.country, (perCountry.get(x.properties.country) ?? 0) + 1);
  const ranked = [...perCountry].sort((x, y) => y[1] - x[1]);
  const refreshes = [];
  for (const [cc] of [ranked[0]!, ranked[Math.floor(ranked.length / 2)]!])
    refreshes.push(await refresh(features, manifest.date, cc));
  const result = {
    runs: RUNS,
    buildSeconds: builds.map((m) => +m.seconds.toFixed(2)),
    floorSeconds: floors.map((m) => +m.seconds.toFixed(2)),
    buildPerFloor: +(b / f).toFixed(2),
    buildPeakRssMb: Math.round(Math.max(...builds.map((m) => m.maxRssMb))),
    archiveMb: +(manifest.tiles.bytes / 1e6).toFixed(1),
    tiles: manifest.tiles.tiles,
    largestTileKb: +(manifest.tiles.largestTile / 1e3).toFixed(0),
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
      `refresh where ${r.country} changed (${r.features} features): ${r.tiles} of ${r.of} tiles rewritten, ` +
        `${(r.bytes / 1e6).toFixed(2)} MB, ${(100 * r.share).toFixed(1)} % of the tile bytes (goal ≤ ${100 * GOALS.rewrittenShare} %)`,
    );
  }
  const missed =
    result.buildPerFloor > GOALS.buildPerFloor ||
    result.archiveMb > GOALS.archiveMb ||
    result.largestTileKb > GOALS.tileKb ||
    c.missing + c.extra + c.properties + c.farther > 0 ||
    refreshes.some((r) => r.share > GOALS.rewrittenShare);
  if (missed) {
    console.log("tiles: MISSED a goal");
    process.exitCode = 1;
  }
}

const mode = process.argv[2];
if (mode === "build") await build();
else await run();
