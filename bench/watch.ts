// `make bench` (watch part): from a source's change to the new version live. A loopback HTTP server serves the UK
// airspace (YAIXM 2024-09) and one hourly UK PIB of 14–16 June 2024 at a time (../shared/data), its `Issued` moved
// to the moment it is served so that it counts as fresh; at random moments it switches to the next one, and answers
// conditional GETs. `watch` polls it every 5 s; `serve` re-reads the pointers every second. Per switch it measures
// the detection (switch → the watcher starts publishing), the publication (→ pointers switched) and the origin
// (→ `X-Data-Version` answers the new version); then a quiet minute: the watcher's CPU, requests and data objects.
// Goals (issue 44): detection + publication ≤ 10 s at p95; quiet: ≤ 1 % of one core, one request per source and
// interval, no data object. Writes bench/out/watch.json.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { ROOT, SHARED } from "./support.js";

const HOURLY = path.join(SHARED, "notam", "uk_pib_hourly_2024-06-14");
const OUT = path.join(ROOT, "bench", "out", "watch");
const CLI = path.join(ROOT, "dist", "jobs", "cli.js");
const SWITCHES = Number(process.env.BENCH_WATCH_SWITCHES ?? 24);
const POLL_SECONDS = 5;
/** The quiet span measured (`BENCH_WATCH_QUIET_SECONDS=3600` for the whole hour of the goal). */
const QUIET_SECONDS = Number(process.env.BENCH_WATCH_QUIET_SECONDS ?? 60);
const GOAL_P95_S = 10;
const GOAL_QUIET_CPU = 0.01;

interface Switch {
  detectS: number;
  publishS: number;
  liveS: number;
}

/** A PIB as if issued now: its `Issued` moved to the moment it is served. */
const issuedNow = (file: string) =>
  gzipSync(
    gunzipSync(readFileSync(file))
      .toString("utf8")
      .replace(/<Issued>[^<]*<\/Issued>/, `<Issued>${new Date().toISOString().slice(0, 19)}+00:00</Issued>`),
  );

