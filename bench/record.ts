// The record and its artifacts on real data (`make bench`, issue 23): the hourly UK weekend
// (../shared/data/notam/uk_pib_hourly_2024-06-14, 74 PIBs, YAIXM 2024-09) replayed by the built CLI into
// bench/out/record/store. Prints and writes (bench/out/record.json):
// - the store's size after the replay, by kind of object, and after retention 30 days later (the record alone);
// - each new artifact's cost per run on GB (median over consecutive versions): the change set (diff, gzip), the
//   OpenAir text (render, deflate) beside the GeoJSON fragment they add to, and the explanation delta;
// - what 400 days of Europe would cost, extrapolated from these figures and the Europe-scale publication
//   (bench/out/store, from bench/publish.ts, when it is there; else 40 × GB).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FeatureCollection } from "../src/model/contract.js";
import type { VersionManifest } from "../src/model/manifest.js";
import { changeSetObject, diffTexts } from "../src/publish/changes.js";
import { deflatePiece } from "../src/publish/gzip.js";
import { openairText } from "../src/publish/openair.js";
import { DayRecord } from "../src/publish/record.js";
import { collectGarbage } from "../src/publish/retention.js";
import { LocalStore } from "../src/store/local-store.js";
import { HOURLY_WEEKEND, ROOT, WEEKEND_AIRSPACE } from "./support.js";

const HOURLY = HOURLY_WEEKEND;
if (!existsSync(HOURLY)) {
  console.error(`bench record: ${HOURLY} is absent; it replays the real hourly UK weekend (set SHARED_DATA)`);
  process.exit(1);
}
const OUT = path.join(ROOT, "bench", "out", "record");
const STORE = path.join(OUT, "store");
rmSync(OUT, { recursive: true, force: true });
const AIRSPACE = WEEKEND_AIRSPACE;

// 1. the replay, as an operator runs it
const t0 = performance.now();
const replay = spawnSync(
  process.execPath,
  [
    path.join(ROOT, "dist", "jobs", "cli.js"),
    "replay",
    ...AIRSPACE.flatMap((a) => ["--airspaces", a]),
    ...["--notams", HOURLY, "--store", STORE, "--report", path.join(OUT, "replay.json"), "--quiet"],
  ],
  { encoding: "utf8", env: { ...process.env, NODE_NO_WARNINGS: "1" } },
);
if (replay.status !== 0) throw new Error(`replay failed: ${replay.stderr}`);
const replaySeconds = (performance.now() - t0) / 1000;
process.stdout.write(replay.stdout);

