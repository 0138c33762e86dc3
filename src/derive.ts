// Every stage of a day's publication from the sources' bytes (src/pipeline.ts loads this module when a run derives):
// read → normalise → link → resolve (with style) → validate and serialise per country → upload, each a named stage.
import { type DayHead, keepAhead, keepDay, pruneDays, type TierHead, windowOf } from "./day-cache.js";
import type { Feature } from "./model/contract.js";
import { DiagnosticSink } from "./model/diagnostic.js";
import type { Explanation } from "./model/explain.js";
import type { SourceEntry } from "./model/manifest.js";
import type { Tier } from "./model/vocab.js";
import type { NormalizedAirspace } from "./normalize/airspace.js";
import type { AirspaceInput, Deps, PublishDayOptions } from "./options.js";
import type { CountryFeatures } from "./publish/artifacts.js";
import { explainDocument, writeExplanations } from "./publish/explanations.js";
import type { StageCache } from "./publish/stage-cache.js";
import {
  type Linked,
  linkStage,
  manifestSourcesOf,
  normaliseStage,
  readStage,
  type SourceReadSummary,
} from "./read-stage.js";
import { buildReport, nextChangeAt, type RunReport } from "./report.js";
import { decidedByCountry } from "./resolve/basis.js";
import { resolveDay } from "./resolve/day.js";
import { explainSources } from "./resolve/evidence.js";
import { NowWindow, type Track } from "./resolve/now-window.js";
import { resolveStage, selectCountries } from "./resolve-stage.js";
import { deriveTier, type PublishedTier } from "./tier.js";

/** What the stages of one derivation share: its diagnostics, window of `now`, and what the next run may reuse. */
interface Run {
  options: PublishDayOptions;
  deps: Deps;
  sink: DiagnosticSink;
  window: NowWindow;
  /** With the cache, how each feature was resolved: those whose state changes later in the day are resolved ahead. */
  track?: Map<string, Track<Feature>>;
  cache?: StageCache;
  key?: string;
}

/** Every stage from the sources' bytes; `cache` and `key` keep what the next run may reuse. */
export async function derive(
  inputs: readonly AirspaceInput[],
  options: PublishDayOptions,
  deps: Deps,
  cache: StageCache | undefined,
  key: string | undefined,
): Promise<RunReport> {
  const reuse = cache && key ? { cache, key, track: new Map<string, Track<Feature>>() } : {};
  const run: Run = { options, deps, sink: new DiagnosticSink(), window: new NowWindow(options.now), ...reuse };
  const { sink } = run;
  const { log } = deps;
  const read = normaliseStage(await readStage(inputs, options.skipped ?? [], sink, log, cache), sink, log);
  const linked = linkStage(read.airspaces, options, run, sink);
  const selected = selectCountries(read.airspaces, options.countries);
  const { features, explanations } = resolveStage(selected, linked, options, { ...run, log });
  const sources = manifestSourcesOf(read.sourcesRead, linked.dynamic.manifest, linked.evidence);
  const dynamic = await dynamicTier(run, features, explanations, linked, sources);
  const tiers = [dynamic.head];
  if (options.staticTier) tiers.push(await staticTier(run, selected, sources));
  log.progress("published", 1, 1);
  const report = reportOf(run, read, selected.length, linked, dynamic);
  const { version } = dynamic.published.manifest;
  await keepRun(run, linked, { at: options.now, window: windowOf(run.window), version, sources, tiers, report });
  return report;
}

/** The public tier: serialised and uploaded, then its explanations written while its features are resolved ahead. */
async function dynamicTier(
  run: Run,
  features: readonly Feature[],
  explanations: ReadonlyMap<string, Explanation>,
  linked: Linked,
  sources: Record<string, SourceEntry>,
): Promise<PublishedTier & { byCountry: ReadonlyMap<string, CountryFeatures> }> {
  const { options, deps } = run;
  const { log, store } = deps;
  return deriveTier(
    features,
    {
      tier: "dynamic",
      ...(options.countries ? { countries: options.countries } : {}),
      notams: linked.stage?.airspaceNotams ?? new Map(),
      sources,
      decided: decidedByCountry(features, explanations),
    },
    tierRun(run),
    {
      progress: (e) => (e.phase === "upload" ? log.progress("upload", e.done ?? 0, e.total) : log.progress(e.phase, 0)),
      // the explanations compressed on zlib's threads while this one resolves the features ahead
      alongside: (p) => {
        const { version, first } = p.manifest;
        const doc = explainDocument(
          version,
          options.day.date,
          options.now,
          explainSources(linked.evidence),
          explanations,
        );
        return writeExplanations(store, doc, first);
      },
      next: (byCountry) => ahead(run, "dynamic", byCountry, run.track),
    },
  );
}

