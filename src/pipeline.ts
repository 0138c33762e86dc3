// The publication pipeline for one UTC day, in stage order (DESIGN §1):
// ingest → normalise → link NOTAMs and AUP → resolve → validate → publish. Inputs are bytes and plain
// values; the entry points in jobs/ read files, the clock and the environment.
import { bundledFirIndex } from "./geo/fir-index.js";
import { readAirspaceSource, SourceError, type SourceRead } from "./ingest/read.js";
import { dropOlderVintages } from "./ingest/vintages.js";
import { applyServices } from "./ingest/yaixm.js";
import type { Feature } from "./model/contract.js";
import { DiagnosticSink } from "./model/diagnostic.js";
import { EXPLAIN_SCHEMA, type ExplainDocument, type Explanation, notamExplanation } from "./model/explain.js";
import type { Logger } from "./model/logger.js";
import type { SourceEntry } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import { normalizeAirspaces } from "./normalize/airspace.js";
import { writeExplanations } from "./publish/explanations.js";
import { publishVersion } from "./publish/publish.js";
import { ReadCache } from "./publish/read-cache.js";
import type { ObjectStore } from "./publish/store.js";
import { validateFeature } from "./publish/validate.js";
import { buildReport, type RunReport } from "./report.js";
import type { ActivitySources } from "./resolve/activity.js";
import { aupForDay, linkAllocation } from "./resolve/aup.js";
import { resolveDay } from "./resolve/day.js";
import type { SourceEvidence } from "./resolve/evidence.js";
import { standingOf } from "./resolve/evidence.js";
import { AirspaceLinker } from "./resolve/link.js";
import type { Variant } from "./resolve/notam-feature.js";
import { notamStage } from "./resolve/notam-stage.js";
import { type DynamicInput, readDynamicSources, skipListed } from "./sources.js";

export interface AirspaceInput {
  /** Source name, for diagnostics and the manifest (a file's base name). */
  name: string;
  bytes: Uint8Array;
  /** Country named by the operator for this source (`DE=file.txt`). */
  country?: string;
  /** When the source was fetched or read. */
  fetchedAt: number;
  /** A fallback copy (its fetch failed). */
  stale?: boolean;
  /** Found by listing a directory: a file no reader recognises is skipped (`input.skipped`), not fatal. */
  listed?: boolean;
}

export interface PublishDayOptions {
  day: UtcDay;
  /** Reference instant for isActive; also the publication time. */
  now: number;
  /** Publish only these countries (upper-case alpha-2); all when absent. */
  countries?: readonly string[];
  /** Sources to assume when the sources themselves are not given (tests): `{notam: [], aup: []}` is none. */
  sources: ActivitySources;
  /** NOTAM sources (ICAO text or JSON lines, gzip or not). */
  notams?: readonly DynamicInput[];
  /** AUP/UUP sources (NM RSA table CSV or B2B XML). */
  aup?: readonly DynamicInput[];
  /** A NOTAM or AUP source older than this (ms) is stale. @default 2 hours */
  maxSourceAgeMs?: number;
  /** Deployment variant: production adds the obstacle facets to NOTAM features (SPEC §9). @default "production" */
  variant?: Variant;
  /** Files of the listed directories that are not data (a README, PROVENANCE.md, a test file): one diagnostic each. */
  skipped?: ReadonlyArray<{ name: string; why: string }>;
  /** Also publish the internal static tier (DESIGN §5): the airspaces alone, before NOTAMs and AUP. @default false */
  staticTier?: boolean;
}

/** A `countries` selection the inputs cannot serve: bad usage (exit 2), never a silent empty publication. */
export class SelectionError extends Error {
  override readonly name = "SelectionError";
  readonly usage = true;
}

/** The type an earlier version exported for NOTAM inputs. */
export type NotamInput = DynamicInput;

const TWO_HOURS = 2 * 3_600_000;

