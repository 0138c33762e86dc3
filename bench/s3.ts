// `make bench` (S3 part): the Europe-scale output published to a real s3rver on loopback through a counting
// HTTP proxy, first into an empty bucket, then a refresh where one country's airspace input changed. Prints
// requests by method, bytes uploaded and time of each; the refresh must upload under 10 % of the first's bytes.
// Then the shadow bootstrap on its own (issue 24: ≤ 1 000 requests, ≤ 15 s): the shadow state is deleted and the
// shadow step a publish runs afterwards loads every master feature again from the published collections.
// Writes bench/out/s3.json.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { main } from "../jobs/cli.js";
import { followShadow } from "../jobs/shadow-step.js";
import type { Logger } from "../src/model/logger.js";
import { MASTER_PREFIX } from "../src/shadow/buckets.js";
import { DEAD_PREFIX, JOURNAL_PREFIX } from "../src/shadow/journal.js";
import { PARTS_PREFIX, SHADOW_MANIFEST_KEY } from "../src/shadow/manifest.js";
import { BOOTSTRAP_KEY } from "../src/shadow/shadow.js";
import { S3Store } from "../src/store/s3-store.js";
import { generate } from "./generate.js";
import { generateAup, generateNotams } from "./generate-dynamic.js";
import { CREDENTIALS, FaultProxy, REGION, type Seen, startS3rver } from "./s3-harness.js";
import { ROOT, SHARED, sharedAirspaceMissing } from "./support.js";

const OUT = path.join(ROOT, "bench", "out", "s3");
const DATE = "2026-09-14";
const NOW = `${DATE}T10:00:00Z`;
/** The country whose input changes for the refresh. */
const CHANGED = "de";
/** Issue 24's goals for the shadow bootstrap into an empty store. */
const BOOTSTRAP_REQUESTS = 1000;
const BOOTSTRAP_SECONDS = 15;

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

/**
 * The shadow bootstrap alone: the shadow state (head, parts, journal, dead letters, master features) deleted
 * directly on the server, then the shadow step through the counting proxy, as a publish runs it after its version
 * is live.
 */
async function bootstrap(
  proxy: FaultProxy,
  serverEndpoint: string,
): Promise<Pass & { shadow: Record<string, unknown> }> {
  const options = { endpoint: serverEndpoint, region: REGION, credentials: CREDENTIALS };
  const direct = new S3Store("s3://bench/europe", options);
  for (const prefix of [MASTER_PREFIX, PARTS_PREFIX, JOURNAL_PREFIX, DEAD_PREFIX])
    for (const key of await direct.list(prefix)) await direct.delete(key);
  for (const key of [SHADOW_MANIFEST_KEY, BOOTSTRAP_KEY]) await direct.delete(key);
  let shadow: Record<string, unknown> = {};
  const log: Logger = {
    info: (message, fields) => {
      if (message === "shadow") shadow = fields ?? {};
    },
    warn: (message, fields) => {
      throw new Error(`shadow step: ${message} ${JSON.stringify(fields)}`);
    },
    progress: () => {},
  };
  const store = new S3Store("s3://bench/europe", { ...options, endpoint: proxy.endpoint });
  proxy.reset();
  const t0 = performance.now();
  // the clock of a run at NOW, as the publish's own shadow step has it
  await followShadow(store, log, () => Date.parse(NOW) + performance.now() - t0);
  return { ...tally(proxy.seen, (performance.now() - t0) / 1000), shadow };
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
  const log = path.join(OUT, "s3rver.log");
  const server = await startS3rver("bench", log);
  console.log(`s3rver's log: ${path.relative(ROOT, log)}`);
  const proxy = await new FaultProxy(server.endpoint).start();
  try {
    const first = await publish(proxy, input, dynamic);
    const unchanged = await publish(proxy, input, dynamic);
    change();
    const refresh = await publish(proxy, input, dynamic);
    const share = refresh.uploadedBytes / first.uploadedBytes;
    const boot = await bootstrap(proxy, server.endpoint);
    const bootMissed = boot.requests.total! > BOOTSTRAP_REQUESTS || boot.seconds > BOOTSTRAP_SECONDS;
    const result = {
      input: { airspaces: g.features, vertices: g.vertices, countries: g.files.length, changed: CHANGED.toUpperCase() },
      first,
      unchanged,
      refresh,
      refreshShareOfFirst: +share.toFixed(4),
      goal: "refresh uploads < 10 % of the first publish's bytes",
      bootstrap: boot,
      bootstrapGoal: `shadow bootstrap ≤ ${BOOTSTRAP_REQUESTS} requests, ≤ ${BOOTSTRAP_SECONDS} s`,
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
    console.log(line("bootstrap", boot));
    console.log(
      `shadow bootstrap: ${boot.shadow.countriesRead} countries read, ${boot.shadow.enqueued} master features loaded, ` +
        `status ${boot.shadow.status} (goal ≤ ${BOOTSTRAP_REQUESTS} requests, ≤ ${BOOTSTRAP_SECONDS} s)`,
    );
    if (share >= 0.1 || bootMissed) process.exitCode = 1;
  } finally {
    await proxy.close();
    await server.close();
  }
}

await run();
