// The run report (JSON): what was read, published and left out, and why. Every input record is
// accounted for: read = published + skipped + filtered out (checked by the tests).

import type { ReadSummary } from "./ingest/read.js";
import type { Feature } from "./model/contract.js";
import type { Diagnostic, DiagnosticSink } from "./model/diagnostic.js";
import type { Decided } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import type { PublishResult } from "./publish/publish.js";
import type { ActivitySources } from "./resolve/activity.js";
import type { NotamSummary } from "./resolve/notam-stage.js";

export const REPORT_SCHEMA = 1;
/** Items kept per diagnostic code in the report; counts are always complete. */
const ITEMS_PER_CODE = 200;

export interface RunReport {
  schema: typeof REPORT_SCHEMA;
  date: string;
  now: string;
  version: string;
  manifest: string;
  sources: Array<{ name: string; format: string; sha256: string; records: number; skipped: number }>;
  records: { read: number; normalised: number; filteredOut: number; published: number; skipped: number };
  countries: Record<
    string,
    {
      features: number;
      airspaces: number;
      graphicalNotams: number;
      /** The collection's gzip bytes (the full download). */
      gzBytes: number;
      /** What changed since the previous version of the day (docs/design.md §8), when it changed. */
      changes?: { added: number; changed: number; removed: number; gzBytes: number };
      /** Its airspaces decided by evidence and by default (src/resolve/basis.ts), as its manifest entry states. */
      decided?: Decided;
    }
  >;
  /** The version before this one of the same day; null for the day's first. */
  previous: string | null;
  /** Today's pointer was switched to this version (false for tomorrow and for a past day). */
  today: boolean;
  activity: { isActive: Record<string, number>; activationType: Record<string, number> };
  objects: { uploaded: number; reused: number };
  /** How fresh the dynamic sources were: conditional airspaces are Unknown unless fresh. */
  sourceStates: ActivitySources;
  /** The NOTAM stage, when NOTAMs were given. */
  notams?: NotamSummary;
  /** The AUP/UUP stage, when plans were given. */
  aup?: AupSummary;
  diagnostics: {
    byCode: Record<string, number>;
    bySeverity: Record<string, number>;
    /** Per code, the first items (see `truncated`). */
    items: Diagnostic[];
    truncated: boolean;
  };
  /**
   * The first instant after `now` at which a run of the same inputs publishes something else (a feature's
   * `isActive` or a source's standing changes): when a watcher publishes next with no source changed. Null: not on
   * this day.
   */
  nextChangeAt?: string | null;
}

/**
 * The earliest of the instants given (null and undefined: none), as `nextChangeAt`: rounded up to the second, so
 * that a publication at the instant stated is past the change, never a millisecond before it.
 */
export function nextChangeAt(...instants: Array<number | null | undefined>): string | null {
  const known = instants.filter((t): t is number => typeof t === "number" && Number.isFinite(t));
  return known.length > 0 ? isoInstant(Math.ceil(Math.min(...known) / 1000) * 1000) : null;
}

interface ReportInput {
  reads: readonly ReadSummary[];
  inputs: ReadonlyArray<{ name: string }>;
  airspaces: number;
  selected: number;
  byCountry: ReadonlyMap<string, { features: readonly Feature[] }>;
  sink: DiagnosticSink;
  published: PublishResult;
  options: { day: UtcDay; now: number };
  sources: ActivitySources;
  notams?: NotamSummary;
  aup?: AupSummary;
}

export interface AupSummary {
  plans: number;
  allocationsOnTheDay: number;
  linked: number;
  linkedPerCountry: Record<string, number>;
  unlinkedDesignators: Record<string, number>;
}

