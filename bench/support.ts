// What the benchmarks (and the tests that start real parts) share: where the project and the shared corpus
// are, a free loopback port, the origin in a process of its own, Debian's headless Chromium, and an in-memory Io
// for running the CLI in-process; the watch benchmarks' clocks and child-process readers.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import type { Io } from "../jobs/io.js";

/** Node's flags as the command runs (the first line of jobs/cli.ts; test/cli/node-flags.test.ts keeps them one). */
export const CLI_NODE_FLAGS = ["--max-semi-space-size=16"];

/** The project folder (this file runs from bench/ or dist/bench/). */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
})();
export const SHARED = process.env.SHARED_DATA ?? path.resolve(ROOT, "..", "shared", "data");

/** True (and the exit code set, the reason printed) when the real openAIP exports the generator needs are absent. */
export function sharedAirspaceMissing(bench: string): boolean {
  if (existsSync(path.join(SHARED, "airspace"))) return false;
  console.error(
    `bench ${bench}: ${SHARED}/airspace is absent; the generator needs the real openAIP exports (set SHARED_DATA)`,
  );
  process.exitCode = 1;
  return true;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * The built CLI's `serve` in a process of its own, as in production, on a free port; resolves once it listens.
 * Its log (stderr: "serving", "map form ready", warnings) goes to the file `log`, which one line names, never to this
 * process's output; its access log to `accessLog` (a file descriptor, or nowhere); `more` are further `serve` flags.
 */
export async function spawnOrigin(
  store: string,
  tokens: string,
  o: { log: string; accessLog?: number | "ignore"; more?: readonly string[] },
): Promise<{ url: string; logged(pattern: RegExp): Promise<string>; close(): Promise<void> }> {
  const cli = path.join(ROOT, "dist", "jobs", "cli.js");
  const args = [cli, "serve", "--store", store, "--tokens", tokens, "--port", "0", ...(o.more ?? [])];
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, ...args], {
    stdio: ["ignore", o.accessLog ?? "ignore", "pipe"],
  });
  const file = createWriteStream(o.log);
  console.log(`origin's log: ${path.relative(ROOT, o.log)}`);
  const stderr = child.stderr;
  if (!stderr) throw new Error("the origin's stderr is not piped");
  stderr.pipe(file);
  let err = "";
  stderr.on("data", (chunk: Buffer) => {
    err += chunk;
  });
  /** The first line of the origin's log that matches, once it is written. */
  const logged = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const line = err.split("\n").find((l) => pattern.test(l));
        if (line === undefined) return false;
        stderr.off("data", look);
        resolve(line);
        return true;
      };
      if (look()) return;
      stderr.on("data", look);
      child.once("exit", (code) => reject(new Error(`the origin exited (${code}): ${err}`)));
    });
  const url = await new Promise<string>((resolve, reject) => {
    stderr.on("data", () => {
      const listening = /"url":"([^"]+)"/.exec(err);
      if (listening) resolve(listening[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the origin exited (${code}): ${err}`)));
  });
  return {
    url,
    logged,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Debian's Chromium, headless, with the flags this machine needs (docs/design.md §7). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });

/** The same with WebGL 2 in software (SwiftShader through ANGLE), for MapLibre GL (issue 60). */
export const WEBGL_CHROMIUM_ARGS = [
  ...CHROMIUM_ARGS.filter((a) => a !== "--disable-gpu"),
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
];

export const launchWebGlChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: "/usr/bin/chromium", args: WEBGL_CHROMIUM_ARGS });

/** An Io whose standard output goes to `onOut` and standard error nowhere; the real clock. */
export function captureIo(onOut: (s: string) => void = () => {}): Io {
  const sink = (f: (s: string) => void) =>
    ({
      write: (s: string) => {
        f(String(s));
        return true;
      },
    }) as unknown as NodeJS.WriteStream;
  return { stdout: sink(onOut), stderr: sink(() => {}), stdinStream: () => process.stdin, now: () => Date.now() };
}

/** A child's user + system CPU so far, seconds (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A process's resident memory now and at its peak, MiB (Linux: /proc/<pid>/status). */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kib("VmRSS") / 1024), peak: Math.round(kib("VmHWM") / 1024) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1]!;

/** Calls `each` with every line the child writes on stderr. */
export function lines(child: ChildProcess, each: (line: string) => unknown): void {
  let rest = "";
  child.stderr!.on("data", (d: Buffer) => {
    const parts = (rest + String(d)).split("\n");
    rest = parts.pop() ?? "";
    for (const l of parts) each(l);
  });
}

/** Waits until `what` holds, asking every 50 ms; throws after `ms`. */
export async function until(what: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`bench: not within ${ms} ms`);
    await sleep(50);
  }
}

/** What the benchmarks read of a watcher's JSON log lines. */
export interface WatchLine {
  time: string;
  msg: string;
  version?: string;
  because?: string;
  /** A publication's sources that changed (comma-separated names). */
  sourcesChanged?: string;
}

/**
 * `watch` in its own process on `config` into `store`, on the clock `clock`: its log kept in `<out>/watcher.log`
 * (named in one line, never printed) and its JSON lines collected in `logs` as they come.
 */
export function spawnWatcher(o: { config: string; store: string; clock: string; out: string }): {
  child: ChildProcess;
  logs: WatchLine[];
} {
  const cli = path.join(ROOT, "dist", "jobs", "cli.js");
  const args = [cli, "watch", "--config", o.config, "--store", o.store, "--metrics-port", "0", "--clock", o.clock];
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const file = path.join(o.out, "watcher.log");
  child.stderr!.pipe(createWriteStream(file));
  console.log(`watcher's log: ${path.relative(ROOT, file)}`);
  const logs: WatchLine[] = [];
  lines(child, (l) => l.startsWith("{") && logs.push(JSON.parse(l)));
  return { child, logs };
}

/** A store's day pointer moved to `version` (as a replay left it), and today's too unless it is tomorrow's. */
export function movePointers(store: string, version: string, today = true): void {
  const m = JSON.parse(readFileSync(path.join(store, "v1", "versions", `${version}.json`), "utf8"));
  const pointer = JSON.stringify({
    schema: 1,
    version,
    manifest: `v1/versions/${version}.json`,
    publishedAt: m.publishedAt,
  });
  if (today) writeFileSync(path.join(store, "v1", "current.json"), pointer);
  writeFileSync(path.join(store, "v1", "days", m.date, "current.json"), pointer);
}

/** The corpus's hourly UK weekend (74 PIBs of 14–16 June 2024) and the YAIXM airspace it is replayed on. */
export const HOURLY_WEEKEND = path.join(SHARED, "notam", "uk_pib_hourly_2024-06-14");
export const WEEKEND_AIRSPACE = ["gb_airspace_2024-09.yaml", "gb_service_2024-09.yaml"].map((f) =>
  path.join(SHARED, "airspace", "yaixm", f),
);