// 2. the store's size by kind of object
const local = new LocalStore(STORE);
const KINDS: Array<[string, RegExp]> = [
  ["collections (.geojson.gz)", /\.geojson\.gz$/],
  ["fragments (.deflate)", /objects\/[0-9a-f]+\.deflate$/],
  ["OpenAir (.openair.gz, .openair.deflate)", /\.openair\.(gz|deflate)$/],
  ["change sets", /\/changes\//],
  ["manifests", /\/versions\//],
  ["day pointers", /\/days\//],
  ["explanations", /^internal\/explain\//],
];
async function sizes(): Promise<Record<string, { objects: number; bytes: number }>> {
  const out: Record<string, { objects: number; bytes: number }> = {};
  for (const key of await local.list("")) {
    const kind = KINDS.find(([, re]) => re.test(key))?.[0] ?? "other";
    out[kind] ??= { objects: 0, bytes: 0 };
    const s = out[kind];
    s.objects++;
    s.bytes += statSync(path.join(STORE, key)).size;
  }
  return out;
}
const total = (s: Record<string, { bytes: number }>) => Object.values(s).reduce((n, k) => n + k.bytes, 0);
const afterReplay = await sizes();
const runs: Array<{ now: string; versions: unknown[] }> = JSON.parse(
  readFileSync(path.join(OUT, "replay.json"), "utf8"),
).runs;
const last = Date.parse(runs.at(-1)!.now);

// 3. each new artifact's cost on GB, over consecutive versions of each day (before retention)
const record = new DayRecord(local, "v1");
const days = await record.days();
const chains: VersionManifest[][] = [];
for (const d of days) chains.push(await record.chain(d));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] ?? 0;
const timed = async <T>(fn: () => T | Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
};
const cost = { changeSet: [] as number[][], openair: [] as number[][], geojson: [] as number[][] };
for (const chain of chains) {
  for (let i = 1; i < chain.length; i++) {
    const [a, b] = [chain[i - 1]!, chain[i]!];
    if (!a.countries.GB || !b.countries.GB) continue;
    const before: FeatureCollection = await record.collection(a, "GB");
    const after: FeatureCollection = await record.collection(b, "GB");
    // as publish makes it: from the two collections' texts (src/publish/publish.ts textDiff)
    const [beforeText, afterText] = [JSON.stringify(before), JSON.stringify(after)];
    const [set, msSet] = await timed(() => {
      const change = diffTexts(beforeText, afterText);
      return changeSetObject("v1", { country: "GB", day: b.date, from: a.version, meta: after.meta, ...change });
    });
    cost.changeSet.push([msSet, set.gz.length]);
    const [oa, msOa] = await timed(async () => deflatePiece(Buffer.from(openairText(after.features).text)));
    cost.openair.push([msOa, oa.deflated.length]);
    const [gj, msGj] = await timed(async () =>
      deflatePiece(Buffer.from(after.features.map((f) => JSON.stringify(f)).join(","))),
    );
    cost.geojson.push([msGj, gj.deflated.length]);
  }
}
const perRun = (rows: number[][]) => ({
  medianMs: Math.round(median(rows.map((r) => r[0]!)) * 10) / 10,
  medianBytes: median(rows.map((r) => r[1]!)),
});
const explainSizes = (first: boolean) =>
  chains.flatMap((c) =>
    (first ? c.slice(0, 1) : c.slice(1)).map(
      (m) => statSync(path.join(STORE, `internal/explain/${m.version}.json.gz`)).size,
    ),
  );
const artifacts = {
  changeSet: perRun(cost.changeSet),
  openair: perRun(cost.openair),
  geojsonFragment: perRun(cost.geojson),
  explanationFirstBytes: median(explainSizes(true)),
  explanationDeltaBytes: median(explainSizes(false)),
  dayPointerBytes: statSync(path.join(STORE, "v1", "days", days[0]!, "current.json")).size,
  manifestBytes: median(chains.flat().map((m) => statSync(path.join(STORE, `v1/versions/${m.version}.json`)).size)),
};

// 4. the record alone: retention 30 days after the last run (whole versions go after 7 days)
const later = last + 30 * 86_400_000;
await collectGarbage(local, { now: later });
await collectGarbage(local, { now: later + 2 * 3_600_000 });
const recordOnly = await sizes();
const versions = chains.flat().length;

// 5. 400 days of Europe: a day's record is its first collections, its change sets, its manifests, its explanations
const gbGz = median(chains.flat().map((m) => m.countries.GB?.gzBytes ?? 0));
const EUROPE_MANIFEST = path.join(ROOT, "bench", "out", "store", "v1", "current.json");
let europeGz = 40 * gbGz;
let europeCountries = 40;
let europeFrom = "40 × GB (bench/out/store absent: run bench/publish.ts first for the Europe-scale figure)";
if (existsSync(EUROPE_MANIFEST)) {
  const pointer = JSON.parse(readFileSync(EUROPE_MANIFEST, "utf8"));
  const m = JSON.parse(readFileSync(path.join(ROOT, "bench", "out", "store", pointer.manifest), "utf8"));
  europeGz = Object.values(m.countries as Record<string, { gzBytes: number }>).reduce((n, c) => n + c.gzBytes, 0);
  europeCountries = Object.keys(m.countries).length;
  europeFrom = `the Europe-scale publication (bench/out/store, ${europeCountries} countries)`;
}
// every 15 minutes, and tomorrow's from 15:00; each with the change of an hour of the replay (the safe side)
const gbVersionsPerDay = 96 + 36;
const manifestCountries = median(chains.flat().map((m) => Object.keys(m.countries).length));
const changeRatio = median(cost.changeSet.map((r, i) => r[1]! / (cost.geojson[i]![1]! || 1)));
const scale = europeGz / gbGz;
const perDay = {
  firstCollections: europeGz,
  changeSets: Math.round(gbVersionsPerDay * changeRatio * europeGz),
  // a manifest grows with its countries' entries
  manifests: Math.round((gbVersionsPerDay * artifacts.manifestBytes * europeCountries) / manifestCountries),
  explanations: Math.round(
    (artifacts.explanationFirstBytes + gbVersionsPerDay * artifacts.explanationDeltaBytes) * scale,
  ),
};
const dayBytes = Object.values(perDay).reduce((a, b) => a + b, 0);
const europe400 = { from: europeFrom, perDay, dayBytes, days400Bytes: 400 * dayBytes };

const result = {
  replay: { runs: runs.length, versions, seconds: Math.round(replaySeconds) },
  storeAfterReplay: { bytes: total(afterReplay), byKind: afterReplay },
  recordOnly: {
    bytes: total(recordOnly),
    byKind: recordOnly,
    perDayBytes: Math.round(total(recordOnly) / days.length),
  },
  artifacts,
  europe400,
};
writeFileSync(path.join(ROOT, "bench", "out", "record.json"), `${JSON.stringify(result, null, 2)}\n`);
const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MiB`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`record: ${runs.length} runs, ${versions} versions, replayed in ${Math.round(replaySeconds)} s`);
console.log(`  store after the replay: ${mb(total(afterReplay))}`);
for (const [k, s] of Object.entries(afterReplay)) console.log(`    ${k}: ${s.objects} objects, ${mb(s.bytes)}`);
console.log(`  the record alone (30 days later): ${mb(total(recordOnly))} for ${days.length} days`);
const a = artifacts;
console.log(
  `  per run on GB: change set ${a.changeSet.medianMs} ms ${kb(a.changeSet.medianBytes)}; ` +
    `OpenAir ${a.openair.medianMs} ms ${kb(a.openair.medianBytes)} (beside the GeoJSON fragment ` +
    `${a.geojsonFragment.medianMs} ms ${kb(a.geojsonFragment.medianBytes)}); explanation delta ` +
    `${kb(a.explanationDeltaBytes)} (first ${kb(a.explanationFirstBytes)}); day pointer ${a.dayPointerBytes} B, ` +
    `manifest ${kb(a.manifestBytes)}`,
);
console.log(
  `  400 days of Europe (from ${europeFrom}): ${mb(dayBytes)} a day, ${(europe400.days400Bytes / 1e9).toFixed(1)} GB`,
);