/** The internal tier: the airspace sources alone, no NOTAM or AUP links, their sources taken as absent. */
async function staticTier(
  run: Run,
  selected: readonly NormalizedAirspace[],
  sources: Record<string, SourceEntry>,
): Promise<TierHead> {
  const { day, now, countries } = run.options;
  const track = run.cache ? new Map<string, Track<Feature>>() : undefined;
  const context = { day, now, sources: { notam: [], aup: [] }, window: run.window };
  const features = resolveDay(selected, context, {}, undefined, track);
  const tier = await deriveTier(
    features,
    { tier: "static", ...(countries ? { countries } : {}), sources },
    tierRun(run),
    { next: (byCountry) => ahead(run, "static", byCountry, track) },
  );
  return tier.head;
}

const tierRun = (run: Run) => ({
  store: run.deps.store,
  at: {
    date: run.options.day.date,
    now: run.options.now,
    tiles: run.options.tiles === true,
    ...(run.deps.lease ? { lease: run.deps.lease } : {}),
  },
  sink: run.sink,
  ...(run.cache ? { cache: run.cache } : {}),
});

/** With the cache, the tier's features resolved ahead and kept for the day's refreshes. */
async function ahead(
  run: Run,
  tier: Tier,
  byCountry: ReadonlyMap<string, CountryFeatures>,
  track: ReadonlyMap<string, Track<Feature>> | undefined,
): Promise<TierHead["next"]> {
  const { cache, key, options } = run;
  if (!cache || !key || !track) return {};
  return keepAhead(cache, key, { date: options.day.date, tier, dayEnd: options.day.end }, byCountry, track);
}

function reportOf(
  run: Run,
  read: { airspaces: readonly NormalizedAirspace[]; sourcesRead: readonly SourceReadSummary[] },
  selected: number,
  linked: Linked,
  dynamic: PublishedTier & { byCountry: ReadonlyMap<string, CountryFeatures> },
): RunReport {
  const { stage, aup } = linked;
  const report = buildReport({
    reads: read.sourcesRead.map((s) => s.read),
    inputs: read.sourcesRead.map((s) => s.input),
    airspaces: read.airspaces.length,
    selected,
    byCountry: dynamic.byCountry,
    sink: run.sink,
    published: dynamic.published,
    options: run.options,
    sources: linked.sources,
    ...(stage ? { notams: stage.summary } : {}),
    ...(aup
      ? {
          aup: {
            plans: linked.dynamic.plans.length,
            allocationsOnTheDay: aup.allocations,
            linked: aup.linkedCount,
            linkedPerCountry: aup.perCountry,
            unlinkedDesignators: aup.unlinked,
          },
        }
      : {}),
  });
  return { ...report, nextChangeAt: nextChangeAt(windowOf(run.window)[1], linked.standingChange) };
}

/** With the cache, what the next run of these inputs starts from; waits for every write of the stage cache. */
async function keepRun(run: Run, linked: Linked, head: DayHead): Promise<void> {
  const { cache, key, options, deps } = run;
  if (cache && key) {
    const entry = {
      evidence: JSON.stringify(linked.evidence),
      facts: linked.dynamic.facts,
      ...(linked.aup ? { aupCovered: linked.aup.covered } : {}),
    };
    keepDay(cache, key, options.day.date, entry, head);
    await pruneDays(cache, options.day);
  }
  await cache?.settled();
  if (cache && cache.counts.unwritten > 0) {
    deps.log.info("stage cache not written", {
      entries: cache.counts.unwritten,
      note: "the run goes on; the next derives again",
    });
  }
}