export async function publishDay(
  inputs: readonly AirspaceInput[],
  options: PublishDayOptions,
  deps: {
    store: ObjectStore;
    log: Logger;
    clock?: () => number;
    /** Digest of the running code: with it, what was read from unchanged sources is taken from the store's cache. */
    codeVersion?: string;
  },
): Promise<RunReport> {
  const { log } = deps;
  const { day, now } = options;
  const sink = new DiagnosticSink();

  for (const s of options.skipped ?? []) {
    sink.add({ code: "input.skipped", severity: "warning", source: s.name, message: `${s.name}: skipped, ${s.why}` });
  }
  const cache = deps.codeVersion ? new ReadCache(deps.store, deps.codeVersion) : undefined;
  const sourcesRead = await readAirspaces(inputs, sink, log, cache);
  const reads = sourcesRead.map((s) => s.read);
  const readInputs = sourcesRead.map((s) => s.input);
  // a YAIXM service file names the airspaces of the airspace file by id: their frequencies
  const services = reads.flatMap((r) => r.services ?? []);
  if (services.length > 0) {
    const n = applyServices(
      reads.flatMap((r) => r.records),
      services,
    );
    log.info("services", { services: services.length, airspaces: n });
  }
  const countryBySource = new Map(inputs.flatMap((s) => (s.country ? [[s.name, s.country] as const] : [])));
  const airspaces = normalizeAirspaces(
    reads.flatMap((r) => r.records),
    { firs: bundledFirIndex(), countryBySource },
    sink,
  );
  log.progress("normalise", airspaces.length, airspaces.length);

  const dynamic = readDynamicSources(
    { ...(options.notams ? { notams: options.notams } : {}), ...(options.aup ? { aup: options.aup } : {}) },
    sink,
  );
  const maxAge = options.maxSourceAgeMs ?? TWO_HOURS;
  const linker = new AirspaceLinker(airspaces);
  const stage = options.notams
    ? notamStage(dynamic.notams, linker, { day, now, variant: options.variant ?? "production" }, sink)
    : undefined;
  const aup = options.aup ? aupForDay(dynamic.plans, day, linker) : undefined;
  // an AUP is evidence only with the plans of the day (and of the day before while 00:00–06:00 matters)
  const planGap = aup && !(aup.covered.late && (aup.covered.early || now >= day.start + 6 * 3_600_000));
  const evidence = dynamic.facts.map((f) => {
    const e = standingOf(f, now, maxAge);
    return f.kind === "aup" && planGap && e.standing === "fresh"
      ? { ...e, standing: "stale" as const, reason: `no plan covers every part of ${day.date} still to come` }
      : e;
  });
  const sources: ActivitySources = {
    notam: options.notams ? evidence.filter((e) => e.kind === "notam") : options.sources.notam,
    aup: options.aup ? evidence.filter((e) => e.kind === "aup") : options.sources.aup,
  };
  // with the same Z-buffer rule as the allocations: EDR10AZ in the plan makes ED-R 10A AMC-managed
  const amcManaged = new Set(
    aup ? [...aup.designators].flatMap((d) => linkAllocation(d, linker).map((a) => a.id)) : [],
  );

  const wanted = options.countries ? new Set(options.countries) : undefined;
  const selected = wanted ? airspaces.filter((a) => wanted.has(a.country)) : airspaces;
  const held = new Set(airspaces.map((a) => a.country));
  const absent = [...(wanted ?? [])].filter((c) => !held.has(c));
  if (absent.length > 0) {
    const have = [...held].sort().join(", ") || "none";
    throw new SelectionError(`--countries ${absent.join(",")}: no airspace of it in the inputs (they hold ${have})`);
  }
  const explanations = new Map<string, Explanation>();
  const features = [
    ...resolveDay(
      selected,
      { day, now, sources },
      { ...(stage ? { notams: stage.linked } : {}), ...(aup ? { allocations: aup.linked } : {}), amcManaged },
      explanations,
    ),
    ...(stage?.features ?? []).filter((f) => !wanted || wanted.has(f.properties.country)),
  ];
  log.progress("resolve", features.length, features.length);
  // graphical NOTAMs explain themselves by their kind; stored too, so the origin answers for every feature
  for (const f of features)
    if (!explanations.has(f.properties._id)) explanations.set(f.properties._id, notamExplanation(f));

  const byCountry = validByCountry(features, sink, options.countries);
  for (const [cc, b] of byCountry) b.airspaceNotams = stage?.airspaceNotams.get(cc)?.size ?? 0;
  const europeAirspaceNotams = new Set(
    [...byCountry.keys()].flatMap((cc) => [...(stage?.airspaceNotams.get(cc) ?? [])]),
  ).size;

  const manifestSources: Record<string, SourceEntry> = {};
  for (const [i, input] of readInputs.entries()) {
    const r = reads[i]!;
    manifestSources[input.name] = {
      kind: "airspace",
      fetchedAt: isoInstant(input.fetchedAt),
      effective: null,
      stale: input.stale === true,
      sha256: r.sha256,
      records: r.records.length,
    };
  }
  for (const [name, e] of Object.entries(dynamic.manifest)) {
    const standing = evidence.find((x) => x.name === name);
    manifestSources[name] = {
      ...e,
      stale: standing?.standing !== "fresh",
      ...(standing ? { standing: standing.standing } : {}),
      ...(standing?.reason ? { reason: standing.reason } : {}),
    };
  }
  const published = await publishVersion(
    deps.store,
    { byCountry, europeAirspaceNotams, date: day.date, publishedAt: now, sources: manifestSources, tier: "dynamic" },
    (e) => (e.phase === "upload" ? log.progress("upload", e.done ?? 0, e.total) : log.progress(e.phase, 0)),
    deps.clock ? { clock: deps.clock } : {},
  );
  await writeExplanations(
    deps.store,
    explainDocument(published.manifest.version, day.date, now, evidence, explanations),
    published.manifest.first,
  );
  if (options.staticTier) {
    // the airspace sources alone: no NOTAM or AUP links, their sources taken as absent (hence Unknown where they matter)
    const staticFeatures = resolveDay(selected, { day, now, sources: { notam: [], aup: [] } });
    const staticByCountry = validByCountry(staticFeatures, sink, options.countries);
    const airspaceSources = Object.fromEntries(
      Object.entries(manifestSources).filter(([, e]) => e.kind === "airspace"),
    );
    await publishVersion(
      deps.store,
      { byCountry: staticByCountry, date: day.date, publishedAt: now, sources: airspaceSources, tier: "static" },
      () => {},
      deps.clock ? { clock: deps.clock } : {},
    );
  }
  log.progress("published", 1, 1);
  return buildReport({
    reads,
    inputs: readInputs,
    airspaces: airspaces.length,
    selected: selected.length,
    byCountry,
    sink,
    published,
    options,
    sources,
    ...(stage ? { notams: stage.summary } : {}),
    ...(aup
      ? {
          aup: {
            plans: dynamic.plans.length,
            allocationsOnTheDay: aup.allocations,
            linked: aup.linkedCount,
            linkedPerCountry: aup.perCountry,
            unlinkedDesignators: aup.unlinked,
          },
        }
      : {}),
  });
}

