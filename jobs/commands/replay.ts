// `airspace-publisher replay`: a folder of dated NOTAM snapshots published in order into one store, each as the
// scheduled job would have met it: `now` = the snapshot's as-of time (its content's, else the stamp in its name)
// plus a delay; tomorrow too from 15:00 UTC; retention at that `now`. Per run it prints what changed (from the
// change sets) and what it cost (CPU, store requests, bytes). The backtest of a rule change (docs/design.md §8).
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { isoInstant, parseInstant, type UtcDay, utcDay } from "../../src/model/time.js";
import type { RunReport } from "../../src/report.js";
import { CountingStore, type StoreCounts } from "../../src/store/counting-store.js";
import { daysToPublish, tomorrowFlag } from "../days.js";
import { readAirspaceInputs, readAupInputs, readNotamInputs } from "../inputs.js";
import { type Io, readStdin } from "../io.js";
import { createLogger } from "../log.js";
import { publishRun } from "../publish-run.js";
import { openStore } from "../store.js";
import { UsageError } from "../usage.js";
import { retentionOf } from "./publish.js";

export interface ReplayFlags {
  airspaces: string[];
  notams: string;
  aup?: string[];
  store: string;
  s3Endpoint?: string;
  delay?: string;
  tomorrow?: string;
  maxSourceAge?: string;
  retentionDays?: string;
  recordDays?: string;
  report?: string;
  quiet?: boolean;
  /** Every version with its vector tiles (docs/tiles.md): refreshes patch the earlier archive. */
  tiles?: boolean;
}

/** One run of the replay: what it published and what it cost. */
export interface ReplayRun {
  snapshot: string;
  now: string;
  versions: Array<{ date: string; version: string; features: number; gzBytes: number; changes: Changes }>;
  cpuMs: number;
  store: StoreCounts;
}

interface Changes {
  added: number;
  changed: number;
  removed: number;
  /** gzip bytes of the change sets this version wrote. */
  gzBytes: number;
}

const SNAPSHOT = /\.(xml|txt|jsonl|json)(\.gz)?$/i;

export async function replayCommand(flags: ReplayFlags, io: Io): Promise<number> {
  const delayMin = flags.delay === undefined ? 5 : Number(flags.delay);
  if (!(delayMin >= 0)) throw new UsageError(`--delay takes minutes ≥ 0, got "${flags.delay}"`);
  const tomorrow = tomorrowFlag(flags.tomorrow, "auto");
  const maxAge = flags.maxSourceAge === undefined ? undefined : Number(flags.maxSourceAge);
  if (maxAge !== undefined && !(maxAge > 0)) throw new UsageError(`--max-source-age takes minutes > 0`);
  const retention = retentionOf(flags);
  const snapshots = await listSnapshots(flags.notams);
  const store = new CountingStore(
    await openStore(flags.store, flags.s3Endpoint, (line) => io.stderr.write(`airspace-publisher: ${line}\n`)),
  );
  const log = createLogger(io.stderr, true);
  const stdin = () => readStdin(io);
  const runs: ReplayRun[] = [];
  for (const file of snapshots) {
    const bytes = await readFile(file);
    const asOf = snapshotAsOf(bytes, file);
    const now = asOf + delayMin * 60_000;
    const day = utcDay(isoInstant(now).slice(0, 10))!;
    const cpu = process.cpuUsage();
    store.take();
    const airspaces = await readAirspaceInputs(flags.airspaces, stdin, now);
    const notams = await readNotamInputs([file], stdin, now);
    const aup = flags.aup ? await readAupInputs(flags.aup, stdin, now) : undefined;
    const options = (d: UtcDay) => ({
      day: d,
      now,
      sources: { notam: [], aup: [] },
      notams,
      ...(aup ? { aup } : {}),
      ...(maxAge ? { maxSourceAgeMs: maxAge * 60_000 } : {}),
      ...(flags.tiles ? { tiles: true } : {}),
    });
    const [today, ...later] = daysToPublish(day, now, tomorrow).map((d) => ({
      inputs: airspaces,
      options: options(d),
    }));
    // as the scheduled job would have run then: its clock is the snapshot's `now`
    const reports = await publishRun({
      command: "replay",
      store,
      log,
      clock: () => now,
      wall: io.now,
      now,
      days: [today!, ...later],
      retention,
    });
    const used = process.cpuUsage(cpu);
    const run: ReplayRun = {
      snapshot: path.basename(file),
      now: isoInstant(now),
      versions: reports.map(versionOf),
      cpuMs: Math.round((used.user + used.system) / 1000),
      store: store.take(),
    };
    runs.push(run);
    if (!flags.quiet) io.stdout.write(`${line(run)}\n`);
  }
  io.stdout.write(`${summary(runs, flags.store).join("\n")}\n`);
  if (flags.report) await writeFile(flags.report, `${JSON.stringify({ runs }, null, 2)}\n`);
  return 0;
}

