// One tier's publication (docs/design.md §5: the public dynamic tier, the internal static one): serialise the countries
// (publish/country-stage.ts), upload the version (publish/publish.ts), and keep what the next run of the same
// inputs starts from (src/day-cache.ts). A derivation and a refresh (src/refresh.ts) both publish through here.
import { entriesOf, layoutsOf, type TierHead } from "./day-cache.js";
import type { Feature } from "./model/contract.js";
import type { DiagnosticSink } from "./model/diagnostic.js";
import type { Decided, SourceEntry } from "./model/manifest.js";
import type { Tier } from "./model/vocab.js";
import type { Artifact, CountryFeatures } from "./publish/artifacts.js";
import type { Change } from "./publish/changes.js";
import { countryStage } from "./publish/country-stage.js";
import { type PublishProgress, type PublishResult, publishVersion } from "./publish/publish.js";
import type { StageCache } from "./publish/stage-cache.js";
import type { LeaseGuard } from "./store/publisher-lease.js";
import type { ObjectStore } from "./store/store.js";

/** What one tier publishes: countries to serialise (a derivation) and objects to publish as they are. */
export interface TierInput {
  tier: Tier;
  byCountry?: ReadonlyMap<string, CountryFeatures>;
  reused: ReadonlyMap<string, Artifact>;
  /** A renewed country's change from the collection an earlier run published (a refresh knows it). */
  known?: ReadonlyMap<string, { sha256: string; change: Change }>;
  europeAirspaceNotams?: number;
  /** Every source of the run: the static tier states the airspace sources only (it is made of nothing else). */
  sources: Record<string, SourceEntry>;
  /** Layouts of the countries this publication does not build (a refresh's earlier ones). */
  layouts?: TierHead["layouts"];
  /** Per country built, how its airspaces were decided (the dynamic tier of a derivation). */
  decided?: ReadonlyMap<string, Decided>;
}

export interface TierSteps {
  progress?: PublishProgress;
  /** Per country, per chunk, the first instant one of its features changes: resolved ahead by a derivation. */
  next(published: PublishResult): Promise<TierHead["next"]>;
  /** Done beside `next` once the version is uploaded: the dynamic tier's explanations. */
  alongside?(published: PublishResult): Promise<void>;
}

export interface PublishedTier {
  published: PublishResult;
  head: TierHead;
}

/** Uploads one tier's version and says what the next run of the same inputs starts from. */
export async function publishTier(
  store: ObjectStore,
  at: { date: string; now: number; lease?: LeaseGuard; tiles?: boolean },
  t: TierInput,
  steps: TierSteps,
): Promise<PublishedTier> {
  const notams = t.europeAirspaceNotams === undefined ? {} : { europeAirspaceNotams: t.europeAirspaceNotams };
  const published = await publishVersion(
    store,
    {
      byCountry: t.byCountry ?? new Map(),
      reused: t.reused,
      ...(t.known ? { known: t.known } : {}),
      ...notams,
      date: at.date,
      publishedAt: at.now,
      sources: tierSources(t.sources, t.tier),
      tier: t.tier,
      ...(t.decided ? { decided: t.decided } : {}),
      ...(at.tiles ? { tiles: true } : {}),
    },
    steps.progress ?? (() => {}),
    at.lease ? { lease: at.lease } : {},
  );
  const [, next] = await Promise.all([steps.alongside?.(published), steps.next(published)]);
  const layouts = { ...t.layouts, ...layoutsOf(published) };
  const head: TierHead = { tier: t.tier, countries: entriesOf(published), ...notams, next, layouts };
  return { published, head };
}

/** The sources a tier's manifest states. */
function tierSources(sources: Record<string, SourceEntry>, tier: Tier): Record<string, SourceEntry> {
  return tier === "dynamic"
    ? sources
    : Object.fromEntries(Object.entries(sources).filter(([, e]) => e.kind === "airspace"));
}

/** A derivation's tier: its features validated and serialised per country, then published. */
export async function deriveTier(
  features: readonly Feature[],
  o: {
    tier: Tier;
    countries?: readonly string[];
    /** Per country, the A/D NOTAMs its features carry (the dynamic tier): counted per country and over Europe. */
    notams?: ReadonlyMap<string, ReadonlySet<string>>;
    sources: Record<string, SourceEntry>;
    decided?: ReadonlyMap<string, Decided>;
  },
  run: {
    store: ObjectStore;
    at: { date: string; now: number; lease?: LeaseGuard; tiles?: boolean };
    sink: DiagnosticSink;
    cache?: StageCache;
  },
  steps: Omit<TierSteps, "next"> & { next(byCountry: ReadonlyMap<string, CountryFeatures>): Promise<TierHead["next"]> },
): Promise<PublishedTier & { byCountry: ReadonlyMap<string, CountryFeatures> }> {
  const { notams } = o;
  const countries = await countryStage(
    features,
    {
      tier: o.tier,
      date: run.at.date,
      ...(o.countries ? { countries: o.countries } : {}),
      airspaceNotams: notams ? (cc) => notams.get(cc)?.size ?? 0 : () => 0,
    },
    run.sink,
    run.cache ? { cache: run.cache, store: run.store } : undefined,
  );
  const { byCountry } = countries;
  const europe = notams && new Set([...byCountry.keys()].flatMap((cc) => [...(notams.get(cc) ?? [])])).size;
  const tier = await publishTier(
    run.store,
    run.at,
    {
      tier: o.tier,
      byCountry,
      reused: countries.artifacts,
      known: countries.known,
      sources: o.sources,
      ...(europe === undefined ? {} : { europeAirspaceNotams: europe }),
      ...(o.decided ? { decided: o.decided } : {}),
    },
    { ...steps, next: () => steps.next(byCountry) },
  );
  await countries.remember(tier.published.artifacts);
  return { ...tier, byCountry };
}
