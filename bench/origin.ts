// `make bench` (origin part): the /v1 origin against nginx serving precomputed `.geojson.gz` files with the
// same headers, in the same run, measured with wrk from Debian. Europe-scale input (40 countries × 500
// airspaces) published into a local store; the origin runs as its own process (`serve`, one Node process) and
// nginx with one worker, so each side has one core and wrk the other. Writes bench/out/origin.json.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { main } from "../jobs/cli.js";
import { generate } from "./generate.js";
import { captureIo, freePort, ROOT, SHARED, sharedAirspaceMissing, spawnOrigin } from "./support.js";

const OUT = path.join(ROOT, "bench", "out", "origin");
const DATE = "2026-09-14";
const SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 10);
const CONNECTIONS = 32;
const ONE = "DE";
const FIVE = "AT,CH,DE,FR,IT";

interface Wrk {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  transferMbPerSecond: number;
}

function wrk(url: string, headers: Record<string, string>): Wrk {
  const args = ["-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
  const out = execFileSync("wrk", [...args, url], { encoding: "utf8" });
  const ms = (label: string) => {
    const m = new RegExp(`^\\s*${label}\\s+([0-9.]+)(us|ms|s)\\s*$`, "m").exec(out);
    if (!m) throw new Error(`wrk: no ${label} latency in\n${out}`);
    return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
  };
  const transfer = /Transfer\/sec:\s+([0-9.]+)(KB|MB|GB)/.exec(out)!;
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([0-9.]+)/.exec(out)![1]),
    p50Ms: ms("50%"),
    p99Ms: ms("99%"),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    transferMbPerSecond: Number(transfer[1]) * (transfer[2] === "KB" ? 1 / 1024 : transfer[2] === "GB" ? 1024 : 1),
  };
}

async function until(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) =>
      http.get(url, (r) => resolve(r.resume() && true)).on("error", () => resolve(false)),
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** The origin's exact answer (gzip) and headers, to give nginx the same file. */
function fetchRaw(url: string, token: string): Promise<{ body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ body: Buffer.concat(chunks), headers: res.headers }));
      })
      .on("error", reject);
  });
}