/**
 * Reads each airspace input, skipping listed files that are not data (`input.skipped`), then drops the older of two
 * vintages of one country (DE 2022 and DE 2025: the newer only, and a warning).
 */
async function readAirspaces(
  inputs: readonly AirspaceInput[],
  sink: DiagnosticSink,
  log: Logger,
  cache: ReadCache | undefined,
): Promise<Array<{ input: AirspaceInput; read: SourceRead }>> {
  const out: Array<{ input: AirspaceInput; read: SourceRead }> = [];
  for (const [i, input] of inputs.entries()) {
    let read: SourceRead;
    const hits = cache?.counts.hits ?? 0;
    try {
      const derive = () => readAirspaceSource(input.bytes, input.name);
      read = cache ? await cache.value("airspace-read", input.name, input.bytes, derive) : derive();
    } catch (e) {
      if (skipListed(input, e, sink)) continue;
      throw e;
    }
    sink.addAll(read.diagnostics);
    log.progress("ingest", i + 1, inputs.length);
    log.info("source read", {
      source: input.name,
      format: read.format,
      records: read.records.length,
      ...(cache ? { cached: cache.counts.hits > hits } : {}),
    });
    out.push({ input, read });
  }
  if (cache && cache.counts.unwritten > 0) {
    log.info("read cache not written", {
      sources: cache.counts.unwritten,
      note: "the run goes on; the next reads again",
    });
  }
  if (inputs.length > 0 && out.length === 0) {
    throw new SourceError("--airspaces", "input.none", "no airspace file among the inputs; see input.skipped");
  }
  const vintages = dropOlderVintages(
    out.map(({ input: { name, country }, read }) => ({ name, records: read.records, ...(country ? { country } : {}) })),
  );
  sink.addAll(vintages.diagnostics);
  for (const d of vintages.diagnostics) log.warn("older vintage dropped", { source: d.source ?? "", why: d.message });
  return vintages.keep.map((i) => out[i]!);
}

function explainDocument(
  version: string,
  date: string,
  now: number,
  evidence: readonly SourceEvidence[],
  explanations: ReadonlyMap<string, Explanation>,
): ExplainDocument {
  return {
    schema: EXPLAIN_SCHEMA,
    version,
    date,
    now: isoInstant(now),
    sources: evidence.map((e) => ({
      name: e.name,
      kind: e.kind,
      standing: e.standing,
      asOf: e.asOf === undefined ? null : isoInstant(e.asOf),
      asOfFrom: e.asOfFrom,
      coverage: e.coverage === "all" ? ["*"] : [...e.coverage],
      ...(e.reason ? { reason: e.reason } : {}),
    })),
    features: Object.fromEntries([...explanations].sort(([a], [b]) => cmp(a, b))),
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Features that pass the contract, per home country, sorted by id (a requested country without features gets an
 * empty list); each one that fails is left out with a `contract.violation` diagnostic: nothing invalid is published.
 */
function validByCountry(
  features: readonly Feature[],
  sink: DiagnosticSink,
  countries: readonly string[] = [],
): Map<string, { features: Feature[]; airspaceNotams: number }> {
  const out = new Map<string, { features: Feature[]; airspaceNotams: number }>();
  for (const cc of countries) out.set(cc, { features: [], airspaceNotams: 0 });
  for (const f of features) {
    const violations = validateFeature(f);
    if (violations.length > 0) {
      const first = violations[0]!;
      const more = violations.length > 1 ? ` (+${violations.length - 1} more)` : "";
      const message = `${first.path}: ${first.message}${more}`;
      sink.add({
        code: "contract.violation",
        severity: "skipped",
        message,
        id: f.properties._id,
        name: f.properties.name,
      });
      continue;
    }
    const bucket = out.get(f.properties.country) ?? { features: [], airspaceNotams: 0 };
    out.set(f.properties.country, bucket);
    bucket.features.push(f);
  }
  for (const b of out.values()) b.features.sort((x, y) => cmp(x.properties._id, y.properties._id));
  return out;
}