export function buildReport(r: ReportInput): RunReport {
  const perCode = new Map<string, number>();
  const items: Diagnostic[] = [];
  const bySeverity: Record<string, number> = { repaired: 0, skipped: 0, warning: 0 };
  for (const d of r.sink.items) {
    bySeverity[d.severity] = (bySeverity[d.severity] ?? 0) + 1;
    const n = (perCode.get(d.code) ?? 0) + 1;
    perCode.set(d.code, n);
    if (n <= ITEMS_PER_CODE) items.push(d);
  }
  const countries: RunReport["countries"] = {};
  const isActive: Record<string, number> = {};
  const activationType: Record<string, number> = {};
  let published = 0;
  for (const cc of [...r.byCountry.keys()].sort()) {
    const fs = r.byCountry.get(cc)!.features;
    const graphicalNotams = fs.filter((f) => f.properties.featureCategory === "graphicalNotam").length;
    const entry = r.published.manifest.countries[cc];
    const c = entry?.changes;
    countries[cc] = {
      features: fs.length,
      airspaces: fs.length - graphicalNotams,
      graphicalNotams,
      gzBytes: entry?.gzBytes ?? 0,
      ...(c ? { changes: { added: c.added, changed: c.changed, removed: c.removed, gzBytes: c.gzBytes } } : {}),
      ...(entry?.decided ? { decided: entry.decided } : {}),
    };
    published += fs.length;
    for (const f of fs) {
      const m = f.properties.vendor.dynamicAirspaceMapping;
      isActive[m.isActive] = (isActive[m.isActive] ?? 0) + 1;
      activationType[m.activationType] = (activationType[m.activationType] ?? 0) + 1;
    }
  }
  // one pass over the diagnostics (a Europe-scale run has tens of thousands, and 40 sources)
  const skippedBySource = new Map<string, number>();
  for (const d of r.sink.items)
    if (d.severity === "skipped" && d.source !== undefined && d.record !== undefined)
      skippedBySource.set(d.source, (skippedBySource.get(d.source) ?? 0) + 1);
  const skippedIn = (source: string) => skippedBySource.get(source) ?? 0;
  const sources = r.reads.map((s, i) => {
    const name = r.inputs[i]!.name;
    return { name, format: s.format, sha256: s.sha256, records: s.records, skipped: skippedIn(name) };
  });
  const read = r.reads.reduce((n, s) => n + s.records, 0);
  const readerSkipped = r.reads.reduce((n, s) => n + s.readerSkipped, 0);
  return {
    schema: REPORT_SCHEMA,
    date: r.options.day.date,
    now: isoInstant(r.options.now),
    version: r.published.manifest.version,
    manifest: r.published.pointer.manifest,
    previous: r.published.manifest.previous ?? null,
    today: r.published.today,
    sources,
    records: {
      read: read + readerSkipped,
      normalised: r.airspaces,
      filteredOut: r.airspaces - r.selected,
      published,
      skipped: r.sink.items.filter((d) => d.severity === "skipped" && (d.record !== undefined || d.id !== undefined))
        .length,
    },
    countries,
    activity: { isActive: sortKeys(isActive), activationType: sortKeys(activationType) },
    objects: { uploaded: r.published.uploaded.length, reused: r.published.reused.length },
    sourceStates: r.sources,
    ...(r.notams ? { notams: r.notams } : {}),
    ...(r.aup ? { aup: r.aup } : {}),
    diagnostics: {
      byCode: r.sink.countByCode(),
      bySeverity,
      items,
      truncated: items.length < r.sink.items.length,
    },
  };
}

/** The report of a run that published an earlier run's objects again (src/incremental.ts) at its own `now`. */
export function againReport(before: RunReport, published: PublishResult, now: number): RunReport {
  const countries: RunReport["countries"] = {};
  for (const [cc, c] of Object.entries(before.countries)) {
    const { changes: _, ...rest } = c;
    const ch = published.manifest.countries[cc]?.changes;
    countries[cc] = {
      ...rest,
      ...(ch ? { changes: { added: ch.added, changed: ch.changed, removed: ch.removed, gzBytes: ch.gzBytes } } : {}),
    };
  }
  return {
    ...before,
    now: isoInstant(now),
    version: published.manifest.version,
    manifest: published.pointer.manifest,
    previous: published.manifest.previous ?? null,
    today: published.today,
    countries,
    objects: { uploaded: published.uploaded.length, reused: published.reused.length },
  };
}

/** The dynamic sources in one line for people: `notams fresh; eaup stale (no as-of time in its content or declared)`. */
export function describeSources(states: ActivitySources): string {
  const all = [...states.notam, ...states.aup];
  if (all.length === 0) return "no NOTAM or AUP source";
  return all.map((s) => `${s.name} ${s.standing}${s.reason ? ` (${s.reason})` : ""}`).join("; ");
}

function sortKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}
