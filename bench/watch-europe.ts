// `make bench` (watch-europe part): `watch` at Europe scale (issue 50). A loopback HTTP server serves the Europe-scale
// airspace of 40 countries (20 000 airspaces, bench/generate.ts; the publish part's bench/out/input when there) and
// 40 000 NOTAMs (the real corpus of ../shared/data/notam moved to the day, bench/generate-dynamic.ts) as one JSON-lines
// feed; at random moments it changes one NOTAM of one state (its Item E gains a word): one that the state's published
// collection carries, each switch another state (GB, IE, DE, CH, FR, PL, AT, DK, NL, NO in turn, those with one). `watch` polls the feed every 5 s on the day's clock. Per switch:
// detection (switch → the watcher starts publishing) and publication (→ pointers switched), and the watcher's CPU;
// beside them the first publication's wall time and CPU, so a changed NOTAM's cost reads as a share of a first publish.
// Goal: detection + publication ≤ 15 s at p95. Writes bench/out/watch-europe.json.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { countryOfIcao } from "../src/geo/icao-prefixes.js";
import { generate } from "./generate.js";
import { generateNotams } from "./generate-dynamic.js";
import { cpuSeconds, memoryMiB, quantile, ROOT, SHARED, sleep, spawnWatcher, until } from "./support.js";

const OUT = path.join(ROOT, "bench", "out", "watch-europe");
const DAY = "2026-09-14";
const SWITCHES = Number(process.env.BENCH_WATCH_SWITCHES ?? 12);
const POLL_SECONDS = 5;
const GOAL_P95_S = 15;
/** The states whose NOTAMs a switch changes, in turn (those of the corpus with the most NOTAMs). */
const STATES = ["GB", "IE", "DE", "CH", "FR", "PL", "AT", "DK", "NL", "NO"];

interface Switch {
  state: string;
  notam: string;
  detectS: number;
  publishS: number;
  cpuS: number;
  /** Whether the state's collection changed (not only the manifest's sources). */
  changed: boolean;
}

type NotamRecord = Record<string, unknown>;

/** The airspace files: the publish part's, else generated here. */
function airspaceFiles(): string[] {
  const theirs = path.join(ROOT, "bench", "out", "input");
  const dir = existsSync(theirs) && readdirSync(theirs).length >= 40 ? theirs : path.join(OUT, "input");
  if (dir !== theirs) generate(SHARED, dir);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".geojson"))
    .sort()
    .map((f) => path.join(dir, f));
}

const stateOf = (r: NotamRecord | undefined) => {
  const a = r?.itemA;
  return countryOfIcao(String(Array.isArray(a) ? a[0] : (a ?? "")));
};

