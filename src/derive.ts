// Every stage of a day's publication from the sources' bytes (src/pipeline.ts loads this module when a run derives):
// read → normalise → link → resolve (with style) → validate and serialise per country → upload.
import { bundledFirIndex } from "./geo/fir-index.js";
import {
  DAY_KINDS,
  type DayHead,
  entriesOf,
  evidenceAt,
  explainDocument,
  keepAhead,
  keepDay,
  layoutsOf,
  windowOf,
} from "./incremental.js";
import { type ReadSummary, readAirspaceSource, readSummary, SourceError, type SourceRead } from "./ingest/read.js";
import { dropOlderVintages } from "./ingest/vintages.js";
import { applyServices } from "./ingest/yaixm.js";
import type { Feature } from "./model/contract.js";
import { DiagnosticSink } from "./model/diagnostic.js";
import { type Explanation, notamExplanation } from "./model/explain.js";
import type { Logger } from "./model/logger.js";
import type { SourceEntry } from "./model/manifest.js";
import { isoDay, isoInstant } from "./model/time.js";
import type { Tier } from "./model/vocab.js";
import { type NormalizedAirspace, normalizeAirspaces } from "./normalize/airspace.js";
import { type AirspaceInput, type Deps, type PublishDayOptions, SelectionError, TWO_HOURS } from "./pipeline.js";
import { countryStage } from "./publish/country-stage.js";
import { writeExplanations } from "./publish/explanations.js";
import { publishVersion } from "./publish/publish.js";
import type { StageCache } from "./publish/stage-cache.js";
import { buildReport, type RunReport } from "./report.js";
import { type ActivitySources, NowWindow, type Track } from "./resolve/activity.js";
import { aupForDay, linkAllocation } from "./resolve/aup.js";
import { resolveDay } from "./resolve/day.js";
import type { SourceEvidence } from "./resolve/evidence.js";
import { AirspaceLinker } from "./resolve/link.js";
import { type NotamStage, notamStage } from "./resolve/notam-stage.js";
import { type ReadSources, readDynamicSources, skipListed } from "./sources.js";

