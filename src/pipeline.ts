// The publication pipeline for one UTC day, in stage order (DESIGN §1):
// ingest → normalise → resolve → validate → publish. Inputs are bytes and plain values; the entry
// points in jobs/ read files, the clock and the environment.
import { bundledFirIndex } from "./geo/fir-index.js";
import { readAirspaceSource, SourceError, type SourceRead } from "./ingest/read.js";
import type { Feature } from "./model/contract.js";
import { DiagnosticSink } from "./model/diagnostic.js";
import type { Logger } from "./model/logger.js";
import type { SourceEntry } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import { normalizeAirspaces } from "./normalize/airspace.js";
import { readNotamSource } from "./notam/read.js";
import { publishVersion } from "./publish/publish.js";
import type { ObjectStore } from "./publish/store.js";
import { validateFeature } from "./publish/validate.js";
import { buildReport, type RunReport } from "./report.js";
import type { ActivitySources } from "./resolve/activity.js";
import { resolveDay } from "./resolve/day.js";
import type { Variant } from "./resolve/notam-feature.js";
import { notamStage } from "./resolve/notam-stage.js";

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
  /** State of the sources conditional airspaces depend on (the NOTAM source is fresh when NOTAMs are given). */
  sources: ActivitySources;
  /** NOTAM sources (ICAO text or JSON lines, gzip or not). */
  notams?: readonly NotamInput[];
  /** Deployment variant: production adds the obstacle facets to NOTAM features (SPEC §9). */
  variant?: Variant;
}

export interface NotamInput {
  name: string;
  bytes: Uint8Array;
  fetchedAt: number;
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

  const notamReads = (options.notams ?? []).map((input) => {
    const read = readNotamSource(input.bytes, input.name);
    // an unreadable NOTAM feed must not pass for a fresh one: silence would turn conditional airspaces to No
    const why = read.diagnostics.find((d) => d.severity === "skipped");
    if (read.notams.length === 0 && why) throw new SourceError(input.name, why.code, `no usable NOTAM; ${why.message}`);
    sink.addAll(read.diagnostics);
    log.info("NOTAM source read", { source: input.name, format: read.format, notams: read.notams.length });
    return { input, read };
  });
  const sources = options.notams ? { ...options.sources, notam: "fresh" as const } : options.sources;
  const stage = options.notams
    ? notamStage(
        notamReads.flatMap((r) => r.read.notams),
        airspaces,
        { day: options.day, now: options.now, variant: options.variant ?? "production" },
        sink,
      )
    : undefined;

  const wanted = options.countries ? new Set(options.countries) : undefined;
  const selected = wanted ? airspaces.filter((a) => wanted.has(a.country)) : airspaces;
  const ctx = { day: options.day, now: options.now, sources };
  const features = [
    ...resolveDay(selected, ctx, stage?.linked),
    ...(stage?.features ?? []).filter((f) => !wanted || wanted.has(f.properties.country)),
  ];
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
  for (const [cc, b] of byCountry) {
    b.features.sort((x, y) => cmp(x.properties._id, y.properties._id));
    b.airspaceNotams = stage?.airspaceNotams.get(cc)?.size ?? 0;
  }
  const europeAirspaceNotams = new Set(
    [...byCountry.keys()].flatMap((cc) => [...(stage?.airspaceNotams.get(cc) ?? [])]),
  ).size;

  const manifestSources: Record<string, SourceEntry> = {};
  for (const [i, input] of inputs.entries()) {
    const r = reads[i]!;
    manifestSources[input.name] = {
      kind: "airspace",
      fetchedAt: isoInstant(input.fetchedAt),
      effective: null,
      stale: false,
      sha256: r.sha256,
      records: r.records.length,
    };
  }
  for (const { input, read } of notamReads) {
    manifestSources[input.name] = {
      kind: "notam",
      fetchedAt: isoInstant(input.fetchedAt),
      effective: null,
      stale: false,
      sha256: read.sha256,
      records: read.notams.length,
    };
  }
  const published = await publishVersion(
    deps.store,
    {
      byCountry,
      europeAirspaceNotams,
      date: options.day.date,
      publishedAt: options.now,
      sources: manifestSources,
      tier: "dynamic",
    },
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
    ...(stage ? { notams: stage.summary } : {}),
  });
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
