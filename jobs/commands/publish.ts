// `airspace-publisher publish`: read the sources, resolve the day, publish a version, write the report.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseInstant, utcDay } from "../../src/model/time.js";
import type { ObjectStore } from "../../src/store/store.js";
import { readAirspaceInputs, readAupInputs, readNotamInputs, type Skipped } from "../inputs.js";
import { type Io, readStdin } from "../io.js";
import { createLogger } from "../log.js";
import { publishRun } from "../publish-run.js";
import { openStore } from "../store.js";
import { summaryLines } from "../summary.js";
import { UsageError } from "../usage.js";

export interface PublishFlags {
  airspaces: string[];
  date: string;
  now?: string;
  store: string;
  countries?: string;
  report?: string;
  quiet?: boolean;
  notams?: string[];
  notamAsOf?: string;
  notamFirs?: string;
  aup?: string[];
  maxSourceAge?: string;
  variant?: string;
  s3Endpoint?: string;
  retentionDays?: string;
  recordDays?: string;
  static?: boolean;
  tiles?: boolean;
}

/** `--retention-days` (whole versions, default 7) and `--record-days` (the record, default 400) in ms. */
export function retentionOf(flags: { retentionDays?: string; recordDays?: string }): {
  keepMs: number;
  recordMs: number;
} {
  const days = (text: string | undefined, name: string, fallback: number) => {
    const n = text === undefined ? fallback : Number(text);
    if (!(n > 0)) throw new UsageError(`--${name} takes a number of days > 0, got "${text}"`);
    return n * 86_400_000;
  };
  const keepMs = days(flags.retentionDays, "retention-days", 7);
  const recordMs = days(flags.recordDays, "record-days", 400);
  if (recordMs < keepMs) throw new UsageError("--record-days must be at least --retention-days");
  return { keepMs, recordMs };
}

/** `store` replaces `--store` (explain publishes into memory). */
export async function publishCommand(flags: PublishFlags, io: Io, store?: ObjectStore): Promise<number> {
  const day = utcDay(flags.date);
  if (!day) throw new UsageError(`--date must be a calendar date YYYY-MM-DD, got "${flags.date}"`);
  let now: number;
  if (flags.now !== undefined) {
    const parsed = parseInstant(flags.now);
    if (parsed === undefined) throw new UsageError(`--now must be an ISO 8601 instant with a zone, got "${flags.now}"`);
    now = parsed;
  } else {
    // the clock when it lies in the day; otherwise the day's start, so that a re-published past day
    // says what was active on it rather than "nothing, it is over"
    const clock = io.now();
    now = clock >= day.start && clock < day.end ? clock : day.start;
  }
  const countries = flags.countries === undefined ? undefined : parseCountries(flags.countries);
  const retention = retentionOf(flags);
  const log = createLogger(io.stderr, flags.quiet);
  if (flags.variant !== undefined && flags.variant !== "production" && flags.variant !== "development") {
    throw new UsageError(`--variant must be production or development, got "${flags.variant}"`);
  }
  const maxAge = flags.maxSourceAge === undefined ? undefined : Number(flags.maxSourceAge);
  if (maxAge !== undefined && !(Number.isFinite(maxAge) && maxAge > 0)) {
    throw new UsageError(`--max-source-age takes minutes > 0, got "${flags.maxSourceAge}"`);
  }
  if ([...flags.airspaces, ...(flags.notams ?? []), ...(flags.aup ?? [])].filter((s) => s === "-").length > 1) {
    throw new UsageError("standard input (-) can be read for one source only");
  }
  const stdin = () => readStdin(io);
  const skipped: Skipped = [];
  const inputs = await readAirspaceInputs(flags.airspaces, stdin, now, skipped);
  const declared = notamDeclarations(flags);
  const notams = flags.notams ? await readNotamInputs(flags.notams, stdin, now, declared, skipped) : undefined;
  const aup = flags.aup ? await readAupInputs(flags.aup, stdin, now, skipped) : undefined;
  const target =
    store ??
    (await openStore(flags.store, flags.s3Endpoint, (line) => io.stderr.write(`airspace-publisher: ${line}\n`)));
  const options = {
    day,
    now,
    ...(countries ? { countries } : {}),
    sources: { notam: [], aup: [] },
    ...(skipped.length ? { skipped } : {}),
    ...(notams ? { notams } : {}),
    ...(aup ? { aup } : {}),
    ...(maxAge ? { maxSourceAgeMs: maxAge * 60_000 } : {}),
    ...(flags.static ? { staticTier: true } : {}),
    ...(flags.tiles ? { tiles: true } : {}),
    ...(flags.variant ? { variant: flags.variant as "production" | "development" } : {}),
    // nothing here reads them again: their bytes are not held to the end of the run, nor a memo of their lines
    sourcesRead: () => {
      for (const list of [inputs, notams, aup]) list?.splice(0);
    },
    readAgain: false,
  };
  const [report] = await publishRun({
    command: "publish",
    store: target,
    log,
    clock: io.now,
    wall: io.now,
    now,
    days: [{ inputs, options }],
    retention,
  });
  if (flags.report) {
    await mkdir(path.dirname(path.resolve(flags.report)), { recursive: true });
    await writeFile(flags.report, `${JSON.stringify(report, null, 2)}\n`);
  }
  const n = Object.keys(report.countries).length;
  io.stdout.write(
    `published ${report.version}: ${report.records.published} features in ${n} ${n === 1 ? "country" : "countries"} + EUROPE, ` +
      `${report.records.skipped} skipped, to ${flags.store}${flags.report ? ` (report ${flags.report})` : ""}\n`,
  );
  if (!flags.quiet) io.stdout.write(`${summaryLines(report, flags.store).join("\n")}\n`);
  return 0;
}