/** Every stage from the sources' bytes; `cache` and `key` keep what the next run may reuse. */
export async function derive(
  inputs: readonly AirspaceInput[],
  options: PublishDayOptions,
  deps: Deps,
  cache: StageCache | undefined,
  key: string | undefined,
): Promise<RunReport> {
  const { log } = deps;
  const { day, now } = options;
  const sink = new DiagnosticSink();
  const window = new NowWindow(now);
  // with the cache, how each feature was resolved: those whose state changes later in the day are resolved ahead
  const track = cache ? new Map<string, Track<Feature>>() : undefined;

  for (const s of options.skipped ?? []) {
    sink.add({ code: "input.skipped", severity: "warning", source: s.name, message: `${s.name}: skipped, ${s.why}` });
  }
  // read and normalise
  const { airspaces, sourcesRead } = await ingest(inputs, sink, log, cache);
  const reads = sourcesRead.map((s) => s.read);
  const readInputs = sourcesRead.map((s) => s.input);
  log.progress("normalise", airspaces.length, airspaces.length);

  // link: NOTAMs and AUP allocations to the airspaces they name
  const linker = new AirspaceLinker(airspaces);
  const { dynamic, stage } = readAndLink(options, linker, { window, ...(track ? { track } : {}) }, sink);
  const maxAge = options.maxSourceAgeMs ?? TWO_HOURS;
  const aup = options.aup ? aupForDay(dynamic.plans, day, linker) : undefined;
  const evidence = evidenceAt(dynamic.facts, aup?.covered, day, now, maxAge);
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
  // resolve (and style)
  const explanations = new Map<string, Explanation>();
  const features = [
    ...resolveDay(
      selected,
      { day, now, sources, window },
      {
        ...(stage ? { notams: stage.linked, unsure: stage.unsure } : {}),
        ...(aup ? { allocations: aup.linked } : {}),
        amcManaged,
      },
      explanations,
      track,
    ),
    ...(stage?.features ?? []).filter((f) => !wanted || wanted.has(f.properties.country)),
  ];
  log.progress("resolve", features.length, features.length);
  // graphical NOTAMs explain themselves by their kind; stored too, so the origin answers for every feature
  for (const f of features)
    if (!explanations.has(f.properties._id)) explanations.set(f.properties._id, notamExplanation(f));

  // validate and serialise, per country
  const reuse = cache ? { cache, store: deps.store } : undefined;
  const airspaceNotams = (cc: string) => stage?.airspaceNotams.get(cc)?.size ?? 0;
  const countries = await countryStage(
    features,
    { tier: "dynamic", date: day.date, ...(options.countries ? { countries: options.countries } : {}), airspaceNotams },
    sink,
    reuse,
  );
  const { byCountry } = countries;
  const europeAirspaceNotams = new Set(
    [...byCountry.keys()].flatMap((cc) => [...(stage?.airspaceNotams.get(cc) ?? [])]),
  ).size;

  const manifestSources = manifestSourcesOf(sourcesRead, dynamic.manifest, evidence);
  // upload
  const clock = deps.clock ? { clock: deps.clock } : {};
  const dynamicInput = { reused: countries.artifacts, europeAirspaceNotams, date: day.date, publishedAt: now };
  const published = await publishVersion(
    deps.store,
    { byCountry, ...dynamicInput, sources: manifestSources, tier: "dynamic" },
    (e) => (e.phase === "upload" ? log.progress("upload", e.done ?? 0, e.total) : log.progress(e.phase, 0)),
    clock,
  );
  const version = published.manifest.version;
  const ahead = async (tier: Tier, features: typeof byCountry, t: typeof track) =>
    cache && key && t ? keepAhead(cache, key, { date: day.date, tier, dayEnd: day.end }, features, t) : {};
  // the explanations compressed on zlib's threads while this one resolves the features ahead
  const [, next] = await Promise.all([
    writeExplanations(
      deps.store,
      explainDocument(version, day.date, now, evidence, explanations),
      published.manifest.first,
    ),
    ahead("dynamic", byCountry, track),
  ]);
  const tiers: DayHead["tiers"] = [
    { tier: "dynamic", countries: entriesOf(published), europeAirspaceNotams, next, layouts: layoutsOf(published) },
  ];
  await countries.remember(published.artifacts);
  if (options.staticTier) {
    // the airspace sources alone: no NOTAM or AUP links, their sources taken as absent (hence Unknown where they matter)
    const staticTrack = cache ? new Map<string, Track<Feature>>() : undefined;
    const staticFeatures = resolveDay(
      selected,
      { day, now, sources: { notam: [], aup: [] }, window },
      {},
      undefined,
      staticTrack,
    );
    const staticCountries = await countryStage(
      staticFeatures,
      {
        tier: "static",
        date: day.date,
        ...(options.countries ? { countries: options.countries } : {}),
        airspaceNotams: () => 0,
      },
      sink,
      reuse,
    );
    const airspaceSources = Object.fromEntries(
      Object.entries(manifestSources).filter(([, e]) => e.kind === "airspace"),
    );
    const p = await publishVersion(
      deps.store,
      {
        byCountry: staticCountries.byCountry,
        reused: staticCountries.artifacts,
        date: day.date,
        publishedAt: now,
        sources: airspaceSources,
        tier: "static",
      },
      () => {},
      clock,
    );
    const next = await ahead("static", staticCountries.byCountry, staticTrack);
    tiers.push({ tier: "static", countries: entriesOf(p), next, layouts: layoutsOf(p) });
    await staticCountries.remember(p.artifacts);
  }
  log.progress("published", 1, 1);
  const report = buildReport({
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
  if (cache && key) {
    const entry = {
      evidence: JSON.stringify(evidence),
      facts: dynamic.facts,
      ...(aup ? { aupCovered: aup.covered } : {}),
    };
    const head = { at: now, window: windowOf(window), version, sources: manifestSources, tiers, report };
    keepDay(cache, key, day.date, entry, head);
    const before = isoDay(Math.floor(day.start / 86_400_000) - 1);
    for (const kind of [...DAY_KINDS, "country"]) await cache.prune(kind, before);
  }
  await cache?.settled();
  if (cache && cache.counts.unwritten > 0) {
    log.info("stage cache not written", {
      entries: cache.counts.unwritten,
      note: "the run goes on; the next derives again",
    });
  }
  return report;
}

/**
 * The airspace inputs read and their records normalised. Of each source only its summary is kept: the records read
 * (~26 MB of heap at Europe scale, their geometry mostly shared with the airspaces) go when this returns.
 */
async function ingest(
  inputs: readonly AirspaceInput[],
  sink: DiagnosticSink,
  log: Logger,
  cache: StageCache | undefined,
): Promise<{
  airspaces: NormalizedAirspace[];
  sourcesRead: Array<{ input: Omit<AirspaceInput, "bytes">; read: ReadSummary }>;
}> {
  const sourcesRead = await readAirspaces(inputs, sink, log, cache);
  const reads = sourcesRead.map((s) => s.read);
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
  return { airspaces, sourcesRead: sourcesRead.map(({ input, read }) => ({ input, read: readSummary(read) })) };
}

/**
 * The dynamic sources read, and the day's NOTAMs linked to the airspaces or made features. The NOTAMs read are not
 * kept: the stage keeps what the run needs of them (the features resolved ahead, their timing only).
 */
function readAndLink(
  options: PublishDayOptions,
  linker: AirspaceLinker,
  at: { window: NowWindow; track?: Map<string, Track<Feature>> },
  sink: DiagnosticSink,
): { dynamic: Omit<ReadSources, "notams">; stage?: NotamStage } {
  const { notams, ...dynamic } = readDynamicSources(
    { ...(options.notams ? { notams: options.notams } : {}), ...(options.aup ? { aup: options.aup } : {}) },
    sink,
  );
  options.sourcesRead?.();
  if (!options.notams) return { dynamic };
  const { day, now } = options;
  const stage = notamStage(notams, linker, { day, now, variant: options.variant ?? "production", ...at }, sink);
  return { dynamic, stage };
}

/** The manifest's `sources`: every airspace source read, and the dynamic ones with their standing at `now`. */
function manifestSourcesOf(
  read: ReadonlyArray<{ input: Omit<AirspaceInput, "bytes">; read: ReadSummary }>,
  dynamic: Record<string, SourceEntry>,
  evidence: readonly SourceEvidence[],
): Record<string, SourceEntry> {
  const out: Record<string, SourceEntry> = {};
  for (const { input, read: r } of read) {
    out[input.name] = {
      kind: "airspace",
      fetchedAt: isoInstant(input.fetchedAt),
      effective: null,
      stale: input.stale === true,
      sha256: r.sha256,
      records: r.records,
    };
  }
  for (const [name, e] of Object.entries(dynamic)) {
    const standing = evidence.find((x) => x.name === name);
    out[name] = {
      ...e,
      stale: standing?.standing !== "fresh",
      ...(standing ? { standing: standing.standing } : {}),
      ...(standing?.reason ? { reason: standing.reason } : {}),
    };
  }
  return out;
}

/**
 * Reads each airspace input, skipping listed files that are not data (`input.skipped`), then drops the older of two
 * vintages of one country (DE 2022 and DE 2025: the newer only, and a warning).
 */
async function readAirspaces(
  inputs: readonly AirspaceInput[],
  sink: DiagnosticSink,
  log: Logger,
  cache: StageCache | undefined,
): Promise<Array<{ input: Omit<AirspaceInput, "bytes">; read: SourceRead }>> {
  const out: Array<{ input: Omit<AirspaceInput, "bytes">; read: SourceRead }> = [];
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
    // what the run keeps of the input: not its bytes (PublishDayOptions.sourcesRead)
    const { bytes: _bytes, ...kept } = input;
    out.push({ input: kept, read });
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
