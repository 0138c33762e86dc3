// `airspace-publisher run --config sources.json`: the scheduled job. Fetches every configured source (a
// failed one falls back to its last good copy, marked stale), then publishes the day. `republish --date D`
// is the same run for an operator's chosen day. Reads the clock, the environment and the network: a job.
import { readFile, writeFile } from "node:fs/promises";
import { planMetaFrom } from "../../src/aup/plan-meta.js";
import { aupDayOf, parseSourcesConfig, type SourceConfig, SourcesConfigError } from "../../src/fetch/config.js";
import { type FetchResult, fetchSource, SourceFetchError } from "../../src/fetch/fetch-source.js";
import { type UtcDay, utcDay } from "../../src/model/time.js";
import type { RunReport } from "../../src/report.js";
import { describeSources } from "../../src/report.js";
import { daysToPublish, tomorrowFlag } from "../days.js";
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
}

export async function runCommand(
  flags: RunFlags,
  io: Io,
  deps: { fetch: typeof fetch; env: Record<string, string | undefined> },
): Promise<number> {
  let text: string;
  try {
    text = await readFile(flags.config, "utf8");
  } catch {
    throw new UsageError(`--config: cannot read "${flags.config}"`);
  }
  let config: ReturnType<typeof parseSourcesConfig>;
  try {
    config = parseSourcesConfig(text, deps.env);
  } catch (err) {
    // a broken config is bad usage: one line naming the file and the field (SourcesConfigError says the field)
    if (!(err instanceof SourcesConfigError)) throw err;
    const what = err.issues.map((i) => `${i.field}: ${i.expected}, received ${i.received}`).join("; ");
    throw new UsageError(`--config ${flags.config}: ${what.replace(/\s*\n\s*/g, " ")}`, { cause: err });
  }
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
  const fetched: Array<{ source: SourceConfig; r: FetchResult }> = [];
  for (const source of config.sources) {
    const forTomorrow = source.aupDay === "tomorrow";
    if (forTomorrow && !withTomorrow) continue;
    let r: FetchResult;
    try {
      r = await fetchSource(source, { fetch: deps.fetch, store, now: clock });
    } catch (err) {
      // tomorrow's plan may not be out yet: its areas are Unknown, nothing else is lost
      if (!forTomorrow || !(err instanceof SourceFetchError)) throw err;
      log.warn("source unavailable", { source: source.name, reason: err.message });
      continue;
    }
    if (r.stale) log.warn("source stale", { source: r.name, from: r.from, reason: r.reason ?? "" });
    else log.info("source fetched", { source: r.name, from: r.from, bytes: r.bytes.length });
    fetched.push({ source, r });
  }
  const input = (x: (typeof fetched)[number]) => ({
    name: x.source.name,
    bytes: x.r.bytes,
    fetchedAt: x.r.fetchedAt,
    // the server's Last-Modified stands in for an as-of time only where the content states none
    ...(x.r.lastModified === undefined ? {} : { asOf: { at: x.r.lastModified, from: "http" as const } }),
    ...(x.source.firs ? { firs: x.source.firs } : {}),
    ...(x.r.stale ? { stale: true } : {}),
  });
  const airspaces = fetched
    .filter((x) => x.source.kind === "airspace")
    .map((x) => ({ ...input(x), ...(x.source.country ? { country: x.source.country } : {}) }));
  const notams = fetched.filter((x) => x.source.kind === "notam").map(input);
  const aup = fetched
    .filter((x) => x.source.kind === "aup")
    .map((x) => {
      const aupDay = aupDayOf(x.source, date);
      const plan = aupDay ? planMetaFrom(aupDay) : undefined;
      // the table's issue time is the answer's Last-Modified; without it, the fetch orders plans but proves nothing
      const issued =
        x.r.lastModified === undefined
          ? { issued: x.r.fetchedAt, issuedFrom: "guessed" as const }
          : { issued: x.r.lastModified, issuedFrom: "declared" as const };
      return { ...input(x), ...(plan ? { plan: { ...plan, ...issued } } : {}) };
    });
  // the same fetched sources for both days: NOTAMs by their validity and Item D, plans by their AUP day; today's
  // static tier too (docs/design.md §5: the airspaces alone, for internal consumers)
  const dayOf = (d: UtcDay, staticTier: boolean) => ({
    inputs: airspaces,
    options: {
      day: d,
      now,
      sources: { notam: [], aup: [] },
      ...(notams.length ? { notams } : {}),
      ...(aup.length ? { aup } : {}),
      staticTier,
    },
  });
  const days = [dayOf(day, true), ...(tomorrowDay ? [dayOf(tomorrowDay, false)] : [])] as const;
  const [report, next] = await publishRun({ store, log, clock: io.now, now, days, retention });
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
