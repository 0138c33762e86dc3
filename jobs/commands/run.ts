// `airspace-publisher run --config sources.json`: the scheduled job. Fetches every configured source (a
// failed one falls back to its last good copy, marked stale), then publishes the day. `republish --date D`
// is the same run for an operator's chosen day. Reads the clock, the environment and the network: a job.
import { writeFile } from "node:fs/promises";
import { utcDay } from "../../src/model/time.js";
import type { RunReport } from "../../src/report.js";
import { describeSources } from "../../src/report.js";
import { daysToPublish, tomorrowFlag } from "../days.js";
import { type Fetched, fetchForRun, readSourcesConfig, runDays } from "../fetched-inputs.js";
import type { Io } from "../io.js";
import { createLogger } from "../log.js";
import { publishRun } from "../publish-run.js";
import { openStore } from "../store.js";
import { summaryLines } from "../summary.js";
import { UsageError } from "../usage.js";
import { retentionOf } from "./publish.js";

export interface RunFlags {
  config: string;
  store: string;
  s3Endpoint?: string;
  date?: string;
  now?: string;
  report?: string;
  quiet?: boolean;
  /** run only: also publish tomorrow: `auto` from 15:00 UTC (the EAUP for tomorrow), `yes`, `no`. */
  tomorrow?: string;
  retentionDays?: string;
  recordDays?: string;
  /** Also publish each version's vector tiles (docs/tiles.md). */
  tiles?: boolean;
}

export async function runCommand(
  flags: RunFlags,
  io: Io,
  deps: { fetch: typeof fetch; env: Record<string, string | undefined> },
): Promise<number> {
  const config = await readSourcesConfig(flags.config, deps.env);
  const clock = io.now();
  const date = flags.date ?? new Date(clock).toISOString().slice(0, 10);
  const day = utcDay(date);
  if (!day) throw new UsageError(`--date must be YYYY-MM-DD, got "${date}"`);
  const now = flags.now ? Date.parse(flags.now) : clock >= day.start && clock < day.end ? clock : day.start;
  if (Number.isNaN(now)) throw new UsageError(`--now must be an ISO 8601 instant, got "${flags.now}"`);
  const [, tomorrowDay] = daysToPublish(day, now, tomorrowFlag(flags.tomorrow, flags.date ? "no" : "auto"));
  const withTomorrow = tomorrowDay !== undefined;
  const retention = retentionOf(flags);
  const store = await openStore(flags.store, flags.s3Endpoint, (line) =>
    io.stderr.write(`airspace-publisher: ${line}\n`),
  );
  const log = createLogger(io.stderr, flags.quiet);
  const fetched: Fetched[] = [];
  for (const source of config.sources) {
    if (source.aupDay === "tomorrow" && !withTomorrow) continue;
    const got = await fetchForRun(source, { fetch: deps.fetch, store, now: clock }, log);
    if (got) fetched.push(got);
  }
  const days = runDays(fetched, now, [day, ...(tomorrowDay ? [tomorrowDay] : [])], true, flags.tiles === true);
  const [report, next] = await publishRun({
    command: "run",
    store,
    log,
    clock: io.now,
    wall: io.now,
    now,
    days,
    retention,
  });
  if (flags.report)
    await writeFile(flags.report, `${JSON.stringify(next ? { ...report, tomorrow: next } : report, null, 2)}\n`);
  io.stdout.write(
    `published ${report.version}: ${report.records.published} features; sources: ${describeSources(report.sourceStates)}\n`,
  );
  if (next)
    io.stdout.write(`published ${next.version} for tomorrow ${next.date}: ${next.records.published} features\n`);
  // the short summary `publish` prints, unless --quiet (the crontab's 15-minute runs)
  if (!flags.quiet) {
    io.stdout.write(`${summaryLines(report, flags.store).join("\n")}\n`);
    io.stdout.write(`${liveDays(report, next)}\n`);
  }
  return 0;
}

/** `  live: today 2026-08-22 20260822T151500Z-…, tomorrow 2026-08-23 20260822T151500Z-…` */
function liveDays(today: RunReport, tomorrow: RunReport | undefined): string {
  const line = [`today ${today.date} ${today.version}`];
  if (tomorrow) line.push(`tomorrow ${tomorrow.date} ${tomorrow.version}`);
  else line.push("tomorrow not published by this run (from 15:00 UTC, or --tomorrow yes)");
  return `  live: ${line.join(", ")}`;
}