/** The snapshot files of a folder, in order of name (their stamps); anything else is left out, named. */
async function listSnapshots(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new UsageError(`--notams: "${dir}" is not a readable folder of snapshots`);
  }
  const files = names.filter((n) => SNAPSHOT.test(n)).sort();
  if (files.length === 0)
    throw new UsageError(`--notams: no NOTAM snapshot (.xml, .txt, .jsonl, gzip or not) in "${dir}"`);
  return files.map((n) => path.join(dir, n));
}

/**
 * When a snapshot was current: a PIB's `Issued` (its content), else the UTC stamp in its name
 * (`uk_pib_2024-06-14T0011Z.xml.gz`). Neither is bad usage: replay never guesses from the clock or a file's mtime.
 */
export function snapshotAsOf(bytes: Buffer, name: string): number {
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).subarray(0, 16_384).toString();
  const issued = /<Issued>\s*([^<\s]+)\s*<\/Issued>/.exec(text)?.[1];
  const fromContent = issued === undefined ? undefined : parseInstant(issued);
  if (fromContent !== undefined) return fromContent;
  const m = /(\d{4}-\d{2}-\d{2})T(\d{2}):?(\d{2})(?::?(\d{2}))?Z/.exec(path.basename(name));
  const fromName = m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}Z`) : Number.NaN;
  if (!Number.isNaN(fromName)) return fromName;
  throw new UsageError(`${name}: no as-of time in its content or its name (…YYYY-MM-DDTHHMMZ…)`);
}

function versionOf(r: RunReport): ReplayRun["versions"][number] {
  const changes: Changes = { added: 0, changed: 0, removed: 0, gzBytes: 0 };
  let gzBytes = 0;
  let features = 0;
  for (const c of Object.values(r.countries)) {
    gzBytes += c.gzBytes;
    features += c.features;
    if (!c.changes) continue;
    changes.added += c.changes.added;
    changes.changed += c.changes.changed;
    changes.removed += c.changes.removed;
    changes.gzBytes += c.changes.gzBytes;
  }
  return { date: r.date, version: r.version, features, gzBytes, changes };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** `2024-06-14T00:16:00Z  2024-06-14 +3 ~12 -1 (4.2 KiB of 180.3 KiB)  cpu 1.84 s  store 12 PUT 40 GET, 0.3 MiB written` */
function line(run: ReplayRun): string {
  const days = run.versions.map(
    (v) =>
      `${v.date} ${v.version.slice(-8)} +${v.changes.added} ~${v.changes.changed} -${v.changes.removed} ` +
      `(${kb(v.changes.gzBytes)} of ${kb(v.gzBytes)})`,
  );
  const s = run.store;
  return (
    `${run.now}  ${days.join("; ")}  cpu ${(run.cpuMs / 1000).toFixed(2)} s  ` +
    `store ${s.put} PUT ${s.get} GET ${s.head} HEAD ${s.delete} DELETE, ${kb(s.bytesWritten)} written`
  );
}

function summary(runs: readonly ReplayRun[], store: string): string[] {
  const today = runs.flatMap((r) => r.versions.slice(0, 1));
  const ratios = today
    .slice(1)
    .filter((v) => v.gzBytes > 0)
    .map((v) => v.changes.gzBytes / v.gzBytes)
    .sort((a, b) => a - b);
  const median = ratios.length ? ratios[Math.floor((ratios.length - 1) / 2)]! : 0;
  const cpu = runs.map((r) => r.cpuMs).sort((a, b) => a - b);
  return [
    `replayed ${runs.length} snapshots into ${store}: ${runs.reduce((n, r) => n + r.versions.length, 0)} versions`,
    `  change sets: median ${(median * 100).toFixed(2)} % of the full download (gzip), max ${((ratios.at(-1) ?? 0) * 100).toFixed(2)} %`,
    `  cpu per run: first ${(cpu.length ? runs[0]!.cpuMs / 1000 : 0).toFixed(2)} s, median ${((cpu[Math.floor((cpu.length - 1) / 2)] ?? 0) / 1000).toFixed(2)} s`,
  ];
}