async function run(): Promise<void> {
  if (!existsSync(path.join(SHARED, "notam"))) {
    console.error(`bench watch-europe: ${SHARED}/notam is absent (the NOTAM corpus); set SHARED_DATA`);
    process.exitCode = 1;
    return;
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const airspaces = airspaceFiles();
  const feed = readFileSync(generateNotams(SHARED, OUT, DAY).file, "utf8").split("\n");
  const records = feed.map((l) => (l.trim() ? (JSON.parse(l) as NotamRecord) : undefined));
  const files = new Map<string, { body: Buffer; etag: string }>();
  const serve = (at: string, body: Buffer) =>
    files.set(at, { body, etag: `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"` });
  for (const f of airspaces) serve(`/${path.basename(f)}`, readFileSync(f));
  serve("/notams.jsonl", Buffer.from(feed.join("\n")));
  const server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? "/", "http://x").pathname);
    if (!file) return void res.writeHead(404).end();
    if (req.headers["if-none-match"] === file.etag) return void res.writeHead(304, { etag: file.etag }).end();
    res.writeHead(200, { "content-length": file.body.length, etag: file.etag }).end(file.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = path.join(OUT, "store");
  const config = path.join(OUT, "sources.json");
  const sources = [
    ...airspaces.map((f) => {
      const name = path.basename(f);
      const country = name.slice(0, 2).toUpperCase();
      return { name, kind: "airspace", url: `${base}/${name}`, country, maxAgeMinutes: 1e6 };
    }),
    { name: "notams", kind: "notam", url: `${base}/notams.jsonl`, pollSeconds: POLL_SECONDS, maxAgeMinutes: 1e6 },
  ];
  writeFileSync(config, JSON.stringify({ schema: 1, sources }));
  const { child: watcher, logs } = spawnWatcher({ config, store, clock: `${DAY}T10:00:00Z`, out: OUT });
  const done = () => logs.filter((l) => l.msg === "publication done");
  const startedAt = (end: { time: string }) =>
    logs.filter((l) => l.msg === "publishing" && Date.parse(l.time) <= Date.parse(end.time)).at(-1)!;
  const manifestOf = (version: string) =>
    JSON.parse(readFileSync(path.join(store, "v1", "versions", `${version}.json`), "utf8")) as {
      countries: Record<string, { sha256: string; key: string }>;
    };
  /** The NOTAMs a state's published collection carries (drawn or linked): a change to one of them is published. */
  const publishedNotams = (version: string, cc: string): Set<string> => {
    const entry = manifestOf(version).countries[cc];
    if (!entry) return new Set();
    const text = gunzipSync(readFileSync(path.join(store, entry.key))).toString("utf8");
    return new Set([...text.matchAll(/"NotamId":"([^"]+)"/g)].map((m) => m[1]!));
  };
  try {
    await until(() => done().length >= 1, 900_000);
    const first = done()[0]!;
    const firstS = (Date.parse(first.time) - Date.parse(startedAt(first).time)) / 1000;
    const firstCpu = cpuSeconds(watcher.pid!);
    const firstMemory = memoryMiB(watcher.pid!);
    const notams = records.filter(Boolean).length;
    console.log(
      `first publication: ${firstS.toFixed(1)} s (${airspaces.length} airspace files, ${notams} NOTAMs; ` +
        `watcher CPU so far ${firstCpu.toFixed(1)} s, resident ${firstMemory.rss} MiB, peak ${firstMemory.peak} MiB)`,
    );
    let version = first.version!;
    // per state, the NOTAMs of its office that its collection carries
    const candidates = STATES.map((cc) => {
      const carried = publishedNotams(version, cc);
      const mine = records.flatMap((r, i) => (stateOf(r) === cc && carried.has(String(r?.id)) ? [i] : []));
      return { cc, mine };
    }).filter((c) => c.mine.length > 0);
    const measured: Switch[] = [];
    for (let k = 0; k < SWITCHES; k++) {
      await sleep(POLL_SECONDS * 1_000 + Math.random() * 5_000);
      const { cc: state, mine } = candidates[k % candidates.length]!;
      // one of the NOTAMs the state's collection carries: its Item E gains a word
      const i = mine[(k * 7919) % mine.length]!;
      const r = records[i]!;
      r.itemE = `${String(r.itemE)} BENCH${k}`;
      feed[i] = JSON.stringify(r);
      const before = done().length;
      const cpu0 = cpuSeconds(watcher.pid!);
      const t0 = Date.now();
      serve("/notams.jsonl", Buffer.from(feed.join("\n")));
      // the publication of the changed feed (one at a window's instant may come first: its time counts, it is not it)
      const ofFeed = () =>
        done()
          .slice(before)
          .find((d) => startedAt(d).sourcesChanged?.split(",").includes("notams"));
      await until(() => ofFeed() !== undefined, 300_000);
      const end = ofFeed()!;
      const start = startedAt(end);
      const s: Switch = {
        state,
        notam: String(r.id),
        detectS: Math.max(0, Date.parse(start.time) - t0) / 1000,
        publishS: (Date.parse(end.time) - Math.max(t0, Date.parse(start.time))) / 1000,
        cpuS: cpuSeconds(watcher.pid!) - cpu0,
        changed: manifestOf(end.version!).countries[state]?.sha256 !== manifestOf(version).countries[state]?.sha256,
      };
      version = end.version!;
      measured.push(s);
      console.log(
        `switch ${String(k + 1).padStart(2)} (${state} ${s.notam}): detected ${s.detectS.toFixed(2)} s, published ` +
          `${s.publishS.toFixed(2)} s later, watcher CPU ${s.cpuS.toFixed(2)} s${s.changed ? "" : ` (${state} collection unchanged)`}`,
      );
    }
    const memory = memoryMiB(watcher.pid!);
    console.log(`watcher's memory after the switches: resident ${memory.rss} MiB, peak ${memory.peak} MiB`);
    report(measured, { wallS: firstS, cpuS: firstCpu }, { afterFirst: firstMemory, atEnd: memory });
  } finally {
    watcher.kill("SIGTERM");
    server.closeAllConnections();
    server.close();
  }
}

type Memory = ReturnType<typeof memoryMiB>;

function report(
  measured: readonly Switch[],
  first: { wallS: number; cpuS: number },
  memoryMiB: { afterFirst: Memory; atEnd: Memory },
): void {
  const total = measured.map((s) => s.detectS + s.publishS);
  const publish = measured.map((s) => s.publishS);
  const cpu = measured.map((s) => s.cpuS);
  const result = {
    switches: measured.length,
    switchesChangingTheState: measured.filter((s) => s.changed).length,
    pollSeconds: POLL_SECONDS,
    detectionPlusPublication: { p50: +quantile(total, 0.5).toFixed(2), p95: +quantile(total, 0.95).toFixed(2) },
    firstPublication: { wallS: +first.wallS.toFixed(2), cpuS: +first.cpuS.toFixed(2) },
    changedNotam: {
      publishS: +quantile(publish, 0.5).toFixed(2),
      cpuS: +quantile(cpu, 0.5).toFixed(2),
      wallShareOfFirst: +(quantile(publish, 0.5) / first.wallS).toFixed(3),
      cpuShareOfFirst: +(quantile(cpu, 0.5) / first.cpuS).toFixed(3),
    },
    memoryMiB,
    goal: `p95 ≤ ${GOAL_P95_S} s`,
    each: measured,
  };
  writeFileSync(path.join(ROOT, "bench", "out", "watch-europe.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `detection + publication over ${measured.length} switches (${result.switchesChangingTheState} changed their state's ` +
      `collection): p50 ${result.detectionPlusPublication.p50} s, p95 ${result.detectionPlusPublication.p95} s (goal ≤ ${GOAL_P95_S} s)`,
  );
  console.log(
    `a changed NOTAM costs ${result.changedNotam.publishS} s and ${result.changedNotam.cpuS} s of CPU (medians): ` +
      `${(result.changedNotam.wallShareOfFirst * 100).toFixed(0)} % of a first publication's ${result.firstPublication.wallS} s, ` +
      `${(result.changedNotam.cpuShareOfFirst * 100).toFixed(0)} % of its ${result.firstPublication.cpuS} s of CPU`,
  );
  if (result.detectionPlusPublication.p95 > GOAL_P95_S || result.switchesChangingTheState < measured.length) {
    console.log("watch-europe: MISSED its goal");
    process.exitCode = 1;
  }
}

await run();