/** `--notam-as-of` and `--notam-firs`: what the operator declares for NOTAM sources whose content does not say. */
function notamDeclarations(flags: PublishFlags): { asOf?: number; firs?: string[] } {
  const out: { asOf?: number; firs?: string[] } = {};
  if (flags.notamAsOf !== undefined) {
    const at = parseInstant(flags.notamAsOf);
    if (at === undefined) {
      throw new UsageError(`--notam-as-of must be an ISO 8601 instant with a zone, got "${flags.notamAsOf}"`);
    }
    out.asOf = at;
  }
  if (flags.notamFirs !== undefined) {
    const firs = flags.notamFirs.split(",").map((f) => f.trim().toUpperCase());
    const bad = firs.filter((f) => !/^[A-Z]{4}$/.test(f));
    if (bad.length > 0 || firs.length === 0) {
      throw new UsageError(`--notam-firs takes four-letter FIR idents like EGTT,EGPX; got "${flags.notamFirs}"`);
    }
    out.firs = [...new Set(firs)].sort();
  }
  if ((out.asOf !== undefined || out.firs) && !flags.notams?.length) {
    throw new UsageError("--notam-as-of and --notam-firs describe --notams sources; none is given");
  }
  return out;
}

function parseCountries(text: string): string[] {
  const list = [...new Set(text.split(",").map((c) => c.trim().toUpperCase()))].filter((c) => c !== "");
  const bad = list.filter((c) => !/^[A-Z]{2}$/.test(c));
  if (list.length === 0 || bad.length > 0) {
    throw new UsageError(`--countries takes ISO 3166-1 alpha-2 codes like DE,FR; got "${text}"`);
  }
  // ICU knows every assigned region code: `XX` comes back as itself, `ZZ` as "Unknown Region"
  const regions = new Intl.DisplayNames(["en"], { type: "region" });
  const unknown = list.filter((c) => regions.of(c) === c || regions.of(c) === "Unknown Region");
  if (unknown.length > 0) {
    throw new UsageError(
      `--countries: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not a country code`,
    );
  }
  return list.sort();
}
