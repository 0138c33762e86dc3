// `airspace-publisher watch --config sources.json --store …`: the publisher as a service (docs/design.md §9). Each
// source is asked for on its own interval (`pollSeconds`) by conditional GET, its last good copy kept, with backoff
// and jitter after a failure. Today, and tomorrow from 15:00 UTC, are published when a source's bytes or standing
// changed, at the instant a published state changes (the report's `nextChangeAt`), and at 00:00 and 15:00 UTC;
// otherwise nothing is written. SIGTERM or SIGINT finish the publication under way, then it exits 0.
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { pollMsOf, type SourceConfig } from "../../src/fetch/config.js";
import type { Logger } from "../../src/model/logger.js";
import { isoInstant, parseInstant, type UtcDay, utcDay } from "../../src/model/time.js";
import type { RunReport } from "../../src/report.js";
import { describeSources } from "../../src/report.js";
import { PublisherBusy } from "../../src/store/publisher-lease.js";
import type { ObjectStore } from "../../src/store/store.js";
import { daysToPublish, TOMORROW_FROM_HOUR } from "../days.js";
import { type Fetched, fetchForRun, readSourcesConfig, runDays } from "../fetched-inputs.js";
import type { Io } from "../io.js";
import { createLogger } from "../log.js";
import { publishRun } from "../publish-run.js";
import { openStore } from "../store.js";
import { UsageError } from "../usage.js";
import { WatchMetrics } from "../watch-metrics.js";
import { retentionOf } from "./publish.js";

export interface WatchFlags {
  config: string;
  store: string;
  s3Endpoint?: string;
  report?: string;
  quiet?: boolean;
  retentionDays?: string;
  recordDays?: string;
  /** Port of the metrics and health answers (0: any free one). @default 9464 */
  metricsPort?: string;
  /** @default 127.0.0.1 */
  metricsHost?: string;
  /** Minutes without a publication after which the health answer is 503. @default 180 */
  unhealthyAfter?: string;
  /** Run as if the clock read this instant at the start, then at the clock's pace (rehearsals, tests, benchmarks). */
  clock?: string;
  /** Each version with its vector tiles (docs/tiles.md): a refresh patches the last archive. */
  tiles?: boolean;
}

export interface WatchDeps {
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
  /** Calls `stop` once on SIGTERM or SIGINT. */
  onStop(stop: () => void): void;
}

/** The wait before trying again while another publisher holds the store. */
const BUSY_RETRY_MS = 5_000;
/**
 * The longest wait after failures: ten intervals, at most ten minutes (never less than the interval), so a source that
 * keeps failing is still asked every ten minutes and its return is seen within ten intervals.
 */
const MAX_BACKOFF_MS = 10 * 60_000;
const MAX_BACKOFF_INTERVALS = 10;

/**
 * Why the watcher publishes: a source's bytes or standing changed (or the first publication), the days to publish
 * changed (00:00 and 15:00 UTC), or a published state changes at this instant (the last report's `nextChangeAt`).
 */
type Reason = "sources" | "days" | "instant";

/** One source as the watcher follows it. */
interface Followed {
  source: SourceConfig;
  /** When it is asked for next, epoch ms. */
  nextAt: number;
  failures: number;
  got?: Fetched;
  /** SHA-256 of `got`'s bytes. */
  sha?: string;
}

