// What a refresh costs against the first publish (`make bench`, issue 24), on real data: the bundled airspace of
// seven countries (fixtures/sample: AT BE CH DE FR, fixtures/uk: GB with its NO neighbour), the real UK PIB and the
// EAUP table, published into an empty local store the way the scheduled job does (the stage cache on). CPU is this
// process's (user + system) around each publication, so module loading is left out of both sides.
// 1. the first publish, then a refresh 15 minutes later with the same source bytes;
// 2. every 15-minute run with the same bytes while the briefing is fresh (to 13:00): their CPU (goal: the median
//    of these and the first refresh ≤ 10 %), and none where now changed no feature writes a data object;
// 3. one country's NOTAMs changed (one NOTAM cut from the UK PIB): the other countries' objects are reused;
// 4. the hourly UK weekend (../shared/data/notam/uk_pib_hourly_2024-06-14) replayed by the CLI: each run against
//    the first (goal: median ≤ 30 %).
// Writes bench/out/refresh.json; exits 1 when a goal is missed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { codeVersion } from "../jobs/code-version.js";
import { silentLogger } from "../src/model/logger.js";
import { utcDay } from "../src/model/time.js";
import type { AirspaceInput } from "../src/options.js";
import { publishDay } from "../src/pipeline.js";
import type { DynamicInput } from "../src/sources.js";
import { CountingStore, type StoreCounts } from "../src/store/counting-store.js";
import { LocalStore } from "../src/store/local-store.js";
import { HOURLY_WEEKEND, ROOT, WEEKEND_AIRSPACE } from "./support.js";

const OUT = path.join(ROOT, "bench", "out", "refresh");
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const DATE = "2026-08-22";
const at = (hhmm: string) => Date.parse(`${DATE}T${hhmm}:00Z`);
const airspaceFiles = [
  ...readdirSync(path.join(ROOT, "fixtures", "sample"))
    .filter((f) => !f.endsWith(".md"))
    .map((f) => path.join(ROOT, "fixtures", "sample", f)),
  ...["gb_airspace_2026-06.yaml", "gb_rat_2026-06.yaml", "gb_service_2026-06.yaml"].map((f) =>
    path.join(ROOT, "fixtures", "uk", f),
  ),
];
const airspaces = (now: number): AirspaceInput[] =>
  airspaceFiles.map((f) => ({ name: path.basename(f), bytes: readFileSync(f), fetchedAt: now }));
const PIB = readFileSync(path.join(ROOT, "fixtures", "uk", "uk_pib_2026-08-22T1116Z.xml.gz"));
const EAUP = readFileSync(path.join(ROOT, "fixtures", "aup-csv", "eaup_rsa_2022-02-23T0959Z.csv"));

/** The UK PIB without its first navigation warning (a graphical NOTAM of GB): one country's NOTAMs changed. */
function pibLessOne(): Buffer {
  const xml = gunzipSync(PIB).toString("utf8");
  const start = xml.indexOf('<Notam OriginalMessage="false" PIBSection="WAR">');
  const end = xml.indexOf("</Notam>", start) + "</Notam>".length;
  if (start < 0 || end < start) throw new Error("bench refresh: no navigation warning in the UK PIB");
  return gzipSync(xml.slice(0, start) + xml.slice(end));
}

interface Run {
  label: string;
  now: string;
  cpuMs: number;
  reused: boolean;
  /** Why it derived, or how many features changed at its now when it reused the run before. */
  why?: string;
  changedFeatures?: number;
  version: string;
  store: StoreCounts;
  dataObjectsWritten: number;
}

const written: string[] = [];
function countingStore(dir: string): CountingStore {
  const store = new CountingStore(new LocalStore(path.join(OUT, dir)));
  const put = store.put.bind(store);
  store.put = (key, body, options) => {
    written.push(key);
    return put(key, body, options);
  };
  return store;
}
const store = countingStore("store");
const logged: string[] = [];
let said: { why?: string; changedFeatures?: number } = {};
const log = {
  ...silentLogger,
  info: (msg: string, fields?: Record<string, unknown>) => {
    logged.push(msg);
    if (msg === "derived") said.why = String(fields?.why);
    if (msg === "reused") said.changedFeatures = Number(fields?.changedFeatures);
  },
};
const version = codeVersion();