function nginxConf(dir: string, port: number, files: Record<string, http.IncomingHttpHeaders>): string {
  const locations = Object.entries(files)
    .map(
      ([name, h]) => `
    location = /${name} {
      default_type application/geo+json;
      add_header Content-Encoding gzip;
      add_header Cache-Control "${h["cache-control"]}";
      add_header Vary Accept-Encoding;
      add_header X-Data-Version ${h["x-data-version"]};
      alias ${path.join(dir, `${name}.geojson.gz`)};
    }`,
    )
    .join("");
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  sendfile on; tcp_nopush on; keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};${locations}
  }
}
`;
}

async function run(): Promise<void> {
  if (sharedAirspaceMissing("origin")) return;
  for (const bin of ["wrk", "nginx"]) {
    if (!existsSync(`/usr/bin/${bin}`) && !existsSync(`/usr/sbin/${bin}`)) {
      console.error(`bench origin: ${bin} is not installed (make system-deps)`);
      process.exitCode = 1;
      return;
    }
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const input = path.join(OUT, "input");
  const store = path.join(OUT, "store");
  const g = generate(SHARED, input);
  const io = captureIo();
  if ((await main(["publish", "--airspaces", input, "--date", DATE, "--store", store, "--quiet"], io)) !== 0) {
    throw new Error("publish failed");
  }
  const tokens = path.join(OUT, "tokens.json");
  let token = "";
  await main(
    ["tokens", "create", "--tokens", tokens, "--scope", "dynamic"],
    captureIo((s) => {
      token += s;
    }),
  );
  token = token.trim();

  const nginxPort = await freePort();
  const served = await spawnOrigin(store, tokens, {
    log: path.join(OUT, "origin.log"),
    accessLog: openSync(path.join(OUT, "origin-access.log"), "w"),
  });
  let nginxProcess: ChildProcess | undefined;
  try {
    const origin = served.url;
    // the origin makes the map form of a new version once, beside its serving (6-10 s of one core at this scale):
    // measured after it, as a scheduled version is served most of its 15 minutes
    const ready = JSON.parse(await served.logged(/"msg":"map form ready"/)) as { ms: number };
    const files: Record<string, http.IncomingHttpHeaders> = {};
    const sizes: Record<string, number> = {};
    for (const [name, countries] of [
      ["one", ONE],
      ["five", FIVE],
    ] as const) {
      const { body, headers } = await fetchRaw(`${origin}/v1/data/airspaces?countries=${countries}`, token);
      if (headers["content-encoding"] !== "gzip") throw new Error(`origin answered ${countries} without gzip`);
      writeFileSync(path.join(OUT, `${name}.geojson.gz`), body);
      files[name] = headers;
      sizes[name] = body.length;
    }
    writeFileSync(path.join(OUT, "nginx.conf"), nginxConf(OUT, nginxPort, files));
    const nginxLog = openSync(path.join(OUT, "nginx.log"), "w");
    console.log(`nginx's log: ${path.relative(ROOT, path.join(OUT, "nginx.log"))}`);
    nginxProcess = spawn("nginx", ["-c", path.join(OUT, "nginx.conf")], { stdio: ["ignore", nginxLog, nginxLog] });
    const nginx = `http://127.0.0.1:${nginxPort}`;
    await until(`${nginx}/one`);

    const headers = { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" };
    const result = {
      input: { airspaces: g.features, countries: g.files.length },
      wrk: { seconds: SECONDS, connections: CONNECTIONS, threads: 1 },
      mapFormMs: ready.ms,
      one: {
        countries: ONE,
        gzBytes: sizes.one,
        origin: wrk(`${origin}/v1/data/airspaces?countries=${ONE}`, headers),
        nginx: wrk(`${nginx}/one`, headers),
      },
      five: {
        countries: FIVE,
        gzBytes: sizes.five,
        origin: wrk(`${origin}/v1/data/airspaces?countries=${FIVE}`, headers),
        nginx: wrk(`${nginx}/five`, headers),
      },
      goals: { one: "origin ≥ 1/2 of nginx's requests/s", five: "origin ≥ 1/3 of nginx's requests/s" },
    };
    writeFileSync(path.join(OUT, "..", "origin.json"), `${JSON.stringify(result, null, 2)}\n`);
    const row = (label: string, w: Wrk) =>
      `${label.padEnd(22)} ${w.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${w.p50Ms.toFixed(2)} ms  p99 ${w.p99Ms.toFixed(2)} ms  ${w.transferMbPerSecond.toFixed(0)} MB/s${w.non2xx ? `  non-2xx ${w.non2xx}` : ""}`;
    console.log(`origin: the map form made in ${(ready.ms / 1000).toFixed(2)} s before the measurements`);
    console.log(`origin vs nginx (wrk ${SECONDS} s, ${CONNECTIONS} connections, gzip; ${g.features} airspaces)`);
    for (const k of ["one", "five"] as const) {
      const r = result[k];
      const ratio = r.origin.requestsPerSecond / r.nginx.requestsPerSecond;
      console.log(row(`origin ${r.countries} (${((r.gzBytes ?? 0) / 1024).toFixed(0)} KiB)`, r.origin));
      console.log(row("nginx, same file", r.nginx));
      const goal = k === "one" ? 0.5 : 1 / 3;
      const met = ratio >= goal && r.origin.non2xx === 0;
      console.log(`  ratio ${ratio.toFixed(2)} (goal ≥ ${goal.toFixed(2)}: ${met ? "met" : "missed"})`);
      if (!met) process.exitCode = 1;
    }
    const lines = readFileSync(path.join(OUT, "origin-access.log"), "utf8").split("\n").length;
    console.log(`(origin access log: ${lines - 1} lines)`);
  } finally {
    nginxProcess?.kill();
    await served.close();
  }
}

await run();
