// `make bench`: every benchmark in its own process, in order, each run even when one before it missed its goal
// or failed; then one line per benchmark and an exit code of 1 naming those that missed (issue 24). The Europe-scale
// publish goes first: it generates bench/out/input, which the tiles, record, S3, origin, map and NOTAM benchmarks read.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./support.js";

const BENCHES: Array<{ name: string; file: string; args?: string[]; node?: string[] }> = [
  { name: "publish", file: "publish.js" },
  { name: "tiles", file: "tiles.js" },
  { name: "record", file: "record.js" },
  { name: "client", file: "client.js" },
  { name: "s3", file: "s3.js" },
  { name: "origin", file: "origin.js" },
  { name: "map", file: "map.js" },
  { name: "itemd", file: "itemd.js", args: ["throughput"], node: ["--max-semi-space-size=32"] },
  { name: "notams", file: "notams.js", node: ["--max-semi-space-size=32"] },
  { name: "uk", file: "uk.js" },
  { name: "refresh", file: "refresh.js" },
  { name: "watch", file: "watch.js" },
  { name: "watch-europe", file: "watch-europe.js" },
];

const only = process.argv.slice(2);
const unknown = only.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length > 0) {
  console.error(`bench: no benchmark named ${unknown.join(", ")}; there are ${BENCHES.map((b) => b.name).join(", ")}`);
  process.exit(2);
}
const results: Array<{ name: string; status: number | null; seconds: number }> = [];
for (const b of BENCHES.filter((x) => only.length === 0 || only.includes(x.name))) {
  console.log(`\n== bench ${b.name}`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [...(b.node ?? []), path.join(ROOT, "dist", "bench", b.file), ...(b.args ?? [])],
    {
      stdio: "inherit",
    },
  );
  results.push({ name: b.name, status: r.status, seconds: (performance.now() - t0) / 1000 });
}
console.log("\n== bench summary");
for (const r of results) {
  const how = r.status === 0 ? "met its goals" : r.status === null ? "was killed" : "MISSED a goal or failed";
  console.log(`  ${r.name.padEnd(8)} ${how} (${r.seconds.toFixed(0)} s)`);
}
const missed = results.filter((r) => r.status !== 0).map((r) => r.name);
if (missed.length > 0) {
  console.log(`bench: ${missed.length} of ${results.length} missed: ${missed.join(", ")} (see each one's lines above)`);
  process.exitCode = 1;
}
