// The client (issue 51) on the real hourly UK weekend (`make bench`): the 74 PIBs replayed by the built CLI into
// bench/out/client/store, then each run's versions made live in turn (today's, then tomorrow's from 15:00) behind an
// origin, and after each a client of that day syncing GB (the two clients share one storage, so at midnight today's
// goes on from tomorrow's chain). Prints and writes bench/out/client.json: the bytes the clients read beside the full
// downloads a client without change sets would have made, their full downloads, and the median sync time.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { main } from "../jobs/cli.js";
import { startOrigin } from "../jobs/commands/serve.js";
import { createClient, keyOf } from "../src/client/client.js";
import { memoryStorage } from "../src/client/storage.js";
import { captureIo, HOURLY_WEEKEND, movePointers, ROOT, WEEKEND_AIRSPACE } from "./support.js";

const HOURLY = HOURLY_WEEKEND;
if (!existsSync(HOURLY)) {
  console.error(`bench client: ${HOURLY} is absent; it replays the real hourly UK weekend (set SHARED_DATA)`);
  process.exit(1);
}
const OUT = path.join(ROOT, "bench", "out", "client");
const STORE = path.join(OUT, "store");
rmSync(OUT, { recursive: true, force: true });
const AIRSPACE = WEEKEND_AIRSPACE.flatMap((f) => ["--airspaces", f]);
const replay = spawnSync(
  process.execPath,
  [
    ...[path.join(ROOT, "dist", "jobs", "cli.js"), "replay", ...AIRSPACE],
    ...["--notams", HOURLY, "--store", STORE, "--report", path.join(OUT, "replay.json"), "--quiet"],
  ],
  { encoding: "utf8", maxBuffer: 1 << 28 },
);
if (replay.status !== 0) throw new Error(`replay failed: ${replay.stderr}`);
const runs: Array<{ versions: Array<{ date: string; version: string }> }> = JSON.parse(
  readFileSync(path.join(OUT, "replay.json"), "utf8"),
).runs;

let token = "";
const tokens = path.join(OUT, "tokens.json");
await main(
  ["tokens", "create", "--tokens", tokens, "--scope", "dynamic"],
  captureIo((s) => {
    token += s;
  }),
);
token = token.trim();
// the origin's clock moves on 10 s a version: it re-reads a day's pointer other than today's after 5 s
let skew = 0;
const io = { ...captureIo(), now: () => Date.now() + skew };
const origin = await startOrigin({ port: "0", store: STORE, tokens }, io);
const storage = memoryStorage();
const client = (day: "today" | "tomorrow") =>
  createClient({ endpoint: origin.url, token, countries: ["GB"], day, storage });
const clients = { today: client("today"), tomorrow: client("tomorrow") };
const tally = { versions: 0, full: 0, bytes: 0, fullBytes: 0, ms: [] as number[] };
try {
  for (const run of runs) {
    for (const [i, { version }] of run.versions.entries()) {
      const day = i === 0 ? "today" : "tomorrow";
      movePointers(STORE, version, day === "today");
      await origin.refresh();
      skew += 10_000;
      const t0 = performance.now();
      const r = await clients[day].sync();
      tally.ms.push(performance.now() - t0);
      if (r.version !== version) throw new Error(`the ${day} client holds ${r.version}, not ${version}`);
      const live = await fetch(`${origin.url}/v1/data/airspaces?countries=GB&day=${day}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await live.text();
      if ((await storage.load(keyOf("GB", day)))?.text !== text)
        throw new Error(`the ${day} client's GB is not the live collection at ${version}`);
      tally.versions++;
      tally.bytes += r.bytes;
      tally.fullBytes += text.length;
      if (r.full) tally.full++;
    }
  }
} finally {
  await origin.close();
}
const sorted = [...tally.ms].sort((a, b) => a - b);
const result = {
  versions: tally.versions,
  fullDownloads: tally.full,
  bytesRead: tally.bytes,
  fullDownloadBytes: tally.fullBytes,
  ratio: tally.bytes / tally.fullBytes,
  syncMedianMs: Math.round(sorted[(sorted.length - 1) >> 1]! * 10) / 10,
};
writeFileSync(path.join(ROOT, "bench", "out", "client.json"), `${JSON.stringify(result, null, 2)}\n`);
const mib = (n: number) => `${(n / 1_048_576).toFixed(1)} MiB`;
console.log(
  `client: ${result.versions} versions, byte-identical after each; ${result.fullDownloads} full downloads; ` +
    `read ${mib(result.bytesRead)} against ${mib(result.fullDownloadBytes)} of full downloads ` +
    `(${(100 * result.ratio).toFixed(1)} %); sync median ${result.syncMedianMs} ms`,
);