async function publish(label: string, now: number, pib: Buffer = PIB, into = store): Promise<Run> {
  const notams: DynamicInput[] = [{ name: "uk_pib.xml.gz", bytes: pib, fetchedAt: now }];
  const aup: DynamicInput[] = [{ name: "eaup_rsa_2022-02-23T0959Z.csv", bytes: EAUP, fetchedAt: now }];
  into.take();
  written.length = 0;
  logged.length = 0;
  said = {};
  const inputs = airspaces(now);
  const cpu = process.cpuUsage();
  const report = await publishDay(
    inputs,
    { day: utcDay(DATE)!, now, sources: { notam: [], aup: [] }, notams, aup },
    { store: into, log, codeVersion: version },
  );
  const used = process.cpuUsage(cpu);
  const counts = into.take();
  return {
    label,
    now: new Date(now).toISOString(),
    cpuMs: Math.round((used.user + used.system) / 1000),
    reused: logged.includes("reused"),
    ...said,
    version: report.version,
    store: counts,
    dataObjectsWritten: written.filter((k) => /^v1\/objects\//.test(k)).length,
    ...{ countries: Object.keys(report.countries).length },
  };
}

const first = await publish("first publish", at("11:15"));
const refresh = await publish("no-change refresh, 15 min later", at("11:30"));
const day: Run[] = [];
// while the briefing (issued 11:14) is fresh: past 13:14 a real job has fetched a newer one
for (let t = at("11:45"); t <= at("13:00"); t += 15 * 60_000) day.push(await publish("no-change refresh", t));
// 3. in a store of its own: the first publish, then the same inputs but the UK PIB at 11:30
const other = countingStore("store-changed");
await publish("first publish (second store)", at("11:15"), PIB, other);
const changed = await publish("the UK's NOTAMs changed", at("11:30"), pibLessOne(), other);

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] ?? 0;
const ratio = (r: Run) => r.cpuMs / first.cpuMs;
const reusedRuns = day.filter((r) => r.reused);
const derivedRuns = day.filter((r) => !r.reused);

// 4. the hourly replay
const HOURLY = HOURLY_WEEKEND;
let replay: { first: number; median: number; runs: number } | undefined;
if (existsSync(HOURLY)) {
  const report = path.join(OUT, "replay.json");
  const yaixm = WEEKEND_AIRSPACE;
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "dist", "jobs", "cli.js"),
      "replay",
      ...yaixm.flatMap((a) => ["--airspaces", a]),
      ...["--notams", HOURLY, "--store", path.join(OUT, "replay-store"), "--report", report, "--quiet"],
    ],
    { encoding: "utf8", env: { ...process.env, NODE_NO_WARNINGS: "1" } },
  );
  if (r.status !== 0) throw new Error(`replay failed: ${r.stderr}`);
  const runs: Array<{ cpuMs: number }> = JSON.parse(readFileSync(report, "utf8")).runs;
  replay = { first: runs[0]!.cpuMs, median: med(runs.slice(1).map((x) => x.cpuMs)), runs: runs.length };
} else console.log(`refresh: ${HOURLY} is absent; the hourly replay is not measured (set SHARED_DATA)`);

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const line = (r: Run) =>
  `${r.label.padEnd(34)} ${r.now.slice(11, 16)}  cpu ${String(r.cpuMs).padStart(5)} ms (${pct(ratio(r)).padStart(7)})  ` +
  `${r.reused ? `reused (${r.changedFeatures} changed)` : `derived (${r.why})`}  ${r.store.put} PUT ${r.store.get} GET ${r.store.head} HEAD ${r.store.list} LIST, ` +
  `${(r.store.bytesWritten / 1024).toFixed(0)} KiB written, ${r.dataObjectsWritten} data objects`;
console.log(line(first));
console.log(line(refresh));
console.log(
  `no-change refreshes 11:45–13:00 every 15 min: ${day.length} runs, ${reusedRuns.length} reused the run before ` +
    `(median cpu ${med(reusedRuns.map((r) => r.cpuMs))} ms, ${pct(med(reusedRuns.map(ratio)))}), ` +
    `${derivedRuns.length} derived (an interval began or ended; median ${pct(med(derivedRuns.map(ratio)))}); ` +
    `median of all ${pct(med(day.map(ratio)))}`,
);
for (const r of day) console.log(`  ${line(r)}`);
console.log(line(changed));
if (replay) {
  console.log(
    `hourly UK replay (${replay.runs} runs): first ${replay.first} ms, median of the others ${replay.median} ms ` +
      `(${pct(replay.median / replay.first)}; goal ≤ 30 %)`,
  );
}
writeFileSync(
  path.join(ROOT, "bench", "out", "refresh.json"),
  `${JSON.stringify({ first, refresh, day, changed, replay }, null, 2)}\n`,
);
const refreshes = [refresh, ...day];
const idle = refreshes.filter((r) => r.reused && r.changedFeatures === 0);
const noChange = med(refreshes.map(ratio));
console.log(
  `no-change refreshes 11:30–13:00: median ${pct(noChange)} of the first publish (goal ≤ 10 %); ` +
    `${idle.length} changed no feature and wrote ${idle.reduce((n, r) => n + r.dataObjectsWritten, 0)} data objects`,
);
const missed = [
  ...(noChange > 0.1 ? [`no-change refresh median at ${pct(noChange)} of the first publish (goal ≤ 10 %)`] : []),
  ...(idle.length === 0 ? ["no refresh changed no feature: the whole-run reuse was not measured"] : []),
  ...(idle.some((r) => r.dataObjectsWritten > 0) ? ["a refresh that changed no feature wrote data objects"] : []),
  ...(replay && replay.median / replay.first > 0.3 ? ["hourly replay median over 30 % of the first run"] : []),
];
for (const m of missed) console.log(`refresh: MISSED ${m}`);
if (missed.length > 0) process.exitCode = 1;
