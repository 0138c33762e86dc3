// `make bench` (S3 part): the Europe-scale output published to a real s3rver on loopback through a counting
// HTTP proxy, first into an empty bucket, then a refresh where one country's airspace input changed. Prints
// requests by method, bytes uploaded and time of each; the refresh must upload under 10 % of the first's bytes.
// Writes bench/out/s3.json.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { main } from "../jobs/cli.js";
import { generate } from "./generate.js";
import { generateAup, generateNotams } from "./generate-dynamic.js";
import { CREDENTIALS, FaultProxy, REGION, type Seen, startS3rver } from "./s3-harness.js";
import { ROOT, SHARED, sharedAirspaceMissing } from "./support.js";

const OUT = path.join(ROOT, "bench", "out", "s3");
const DATE = "2026-09-14";
const NOW = `${DATE}T10:00:00Z`;
/** The country whose input changes for the refresh. */
const CHANGED = "de";

interface Pass {
  seconds: number;
  requests: Record<string, number>;
  uploadedBytes: number;
  uploadedObjects: number;
  /** Keys written other than data objects (manifest, pointer, bookkeeping). */
  otherWrites: string[];
}

function tally(seen: readonly Seen[], seconds: number): Pass {
  const requests: Record<string, number> = { total: seen.length };
  for (const s of seen) requests[s.method] = (requests[s.method] ?? 0) + 1;
  const puts = seen.filter((s) => s.method === "PUT");
  return {
    seconds: +seconds.toFixed(2),
    requests,
    uploadedBytes: puts.reduce((n, s) => n + s.bytes, 0),
    uploadedObjects: puts.filter((s) => s.url.includes("/objects/")).length,
    otherWrites: puts
      .filter((s) => !s.url.includes("/objects/"))
      .map((s) => decodeURIComponent(new URL(s.url, "http://x").pathname).replace("/bench/europe/", "")),
  };
}

async function publish(proxy: FaultProxy, airspaces: string, dynamic: string): Promise<Pass> {
  proxy.reset();
  const t0 = performance.now();
  const code = await main([
    "publish",
    ...["--airspaces", airspaces, "--notams", path.join(dynamic, "notams.jsonl")],
    ...["--aup", path.join(dynamic, `eaup_rsa_${DATE}T0700Z.csv`)],
    ...["--date", DATE, "--now", NOW, "--store", "s3://bench/europe", "--s3-endpoint", proxy.endpoint, "--quiet"],
  ]);
  if (code !== 0) throw new Error(`publish exited ${code}`);
  return tally(proxy.seen, (performance.now() - t0) / 1000);
}

async function run(): Promise<void> {
  if (sharedAirspaceMissing("s3")) return;
  rmSync(OUT, { recursive: true, force: true });
  const input = path.join(OUT, "input");
  const dynamic = path.join(OUT, "dynamic");
  const g = generate(SHARED, input);
  generateNotams(SHARED, dynamic, DATE);
  generateAup(SHARED, dynamic, DATE);

  // the refresh's input: the same files (the same names, as a scheduled run reads them), one country with its
  // first airspace removed
  const file = readdirSync(input).find((f) => f.startsWith(`${CHANGED}_`));
  if (!file) throw new Error(`no ${CHANGED} input in ${input}`);
  const change = () => {
    const fc = JSON.parse(readFileSync(path.join(input, file), "utf8")) as { features: unknown[] };
    fc.features.shift();
    writeFileSync(path.join(input, file), JSON.stringify(fc));
  };

  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    AWS_REGION: REGION,
  });
  const server = await startS3rver("bench");
  const proxy = await new FaultProxy(server.endpoint).start();
  try {
    const first = await publish(proxy, input, dynamic);
    const unchanged = await publish(proxy, input, dynamic);
    change();
    const refresh = await publish(proxy, input, dynamic);
    const share = refresh.uploadedBytes / first.uploadedBytes;
    const result = {
      input: { airspaces: g.features, vertices: g.vertices, countries: g.files.length, changed: CHANGED.toUpperCase() },
      first,
      unchanged,
      refresh,
      refreshShareOfFirst: +share.toFixed(4),
      goal: "refresh uploads < 10 % of the first publish's bytes",
    };
    writeFileSync(path.join(OUT, "..", "s3.json"), `${JSON.stringify(result, null, 2)}\n`);
    const line = (name: string, p: Pass) =>
      `${name.padEnd(10)} ${p.seconds.toFixed(2).padStart(6)} s  ${String(p.requests.total).padStart(5)} requests ` +
      `(PUT ${p.requests.PUT ?? 0}, HEAD ${p.requests.HEAD ?? 0}, GET ${p.requests.GET ?? 0}, DELETE ${p.requests.DELETE ?? 0})  ` +
      `${(p.uploadedBytes / 1e6).toFixed(2).padStart(7)} MB uploaded in ${p.uploadedObjects} objects`;
    console.log(`S3 (s3rver on loopback): ${g.features} airspaces in ${g.files.length} countries`);
    console.log(line("first", first));
    console.log(line("unchanged", unchanged));
    console.log(line(`refresh`, refresh));
    console.log(
      `refresh (${CHANGED.toUpperCase()} changed) uploads ${(share * 100).toFixed(2)} % of the first publish's bytes (goal < 10 %)`,
    );
    if (share >= 0.1) process.exitCode = 1;
  } finally {
    await proxy.close();
    await server.close();
  }
}

await run();
