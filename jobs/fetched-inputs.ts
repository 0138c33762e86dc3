// The sources of a config fetched for a run, and the days they publish: shared by `run` (once) and `watch` (each
// source on its own interval). A failed fetch falls back to the source's last good copy, marked stale.

import { readFile } from "node:fs/promises";
import { planMetaFrom } from "../src/aup/plan-meta.js";
import {
  aupDayOf,
  parseSourcesConfig,
  type SourceConfig,
  type SourcesConfig,
  SourcesConfigError,
} from "../src/fetch/config.js";
import { type FetchDeps, type FetchResult, fetchSource, SourceFetchError } from "../src/fetch/fetch-source.js";
import type { Logger } from "../src/model/logger.js";
import type { UtcDay } from "../src/model/time.js";
import type { RunDay } from "./publish-run.js";
import { UsageError } from "./usage.js";

/** The sources config file (`--config`); one that cannot be read or does not parse is bad usage naming the field. */
export async function readSourcesConfig(file: string, env: Record<string, string | undefined>): Promise<SourcesConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new UsageError(`--config: cannot read "${file}"`);
  }
  try {
    return parseSourcesConfig(text, env);
  } catch (err) {
    // one line naming the file and the field (SourcesConfigError says the field)
    if (!(err instanceof SourcesConfigError)) throw err;
    const what = err.issues.map((i) => `${i.field}: ${i.expected}, received ${i.received}`).join("; ");
    throw new UsageError(`--config ${file}: ${what.replace(/\s*\n\s*/g, " ")}`, { cause: err });
  }
}

export interface Fetched {
  source: SourceConfig;
  r: FetchResult;
}

/**
 * One source fetched, logged; undefined for tomorrow's plan that is not out yet (its areas are then Unknown, nothing
 * else is lost). Any other source without a good copy fails the run (`SourceFetchError`).
 */
export async function fetchForRun(source: SourceConfig, deps: FetchDeps, log: Logger): Promise<Fetched | undefined> {
  let r: FetchResult;
  try {
    r = await fetchSource(source, deps);
  } catch (err) {
    if (source.aupDay !== "tomorrow" || !(err instanceof SourceFetchError)) throw err;
    log.warn("source unavailable", { source: source.name, reason: err.message });
    return undefined;
  }
  if (r.stale) log.warn("source stale", { source: r.name, from: r.from, reason: r.reason ?? "" });
  else log.info("source fetched", { source: r.name, from: r.from, bytes: r.bytes.length });
  return { source, r };
}

/**
 * The days a run publishes from the same fetched sources: NOTAMs by their validity and Item D, plans by their AUP
 * day (relative to the first day, today); today's static tier too (docs/design.md §5: the airspaces alone). `once`
 * (a one-shot `run`): the last day's reading of the NOTAM sources keeps no memo for a next one.
 */
export function runDays(
  fetched: readonly Fetched[],
  now: number,
  days: readonly [UtcDay, ...UtcDay[]],
  once = false,
  /** Each day's version with its vector tiles (PublishDayOptions.tiles). */
  tiles = false,
): [RunDay, ...RunDay[]] {
  const [today] = days;
  const airspaces = fetched
    .filter((x) => x.source.kind === "airspace")
    .map((x) => ({ ...inputOf(x), ...(x.source.country ? { country: x.source.country } : {}) }));
  const notams = fetched.filter((x) => x.source.kind === "notam").map(inputOf);
  const aup = fetched.filter((x) => x.source.kind === "aup").map((x) => planInput(x, today.date));
  const dayOf = (d: UtcDay, staticTier: boolean): RunDay => ({
    inputs: airspaces,
    options: {
      day: d,
      now,
      sources: { notam: [], aup: [] },
      ...(notams.length ? { notams } : {}),
      ...(aup.length ? { aup } : {}),
      staticTier,
      ...(tiles ? { tiles: true } : {}),
      ...(once && d === days.at(-1) ? { readAgain: false } : {}),
    },
  });
  return [dayOf(today, true), ...days.slice(1).map((d) => dayOf(d, false))];
}

function inputOf(x: Fetched) {
  return {
    name: x.source.name,
    bytes: x.r.bytes,
    fetchedAt: x.r.fetchedAt,
    // the server's Last-Modified stands in for an as-of time only where the content states none
    ...(x.r.lastModified === undefined ? {} : { asOf: { at: x.r.lastModified, from: "http" as const } }),
    ...(x.source.firs ? { firs: x.source.firs } : {}),
    ...(x.r.stale ? { stale: true } : {}),
  };
}

/** An AUP table with its plan: the AUP day from the config, the issue time from the answer's Last-Modified. */
function planInput(x: Fetched, date: string) {
  const aupDay = aupDayOf(x.source, date);
  const plan = aupDay ? planMetaFrom(aupDay) : undefined;
  // without Last-Modified, the fetch orders plans but proves nothing
  const issued =
    x.r.lastModified === undefined
      ? { issued: x.r.fetchedAt, issuedFrom: "guessed" as const }
      : { issued: x.r.lastModified, issuedFrom: "declared" as const };
  return { ...inputOf(x), ...(plan ? { plan: { ...plan, ...issued } } : {}) };
}
