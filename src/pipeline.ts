// The publication pipeline for one UTC day, in stage order (DESIGN §1):
// ingest → normalise → resolve → validate → publish. Inputs are bytes and plain values; the entry
// points in jobs/ read files, the clock and the environment.
import { bundledFirIndex } from "./geo/fir-index.js";
import { readAirspaceSource, type SourceRead } from "./ingest/read.js";
import type { Feature } from "./model/contract.js";
import { DiagnosticSink } from "./model/diagnostic.js";
import type { Logger } from "./model/logger.js";
import type { SourceEntry } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import { normalizeAirspaces } from "./normalize/airspace.js";
import { publishVersion } from "./publish/publish.js";
import type { ObjectStore } from "./publish/store.js";
import { validateFeature } from "./publish/validate.js";
import { buildReport, type RunReport } from "./report.js";
import type { ActivitySources } from "./resolve/activity.js";
import { resolveDay } from "./resolve/day.js";

export interface AirspaceInput {
  /** Source name, for diagnostics and the manifest (a file's base name). */
  name: string;
  bytes: Uint8Array;
  /** Country named by the operator for this source (`DE=file.txt`). */
  country?: string;
  /** When the source was fetched or read. */
  fetchedAt: number;
}

export interface PublishDayOptions {
  day: UtcDay;
  /** Reference instant for isActive; also the publication time. */
  now: number;
  /** Publish only these countries (upper-case alpha-2); all when absent. */
  countries?: readonly string[];
  /** State of the sources conditional airspaces depend on. */
  sources: ActivitySources;
}

export async function publishDay(
  inputs: readonly AirspaceInput[],
  options: PublishDayOptions,
  deps: { store: ObjectStore; log: Logger },
): Promise<RunReport> {
  const { log } = deps;
  const sink = new DiagnosticSink();

  const reads: SourceRead[] = [];
  for (const [i, input] of inputs.entries()) {
    const read = readAirspaceSource(input.bytes, input.name);
    sink.addAll(read.diagnostics);
    reads.push(read);
    log.progress("ingest", i + 1, inputs.length);
    log.info("source read", { source: input.name, format: read.format, records: read.records.length });
  }

  const countryBySource = new Map(inputs.flatMap((s) => (s.country ? [[s.name, s.country] as const] : [])));
  const airspaces = normalizeAirspaces(
    reads.flatMap((r) => r.records),
    { firs: bundledFirIndex(), countryBySource },
    sink,
  );
  log.progress("normalise", airspaces.length, airspaces.length);

  const wanted = options.countries ? new Set(options.countries) : undefined;
  const selected = wanted ? airspaces.filter((a) => wanted.has(a.country)) : airspaces;
  const features = resolveDay(selected, { day: options.day, now: options.now, sources: options.sources });
  log.progress("resolve", features.length, features.length);

  const byCountry = new Map<string, { features: Feature[]; airspaceNotams: number }>();
  for (const cc of options.countries ?? []) byCountry.set(cc, { features: [], airspaceNotams: 0 });
  for (const f of features) {
    const violations = validateFeature(f);
    if (violations.length > 0) {
      const first = violations[0]!;
      sink.add({
        code: "contract.violation",
        severity: "skipped",
        message: `${first.path}: ${first.message}${violations.length > 1 ? ` (+${violations.length - 1} more)` : ""}`,
        id: f.properties._id,
        name: f.properties.name,
      });
      continue;
    }
    const cc = f.properties.country;
    const bucket = byCountry.get(cc) ?? { features: [], airspaceNotams: 0 };
    byCountry.set(cc, bucket);
    bucket.features.push(f);
  }
  for (const b of byCountry.values()) b.features.sort((a, b) => cmp(a.properties._id, b.properties._id));

  const sources: Record<string, SourceEntry> = {};
  for (const [i, input] of inputs.entries()) {
    const r = reads[i]!;
    sources[input.name] = {
      kind: "airspace",
      fetchedAt: isoInstant(input.fetchedAt),
      effective: null,
      stale: false,
      sha256: r.sha256,
      records: r.records.length,
    };
  }
  const published = await publishVersion(
    deps.store,
    { byCountry, date: options.day.date, publishedAt: options.now, sources, tier: "dynamic" },
    (e) => (e.phase === "upload" ? log.progress("upload", e.done ?? 0, e.total) : log.progress(e.phase, 0)),
  );
  log.progress("published", 1, 1);
  return buildReport({
    reads,
    inputs,
    airspaces: airspaces.length,
    selected: selected.length,
    byCountry,
    sink,
    published,
    options,
  });
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