/** A child's user + system CPU so far, seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1]!;

async function run(): Promise<void> {
  if (!existsSync(HOURLY)) {
    console.error(`bench watch: ${HOURLY} is absent (the hourly UK PIBs); set SHARED_DATA`);
    process.exitCode = 1;
    return;
  }
  const pibs = readdirSync(HOURLY)
    .filter((f) => f.endsWith(".xml.gz"))
    .sort()
    .map((f) => path.join(HOURLY, f));
  const files: Record<string, Buffer> = {
    "/gb_airspace.yaml": readFileSync(path.join(SHARED, "airspace", "yaixm", "gb_airspace_2024-09.yaml")),
    "/gb_service.yaml": readFileSync(path.join(SHARED, "airspace", "yaixm", "gb_service_2024-09.yaml")),
    "/pib.xml.gz": issuedNow(pibs[0]!),
  };
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const body = files[new URL(req.url ?? "/", "http://x").pathname];
    if (!body) return void res.writeHead(404).end();
    const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
    if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { "content-length": body.length, etag }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const store = path.join(OUT, "store");
  const config = path.join(OUT, "sources.json");
  const sources = [
    { name: "gb-yaixm", kind: "airspace", url: `${base}/gb_airspace.yaml`, country: "GB", maxAgeMinutes: 1e6 },
    { name: "gb-services", kind: "airspace", url: `${base}/gb_service.yaml`, country: "GB", maxAgeMinutes: 1e6 },
    { name: "uk-pib", kind: "notam", url: `${base}/pib.xml.gz`, pollSeconds: POLL_SECONDS },
  ];
  writeFileSync(config, JSON.stringify({ schema: 1, sources }));
  const tokens = path.join(OUT, "tokens.json");
  const token = execFileSync(process.execPath, [CLI, "tokens", "create", "--tokens", tokens, "--scope", "dynamic"], {
    encoding: "utf8",
  }).trim();

  const logs: Array<{ time: string; msg: string; version?: string }> = [];
  const watcher = spawn(process.execPath, [CLI, "watch", "--config", config, "--store", store, "--metrics-port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  lines(watcher, (l) => l.startsWith("{") && logs.push(JSON.parse(l)));
  const done = () => logs.filter((l) => l.msg === "publication done");
  await until(() => done().length >= 1, 180_000);
  const origin = spawn(
    process.execPath,
    [CLI, "serve", "--store", store, "--tokens", tokens, "--port", "0", "--refresh-seconds", "1"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let originUrl = "";
  lines(origin, (l) => {
    const m = /"url":"(http:[^"]+)"/.exec(l);
    if (m) originUrl = m[1]!;
  });
  await until(() => originUrl !== "", 60_000);
  const liveVersion = async () =>
    (
      await fetch(`${originUrl}/v1/data/airspaces?countries=GB`, {
        method: "HEAD",
        headers: { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" },
      })
    ).headers.get("x-data-version");

  const measured: Switch[] = [];
  try {
    for (let k = 1; k <= SWITCHES; k++) {
      await sleep(4_000 + Math.random() * 6_000);
      const before = done().length;
      const t0 = Date.now();
      files["/pib.xml.gz"] = issuedNow(pibs[k % pibs.length]!);
      await until(() => done().length > before, 120_000);
      const end = done()[before]!;
      const start = logs.filter((l) => l.msg === "publishing" && Date.parse(l.time) <= Date.parse(end.time)).at(-1)!;
      await until(async () => (await liveVersion()) === end.version, 60_000);
      const live = Date.now();
      const s: Switch = {
        detectS: Math.max(0, Date.parse(start.time) - t0) / 1000,
        publishS: (Date.parse(end.time) - Math.max(t0, Date.parse(start.time))) / 1000,
        liveS: (live - t0) / 1000,
      };
      measured.push(s);
      console.log(
        `switch ${String(k).padStart(2)}: detected ${s.detectS.toFixed(2)} s, published ${s.publishS.toFixed(2)} s later, ` +
          `live at the origin ${s.liveS.toFixed(2)} s after the switch`,
      );
    }
    // a quiet span: nothing changes
    await sleep(POLL_SECONDS * 1_000);
    const objects = () => readdirSync(path.join(store, "v1", "objects")).length;
    const [cpu0, req0, obj0, pubs0] = [cpuSeconds(watcher.pid!), requests, objects(), done().length];
    await sleep(QUIET_SECONDS * 1_000);
    const quiet = {
      cpuShare: (cpuSeconds(watcher.pid!) - cpu0) / QUIET_SECONDS,
      requestsPerHour: ((requests - req0) * 3_600) / QUIET_SECONDS,
      dataObjects: objects() - obj0,
      publications: done().length - pubs0,
    };
    report(measured, quiet);
  } finally {
    watcher.kill("SIGTERM");
    origin.kill("SIGTERM");
    server.closeAllConnections();
    server.close();
  }
}

function report(
  measured: readonly Switch[],
  quiet: { cpuShare: number; requestsPerHour: number; dataObjects: number; publications: number },
): void {
  const total = measured.map((s) => s.detectS + s.publishS);
  const live = measured.map((s) => s.liveS);
  const waitShare = measured.reduce((n, s) => n + s.detectS, 0) / total.reduce((n, t) => n + t, 0);
  const expectedPerHour = 3_600 / POLL_SECONDS; // the PIB; the airspace files are asked hourly
  const result = {
    switches: measured.length,
    pollSeconds: POLL_SECONDS,
    detectionPlusPublication: { p50: +quantile(total, 0.5).toFixed(2), p95: +quantile(total, 0.95).toFixed(2) },
    liveAtOrigin: { p50: +quantile(live, 0.5).toFixed(2), p95: +quantile(live, 0.95).toFixed(2) },
    waitingForThePollShare: +waitShare.toFixed(2),
    quiet: { ...quiet, cpuShare: +quiet.cpuShare.toFixed(4), requestsPerHour: Math.round(quiet.requestsPerHour) },
    goals: { p95: `≤ ${GOAL_P95_S} s`, quietCpu: `≤ ${GOAL_QUIET_CPU * 100} %`, quietDataObjects: 0 },
  };
  writeFileSync(path.join(ROOT, "bench", "out", "watch.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `detection + publication over ${measured.length} switches: p50 ${result.detectionPlusPublication.p50} s, ` +
      `p95 ${result.detectionPlusPublication.p95} s (goal ≤ ${GOAL_P95_S} s); waiting for the poll ${(waitShare * 100).toFixed(0)} % of it`,
  );
  console.log(
    `live at the origin (it re-reads pointers every second): p50 ${result.liveAtOrigin.p50} s, p95 ${result.liveAtOrigin.p95} s`,
  );
  console.log(
    `quiet for ${QUIET_SECONDS} s: CPU ${(quiet.cpuShare * 100).toFixed(2)} % of one core (goal ≤ ${GOAL_QUIET_CPU * 100} %), ` +
      `${result.quiet.requestsPerHour} requests per hour (the PIB every ${POLL_SECONDS} s: ${expectedPerHour}), ` +
      `${quiet.dataObjects} data objects, ${quiet.publications} publications`,
  );
  const met =
    result.detectionPlusPublication.p95 <= GOAL_P95_S && quiet.cpuShare <= GOAL_QUIET_CPU && quiet.dataObjects === 0;
  if (!met) {
    console.log("watch: MISSED its goal");
    process.exitCode = 1;
  }
}

/** Calls `each` with every line the child writes on stderr. */
function lines(child: ChildProcess, each: (line: string) => unknown): void {
  let rest = "";
  child.stderr!.on("data", (d: Buffer) => {
    const parts = (rest + String(d)).split("\n");
    rest = parts.pop() ?? "";
    for (const l of parts) each(l);
  });
}

async function until(what: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`bench watch: not within ${ms} ms`);
    await sleep(50);
  }
}

await run();
