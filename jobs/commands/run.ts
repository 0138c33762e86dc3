// `airspace-publisher run --config sources.json`: the scheduled job. Fetches every configured source (a
// failed one falls back to its last good copy, marked stale), then publishes the day. `republish --date D`
// is the same run for an operator's chosen day. Reads the clock, the environment and the network: a job.
import { readFile, writeFile } from "node:fs/promises";
import { planMetaFrom } from "../../src/aup/read.js";
import { aupDayOf, parseSourcesConfig, type SourceConfig, SourcesConfigError } from "../../src/fetch/config.js";
import { type FetchResult, fetchSource } from "../../src/fetch/fetch-source.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { collectGarbage } from "../../src/publish/retention.js";
import { describeSources } from "../../src/report.js";
import type { Io } from "../io.js";
import { createLogger } from "../log.js";
import { followShadow } from "../shadow-step.js";
import { openStore } from "../store.js";
import { summaryLines } from "../summary.js";
import { UsageError } from "../usage.js";
import { publishMapPage } from "../web-assets.js";

export interface RunFlags {
  config: string;
  store: string;
  s3Endpoint?: string;
  date?: string;
  now?: string;
  report?: string;
  quiet?: boolean;
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
  const store = openStore(flags.store, flags.s3Endpoint, (line) => io.stderr.write(`airspace-publisher: ${line}\n`));
  const log = createLogger(io.stderr, flags.quiet);
  const fetched: Array<{ source: SourceConfig; r: FetchResult }> = [];
  for (const source of config.sources) {
    const r = await fetchSource(source, { fetch: deps.fetch, store, now: clock });
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
  const report = await publishDay(
    airspaces,
    {
      day,
      now,
      sources: { notam: [], aup: [] },
      ...(notams.length ? { notams } : {}),
      ...(aup.length ? { aup } : {}),
    },
    { store, log, clock: io.now },
  );
  await followShadow(store, log, io.now);
  await publishMapPage(store);
  const gc = await collectGarbage(store, { now: clock });
  const gcStatic = await collectGarbage(store, { now: clock, tier: "static" });
  log.info("retention", { ...gc, staticVersionsDeleted: gcStatic.versionsDeleted });
  if (flags.report) await writeFile(flags.report, `${JSON.stringify(report, null, 2)}\n`);
  io.stdout.write(
    `published ${report.version}: ${report.records.published} features; sources: ${describeSources(report.sourceStates)}\n`,
  );
  // the short summary `publish` prints, unless --quiet (the crontab's 15-minute runs)
  if (!flags.quiet) {
    io.stdout.write(`${summaryLines(report, flags.store).join("\n")}\n`);
  }
  return 0;
}
