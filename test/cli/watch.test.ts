// `watch` as operators run it: the built CLI in its own process against a real HTTP server on loopback serving the
// real UK files of fixtures/uk with ETag (conditional GETs), a NOTAM poll interval of one second, with --tiles. It
// publishes once at start, writes nothing while no source changes, publishes a briefing that changed (its vector
// tiles patched from the last version's), and exits 0 on SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delayOf } from "../../jobs/commands/watch.js";
import { utcDay } from "../../src/model/time.js";
import { readEurope } from "../../src/publish/read-back.js";
import type { RunReport } from "../../src/report.js";
import { LocalStore } from "../../src/store/local-store.js";
import { checkArchive } from "../../src/tiles/check.js";
import { openArchive } from "../../src/tiles/read-back.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";
import { manifestOf } from "./watchers.js";

const UK = path.join(FIXTURES, "uk");
const PIB = gunzipSync(readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz"))).toString("utf8");
/** The briefing as the next hour's issue: the same NOTAMs, another `Issued`. */
const nextHour = gzipSync(PIB.replace(/<Issued>[^<]*<\/Issued>/, "<Issued>2026-08-22T12:00:15+00:00</Issued>"));
const FILES: Record<string, Buffer> = {
  "/gb_airspace.yaml": readFileSync(path.join(UK, "gb_airspace_2026-06.yaml")),
  "/gb_service.yaml": readFileSync(path.join(UK, "gb_service_2026-06.yaml")),
  "/pib.xml.gz": readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz")),
};
const requests: Array<{ path: string; conditional: boolean; status: number }> = [];

let server: Server;
let watcher: ChildProcess;
let out = "";
const store = tempDir("watch-store-");
const report = path.join(tempDir("watch-report-"), "report.json");
/** The metrics server's base URL, as the watcher prints it. */
const metricsBase = () => /^metrics (\S+)\/metrics/m.exec(out)?.[1] ?? "";

const published = () => out.split("\n").filter((l) => l.startsWith("published "));
const objects = () => readdirSync(path.join(store, "v1", "objects")).length;

async function until(what: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms; watcher said:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    const body = FILES[p];
    const etag = body && `"${body.length}-${body.subarray(-16).toString("hex")}"`;
    const conditional = req.headers["if-none-match"] !== undefined;
    const status = !body ? 404 : req.headers["if-none-match"] === etag ? 304 : 200;
    requests.push({ path: p, conditional, status });
    if (status !== 200) return void res.writeHead(status, etag ? { etag } : {}).end();
    res.writeHead(200, { "content-length": body!.length, etag }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = path.join(tempDir("watch-cfg-"), "sources.json");
  const sources = [
    { name: "gb-yaixm", kind: "airspace", url: `${base}/gb_airspace.yaml`, country: "GB", maxAgeMinutes: 1e6 },
    { name: "gb-services", kind: "airspace", url: `${base}/gb_service.yaml`, country: "GB", maxAgeMinutes: 1e6 },
    { name: "uk-pib", kind: "notam", url: `${base}/pib.xml.gz`, pollSeconds: 1, maxAgeMinutes: 1e6 },
  ];
  writeFileSync(config, JSON.stringify({ schema: 1, sources }));
  watcher = spawn(
    process.execPath,
    [
      ...[path.join(ROOT, "dist", "jobs", "cli.js"), "watch", "--config", config, "--store", store, "--quiet"],
      ...["--report", report, "--metrics-port", "0", "--tiles"],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const said = (d: Buffer) => {
    out += String(d);
  };
  watcher.stdout!.on("data", said);
  watcher.stderr!.on("data", said);
  await until(() => published().length === 1, 60_000);
}, 90_000);

afterAll(async () => {
  watcher?.kill("SIGKILL");
  server?.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("watch", () => {
  it("writes no data object while no source changes, and asks the briefing once a second, conditionally", async () => {
    const before = { objects: objects(), asked: requests.filter((r) => r.path === "/pib.xml.gz").length };
    await new Promise((r) => setTimeout(r, 3_500));
    const asked = requests.filter((r) => r.path === "/pib.xml.gz").slice(before.asked);
    expect(published()).toHaveLength(1);
    expect(objects()).toBe(before.objects);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThanOrEqual(5);
    expect(asked.every((r) => r.conditional && r.status === 304)).toBe(true);
    // the airspace (an hour's interval) was asked for once
    expect(requests.filter((r) => r.path === "/gb_airspace.yaml")).toHaveLength(1);
  }, 30_000);

  it("publishes a briefing that changed, within seconds", async () => {
    const first = published()[0]!.split(" ")[1]!;
    FILES["/pib.xml.gz"] = nextHour;
    const switched = Date.now();
    await until(() => published().length === 2, 20_000);
    expect(Date.now() - switched).toBeLessThan(15_000);
    const second = published()[1]!.split(" ")[1]!;
    expect(second).not.toBe(first);
    const pointer = JSON.parse(readFileSync(path.join(store, "v1", "current.json"), "utf8"));
    expect(pointer.version).toBe(second.replace(/:$/, ""));
    // --tiles: each version with its archive, the second one patched from the first and held to its features
    const local = new LocalStore(store);
    const [m1, m2] = [first, second].map((v) => manifestOf(store, v.replace(/:$/, "")));
    expect(m1!.tiles).toBeDefined();
    expect(m2!.tiles!.rewritten).toBeDefined();
    const archive = await openArchive((await local.get(m2!.tiles!.key))!);
    const features = (await readEurope(local, m2!)).features;
    const r = await checkArchive(archive, features, utcDay(m2!.date)!);
    expect([r.missing, r.extra, r.properties, r.farther]).toEqual([[], [], [], []]);
    expect(features.length).toBeGreaterThan(100);
  }, 30_000);

  it("serves Prometheus text metrics that agree with the run report, and a health answer", async () => {
    await new Promise((r) => setTimeout(r, 1_500)); // a poll after the switch: the briefing answers 304 again
    const text = await (await fetch(`${metricsBase()}/metrics`)).text();
    const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
    const r = JSON.parse(readFileSync(report, "utf8")) as RunReport;
    const info = families.get("asp_last_publication_info")!.metrics;
    expect(info).toEqual([{ labels: { version: r.version, date: r.date }, value: "1" }]);
    expect(Number(families.get("asp_publications_total")!.metrics[0]!.value)).toBe(published().length);
    const last = Number(families.get("asp_last_publication_timestamp_seconds")!.metrics[0]!.value);
    expect(Math.abs(last * 1000 - Date.now())).toBeLessThan(60_000);
    // the briefing's age from its as-of time as the report states it
    const pibAge = families.get("asp_source_age_seconds")!.metrics.find((m) => m.labels?.source === "uk-pib")!;
    const asOf = r.sourceStates.notam[0]!.asOf!;
    expect(Math.abs(Number(pibAge.value) - (Date.now() - asOf) / 1000)).toBeLessThan(30);
    const lastFetch = families.get("asp_source_last_fetch")!.metrics.filter((m) => m.labels?.source === "uk-pib");
    expect(lastFetch).toEqual([{ labels: { source: "uk-pib", result: "notModified" }, value: "1" }]);
    const duration = families.get("asp_publish_duration_seconds")!;
    expect(duration.type).toBe("HISTOGRAM");
    expect(Number(duration.metrics[0]!.count)).toBe(published().length);
    const health = await fetch(`${metricsBase()}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
  }, 30_000);

  it("exits 0 on SIGTERM", async () => {
    const exited = new Promise<number | null>((r) => watcher.once("exit", (code) => r(code)));
    watcher.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 30_000);
});

describe("watch's backoff after failures", () => {
  /** The range of waits after `failures` failures, over many draws of the jitter. */
  const range = (pollMs: number, failures: number) => {
    const waits = Array.from({ length: 500 }, () => delayOf(pollMs, failures));
    return [Math.min(...waits), Math.max(...waits)] as const;
  };

  it("asks on the interval while the source answers, then doubles the wait per failure with jitter", () => {
    expect(range(60_000, 0)).toEqual([60_000, 60_000]);
    const [lo1, hi1] = range(60_000, 1);
    expect(lo1).toBeGreaterThanOrEqual(60_000);
    expect(hi1).toBeLessThanOrEqual(120_000);
    expect(hi1 - lo1).toBeGreaterThan(10_000); // jittered, not one fixed wait
    const [lo3, hi3] = range(60_000, 3);
    expect([lo3 >= 240_000, hi3 <= 480_000]).toEqual([true, true]);
  });

  it("waits at most ten intervals and at most ten minutes, never less than half the interval", () => {
    expect(range(60_000, 30)[1]).toBeLessThanOrEqual(600_000);
    expect(range(60_000, 30)[0]).toBeGreaterThanOrEqual(300_000);
    expect(range(1_000, 30)[1]).toBeLessThanOrEqual(10_000);
    // an hourly airspace source is not asked less often than hourly because it failed
    expect(range(3_600_000, 5)[1]).toBeLessThanOrEqual(3_600_000);
    expect(range(3_600_000, 5)[0]).toBeGreaterThanOrEqual(1_800_000);
  });
});