export async function watchCommand(flags: WatchFlags, io: Io, deps: WatchDeps): Promise<number> {
  const config = await readSourcesConfig(flags.config, deps.env);
  const retention = retentionOf(flags);
  const store = await openStore(flags.store, flags.s3Endpoint, (line) =>
    io.stderr.write(`airspace-publisher: ${line}\n`),
  );
  const log = createLogger(io.stderr, flags.quiet);
  const port = flags.metricsPort === undefined ? 9464 : Number(flags.metricsPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--metrics-port takes a port 0–65535, got "${flags.metricsPort}"`);
  }
  const silence = flags.unhealthyAfter === undefined ? 180 : Number(flags.unhealthyAfter);
  if (!(silence > 0)) throw new UsageError(`--unhealthy-after takes minutes > 0, got "${flags.unhealthyAfter}"`);
  const clock = clockOf(flags.clock, io.now);
  const metrics = new WatchMetrics(clock);
  const served = await metrics.serve(flags.metricsHost ?? "127.0.0.1", port, silence * 60_000);
  // the URL on stdout too: with port 0 it is how a supervisor or a test learns it
  io.stdout.write(`metrics ${served.url}/metrics health ${served.url}/healthz\n`);
  const watcher = new Watcher(config.sources, { store, log, io, clock, deps, retention, flags, metrics });
  deps.onStop(() => watcher.stop());
  try {
    await watcher.run();
  } finally {
    served.server.close();
  }
  log.info("stopped", { publications: watcher.publications });
  return 0;
}

class Watcher {
  private readonly followed: Followed[];
  private stopped = false;
  private wake: () => void = () => {};
  /** What the last publication was made of: the days and each source's bytes and standing. */
  private publishedKey = "";
  /** The days the last publication published, `2026-08-22,2026-08-23`. */
  private publishedDays = "";
  /** When a published state changes next, with the same sources. */
  private nextChange = Number.POSITIVE_INFINITY;
  /** While another publisher holds the store: when to try again. */
  private busyUntil = Number.POSITIVE_INFINITY;
  /** When each source's new bytes were fetched, until a publication holds them (the latency metric). */
  private readonly changedAt = new Map<string, number>();
  publications = 0;

  constructor(
    sources: readonly SourceConfig[],
    private readonly c: {
      store: ObjectStore;
      log: Logger;
      io: Io;
      /** The watcher's clock: the machine's, or `--clock`'s. */
      clock: () => number;
      deps: WatchDeps;
      retention: { keepMs: number; recordMs: number };
      flags: WatchFlags;
      metrics: WatchMetrics;
    },
  ) {
    this.followed = sources.map((source) => ({ source, nextAt: 0, failures: 0 }));
  }

  stop(): void {
    this.stopped = true;
    this.wake();
  }

  async run(): Promise<void> {
    while (!this.stopped) {
      const now = this.c.clock();
      const days = this.daysAt(now);
      await this.poll(now, days.length > 1);
      if (this.stopped) break;
      const key = this.keyOf(days);
      const why = key && this.reasonAt(now, days, key);
      if (key && why) await this.publish(now, days, key, why);
      await this.sleepUntil(this.wakeAt(now));
    }
  }

  private daysAt(now: number): [UtcDay, ...UtcDay[]] {
    const today = utcDay(isoInstant(now).slice(0, 10))!;
    const [first, ...rest] = daysToPublish(today, now, "auto");
    return [first!, ...rest];
  }

  /** Asks for each source that is due; tomorrow's plans only while tomorrow is published. */
  private async poll(now: number, withTomorrow: boolean): Promise<void> {
    for (const f of this.followed) {
      if (this.stopped || f.nextAt > now || (f.source.aupDay === "tomorrow" && !withTomorrow)) continue;
      const deps = { fetch: this.c.deps.fetch, store: this.c.store, now };
      const name = f.source.name;
      try {
        const got = await fetchForRun(f.source, deps, this.c.log);
        if (got) {
          // hashed once per fetch: the key of each cycle compares digests, not the bytes again
          const sha = digest(got.r.bytes);
          if (sha !== f.sha) this.changedAt.set(name, now);
          f.got = got;
          f.sha = sha;
        }
        f.failures = got && got.r.from !== "lastGood" ? 0 : f.failures + 1;
        const at = got && { fetchedAt: got.r.fetchedAt, airspace: f.source.kind === "airspace" };
        this.c.metrics.fetched(name, got?.r.from ?? "error", at);
      } catch (err) {
        // no last good copy yet: nothing to publish from this source until it answers
        f.failures++;
        this.c.metrics.fetched(name, "error");
        this.c.log.warn("source unavailable", { source: name, reason: (err as Error).message });
      }
      f.nextAt = now + delayOf(pollMsOf(f.source), f.failures);
    }
  }

  /** What a publication now would be made of; undefined while a source has no copy at all. */
  private keyOf(days: readonly UtcDay[]): string | undefined {
    const needed = this.followed.filter((f) => f.source.aupDay !== "tomorrow" || days.length > 1);
    if (needed.some((f) => !f.got && f.source.aupDay !== "tomorrow")) return undefined;
    const sources = needed.flatMap(({ got, sha }) =>
      got ? [[got.source.name, sha, got.r.stale, got.r.lastModified ?? null]] : [],
    );
    return JSON.stringify({ days: datesOf(days), sources });
  }

  /** Why a publication is due now, or undefined when the last one still stands. */
  private reasonAt(now: number, days: readonly UtcDay[], key: string): Reason | undefined {
    if (key === this.publishedKey) return now >= this.nextChange ? "instant" : undefined;
    return this.publishedDays && this.publishedDays !== datesOf(days) ? "days" : "sources";
  }

  private async publish(now: number, days: [UtcDay, ...UtcDay[]], key: string, why: Reason): Promise<void> {
    const fetched = this.followed.flatMap((f) => (f.got ? [f.got] : []));
    const { store, log, io, retention } = this.c;
    const t0 = performance.now();
    log.info("publishing", {
      because: why,
      days: datesOf(days),
      sourcesChanged: [...this.changedAt.keys()].join(","),
    });
    let reports: Awaited<ReturnType<typeof publishRun>>;
    try {
      reports = await publishRun({
        command: "watch",
        store,
        log,
        clock: this.c.clock,
        wall: io.now,
        now,
        days: runDays(fetched, now, days, false, this.c.flags.tiles === true),
        retention,
      });
    } catch (err) {
      if (!(err instanceof PublisherBusy)) throw err;
      // another publisher (a second watcher, a manual publish) has the store: this one tries again shortly
      log.warn("store held by another publisher; waiting", {
        holder: err.holder.who,
        retryInSeconds: BUSY_RETRY_MS / 1000,
      });
      this.busyUntil = this.c.clock() + BUSY_RETRY_MS;
      // the other publisher may publish newer bytes meanwhile: ask every source again before trying
      for (const f of this.followed) f.nextAt = Math.min(f.nextAt, this.busyUntil);
      return;
    }
    this.busyUntil = Number.POSITIVE_INFINITY;
    const [today, tomorrow] = reports;
    // the report first: whoever reads the log's "publication done" finds the report of that publication
    if (this.c.flags.report) await writeReport(this.c.flags.report, today, tomorrow);
    log.info("publication done", { version: today.version, seconds: +((performance.now() - t0) / 1000).toFixed(2) });
    this.c.metrics.published(reports[0], (performance.now() - t0) / 1000, [...this.changedAt.values()]);
    this.changedAt.clear();
    this.publishedKey = key;
    this.publishedDays = datesOf(days);
    this.publications++;
    this.nextChange = Math.min(...reports.map((r) => (r.nextChangeAt ? Date.parse(r.nextChangeAt) : Infinity)));
    io.stdout.write(
      `published ${today.version}: ${today.records.published} features; sources: ${describeSources(today.sourceStates)}` +
        `${tomorrow ? `; tomorrow ${tomorrow.date} ${tomorrow.version}` : ""}\n`,
    );
  }

  /** The next instant something may change: a source due, a published state changing, 15:00 or 00:00 UTC. */
  private wakeAt(now: number): number {
    const today = utcDay(isoInstant(now).slice(0, 10))!;
    const boundaries = [today.start + TOMORROW_FROM_HOUR * 3_600_000, today.end].filter((t) => t > now);
    return Math.min(this.nextChange, this.busyUntil, ...boundaries, ...this.followed.map((f) => f.nextAt));
  }

  private async sleepUntil(at: number): Promise<void> {
    const ms = Math.max(0, at - this.c.clock());
    if (this.stopped || ms === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(ms, 2 ** 31 - 1));
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** The machine's clock, or one that read `start` when the watcher began and runs at the same pace. */
function clockOf(start: string | undefined, machine: () => number): () => number {
  if (start === undefined) return machine;
  const at = parseInstant(start);
  if (at === undefined) throw new UsageError(`--clock must be an ISO 8601 instant with a zone, got "${start}"`);
  const offset = at - machine();
  return () => machine() + offset;
}

/** The wait before asking again: the interval, doubled per failure up to the longest wait, with half jitter. */
export function delayOf(pollMs: number, failures: number): number {
  if (failures === 0) return pollMs;
  const longest = Math.max(pollMs, Math.min(pollMs * MAX_BACKOFF_INTERVALS, MAX_BACKOFF_MS));
  const ceiling = Math.min(pollMs * 2 ** failures, longest);
  return Math.round(ceiling * (0.5 + Math.random() / 2));
}

const datesOf = (days: readonly UtcDay[]) => days.map((d) => d.date).join(",");

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function writeReport(file: string, today: RunReport, tomorrow: RunReport | undefined): Promise<void> {
  await writeFile(file, `${JSON.stringify(tomorrow ? { ...today, tomorrow } : today, null, 2)}\n`);
}
