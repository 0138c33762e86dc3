// Whole-day reuse (issue 24): a run whose inputs are those of an earlier run of the same day (the same source
// bytes and options, the same code) and whose sources' standings are the same at its `now` (fresh, stale and why)
// reads, links and resolves nothing. Within the earlier run's window (resolve/activity.ts NowWindow: no feature's
// last interval ends between the two instants) it publishes that run's objects again; past it, the features whose
// resolution changed are taken from those resolved ahead (src/ahead.ts) and only their countries are serialised.
// Entry: `internal/cache/day/<date>/<key>.json.gz`, rewritten by each run.

import { gunzipSync, inflateRawSync, constants as zlibConstants } from "node:zlib";
import { type Ahead, advanceCountry, firstChange, resolveAhead, withPiece } from "./ahead.js";
import type { Feature, FeatureCollection } from "./model/contract.js";
import { EXPLAIN_SCHEMA, type ExplainDocument, type Explanation } from "./model/explain.js";
import type { Logger } from "./model/logger.js";
import type { CountryEntry, SourceEntry } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import type { Tier } from "./model/vocab.js";
import type { AirspaceInput, PublishDayOptions } from "./pipeline.js";
import type { Artifact, CountryFeatures } from "./publish/artifacts.js";
import { storedArtifact } from "./publish/artifacts.js";
import { readExplanations, writeExplanations } from "./publish/explanations.js";
import { blocksOf } from "./publish/openair.js";
import { type PublishResult, publishVersion } from "./publish/publish.js";
import type { StageCache } from "./publish/stage-cache.js";
import type { ObjectStore } from "./publish/store.js";
import { againReport, type RunReport } from "./report.js";
import type { NowWindow, Track } from "./resolve/activity.js";
import { type SourceEvidence, type SourceFacts, standingOf } from "./resolve/evidence.js";
import type { DynamicInput } from "./sources.js";

/** What a deriving run keeps once: the sources' standings, which a later run must find the same. */
export interface DayEntry {
  /** The sources' evidence as the run saw it (JSON): at another `now` it must be the same. */
  evidence: string;
  facts: SourceFacts[];
  /** Whether the AUP plans cover the day (late) and its first hours (early), when AUP sources were given. */
  aupCovered?: { early: boolean; late: boolean };
}

/** What each run of the day's inputs writes: the publication the next run starts from. */
export interface DayHead {
  /** The `now` of that publication. */
  at: number;
  /** Its window of `now`, null for unbounded. */
  window: [number | null, number | null];
  /** The version it published: its explanations are this run's. */
  version: string;
  /** The manifest's sources (their `fetchedAt` is the new run's). */
  sources: Record<string, SourceEntry>;
  tiers: TierHead[];
  report: RunReport;
}

export interface TierHead {
  tier: Tier;
  countries: Record<string, CountryEntry>;
  europeAirspaceNotams?: number;
  /**
   * Per country with features resolved ahead (kept under `ahead/<date>/<tier>-<cc>`), the first instant after `at`
   * at which one of them changes; a country not named changes no more that day.
   */
  next: Record<string, number>;
  /** Per country, its OpenAir blocks per feature, where known: a refresh renders only the changed features'. */
  openair: Record<string, number[]>;
}

/** A reusable run: its objects checked in the store, its explanations read back, what `now` changed. */
export interface Reuse {
  evidence: SourceEvidence[];
  tiers: Array<{
    tier: Tier;
    reused: Map<string, Artifact>;
    /** Countries where a feature changed at `now`, with all their features. */
    byCountry: Map<string, CountryFeatures>;
    /** The changed countries' features as the earlier run published them. */
    known: Map<string, { sha256: string; features: Feature[] }>;
    europeAirspaceNotams?: number;
    next: Record<string, number>;
    openair: Record<string, number[]>;
  }>;
  head: DayHead;
  window: DayHead["window"];
  explanations: Record<string, Explanation>;
  sources: Record<string, SourceEntry>;
  /** Features that changed at `now`. */
  changed: number;
  report: RunReport;
}

/** The stage cache's folders of a day: its entry, its head, and each country's features resolved ahead. */
export const DAY_KINDS = ["day", "head", "ahead"] as const;
const dayFolder = (date: string) => `day/${date}`;
const headFolder = (date: string) => `head/${date}`;
const aheadFolder = (date: string, tier: Tier, cc: string) => `ahead/${date}/${tier}-${cc}`;

/** Writes what a deriving run keeps for the next: the day's entry and the head of its publication. */
export async function keepDay(cache: StageCache, key: string, date: string, entry: DayEntry, head: DayHead) {
  await cache.put(dayFolder(date), key, entry);
  await cache.put(headFolder(date), key, head);
}

/**
 * Resolves each country's features ahead and keeps them; per country that has some, the first instant one
 * changes (a `TierHead`'s `next`).
 */
export async function keepAhead(
  cache: StageCache,
  key: string,
  o: { date: string; tier: Tier; dayEnd: number },
  byCountry: ReadonlyMap<string, { features: readonly Feature[] }>,
  track: ReadonlyMap<string, Track<Feature>>,
): Promise<Record<string, number>> {
  const next: Record<string, number> = {};
  for (const [cc, { features }] of byCountry) {
    const ahead = resolveAhead(cc, features, track, o.dayEnd);
    const first = firstChange(ahead);
    if (first === null) continue;
    await cache.put(aheadFolder(o.date, o.tier, cc), key, ahead);
    next[cc] = first;
  }
  return next;
}

/** The entry's key: the code, the options that shape the output, and every input's bytes and declarations. */
export function dayKey(cache: StageCache, inputs: readonly AirspaceInput[], o: PublishDayOptions): string {
  const dynamic = (i: DynamicInput) =>
    JSON.stringify([i.name, i.asOf ?? null, i.firs ?? null, i.plan ?? null, i.stale === true, i.listed === true]);
  const parts: Array<string | Uint8Array> = [
    JSON.stringify({
      date: o.day.date,
      countries: o.countries ?? null,
      variant: o.variant ?? "production",
      maxSourceAgeMs: o.maxSourceAgeMs ?? null,
      staticTier: o.staticTier === true,
      skipped: o.skipped ?? [],
      notams: o.notams ? o.notams.length : null,
      aup: o.aup ? o.aup.length : null,
      sources: o.notams && o.aup ? null : o.sources,
    }),
  ];
  for (const i of inputs) {
    parts.push(JSON.stringify([i.name, i.country ?? null, i.stale === true, i.listed === true]), i.bytes);
  }
  for (const i of [...(o.notams ?? []), ...(o.aup ?? [])]) parts.push(dynamic(i), i.bytes);
  return cache.key(...parts);
}

/** The sources' standings at `now`; an AUP is evidence only with the plans of the day still to come. */
export function evidenceAt(
  facts: readonly SourceFacts[],
  aupCovered: { early: boolean; late: boolean } | undefined,
  day: UtcDay,
  now: number,
  maxAgeMs: number,
): SourceEvidence[] {
  // the plans of the day, and of the day before while 00:00–06:00 matters
  const planGap = aupCovered && !(aupCovered.late && (aupCovered.early || now >= day.start + 6 * 3_600_000));
  return facts.map((f) => {
    const e = standingOf(f, now, maxAgeMs);
    return f.kind === "aup" && planGap && e.standing === "fresh"
      ? { ...e, standing: "stale" as const, reason: `no plan covers every part of ${day.date} still to come` }
      : e;
  });
}

export const windowOf = (w: NowWindow): DayHead["window"] => windowFrom([w.lo, w.hi]);

/** The earlier run to publish again at `now`, or why it must be derived (for the log). */
export async function reusable(
  cache: StageCache,
  store: ObjectStore,
  key: string,
  inputs: readonly AirspaceInput[],
  o: PublishDayOptions,
  maxAgeMs: number,
): Promise<Reuse | { miss: string }> {
  const date = o.day.date;
  const entry = await cache.get<DayEntry>(dayFolder(date), key);
  const head = entry && (await cache.get<DayHead>(headFolder(date), key));
  if (!entry || !head) return { miss: "no earlier run of these inputs" };
  const evidence = evidenceAt(entry.facts, entry.aupCovered, o.day, o.now, maxAgeMs);
  if (JSON.stringify(evidence) !== entry.evidence) return { miss: "a source's standing changed" };
  let lo = head.window[0] ?? Number.NEGATIVE_INFINITY;
  if (o.now < lo) return { miss: "now is before the earlier run's" };
  const explained = await readExplanations(store, head.version).catch(() => undefined);
  if (!explained) return { miss: "its explanations are gone" };
  const explanations = { ...explained.features };
  const activity = structuredClone(head.report.activity);
  const tiers: Reuse["tiers"] = [];
  let changed = 0;
  for (const t of head.tiers) {
    const reused = new Map<string, Artifact>();
    const byCountry = new Map<string, CountryFeatures>();
    const known = new Map<string, { sha256: string; features: Feature[] }>();
    const next = { ...t.next };
    for (const [cc, e] of Object.entries(t.countries)) {
      const a = await storedArtifact(store, e, t.tier);
      if (!a) return { miss: `${cc}'s objects are gone` };
      const due = t.next[cc];
      if (due === undefined || o.now < due) {
        reused.set(cc, a);
        continue;
      }
      const ahead = await cache.get<Record<string, Ahead>>(aheadFolder(date, t.tier, cc), key);
      if (!ahead) return { miss: `${cc}'s features resolved ahead are gone` };
      const moved = advanceCountry(ahead, head.at, o.now);
      if ("miss" in moved) return moved;
      if (moved.next === null) delete next[cc];
      else next[cc] = moved.next;
      lo = Math.max(lo, moved.from);
      const pieces = moved.changed;
      if (pieces.size === 0) {
        reused.set(cc, a);
        continue;
      }
      const features = (JSON.parse(gunzipSync(a.gz).toString("utf8")) as FeatureCollection).features;
      known.set(cc, { sha256: e.sha256, features });
      let replaced = 0;
      const renewed = new Set<number>();
      const now = features.map((f, i) => {
        const p = pieces.get(f.properties._id);
        if (!p) return f;
        replaced++;
        renewed.add(i);
        if (t.tier === "dynamic") {
          explanations[f.properties._id] = p.explanation;
          count(activity, f, -1);
          count(activity, withPiece(f, p), 1);
        }
        return withPiece(f, p);
      });
      if (replaced !== pieces.size) return { miss: `${cc}'s stored collection lacks a feature resolved ahead` };
      changed += replaced;
      const blocks = t.openair[cc] ? blocksOf(inflated(a.openair.fragment), t.openair[cc]) : undefined;
      const openair = blocks ? { openair: (i: number) => (renewed.has(i) ? undefined : blocks[i]) } : {};
      byCountry.set(cc, { features: now, airspaceNotams: e.count.airspaceNotams, ...openair });
    }
    tiers.push({ tier: t.tier, reused, byCountry, known, next, openair: t.openair, ...pick(t) });
  }
  const hi = Math.min(...tiers.flatMap((t) => Object.values(t.next)));
  const fetchedAt = new Map(
    [...inputs, ...(o.notams ?? []), ...(o.aup ?? [])].map((i) => [i.name, isoInstant(i.fetchedAt)]),
  );
  const sources = Object.fromEntries(
    Object.entries(head.sources).map(([name, s]) => [name, { ...s, fetchedAt: fetchedAt.get(name) ?? s.fetchedAt }]),
  );
  const report = {
    ...head.report,
    activity: { isActive: sorted(activity.isActive), activationType: sorted(activity.activationType) },
  };
  return { head, evidence, tiers, window: windowFrom([lo, hi]), explanations, sources, changed, report };
}

function count(activity: RunReport["activity"], f: Feature, by: 1 | -1): void {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  activity.isActive[m.isActive] = (activity.isActive[m.isActive] ?? 0) + by;
  activity.activationType[m.activationType] = (activity.activationType[m.activationType] ?? 0) + by;
  for (const o of [activity.isActive, activity.activationType])
    for (const [k, v] of Object.entries(o)) if (v === 0) delete o[k];
}

const sorted = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** A window's bounds as stored: null for unbounded. */
function windowFrom([lo, hi]: [number, number]): DayHead["window"] {
  return [Number.isFinite(lo) ? lo : null, Number.isFinite(hi) ? hi : null];
}

/** Publishes `reuse` at the run's `now`: the reused countries as they are, the changed ones serialised. */
export async function publishAgain(
  reuse: Reuse,
  options: PublishDayOptions,
  deps: { store: ObjectStore; log: Logger; clock?: () => number },
  cache: StageCache,
  key: string,
): Promise<RunReport> {
  const { day, now } = options;
  const clock = deps.clock ? { clock: deps.clock } : {};
  deps.log.info("reused", {
    from: reuse.head.version,
    note: reuse.changed === 0 ? "no input changed, and now changes no feature" : "no input changed",
    changedFeatures: reuse.changed,
  });
  let published: PublishResult | undefined;
  const tiers: TierHead[] = [];
  for (const t of reuse.tiers) {
    const tierSources =
      t.tier === "dynamic"
        ? reuse.sources
        : Object.fromEntries(Object.entries(reuse.sources).filter(([, e]) => e.kind === "airspace"));
    const p = await publishVersion(
      deps.store,
      {
        byCountry: t.byCountry,
        reused: t.reused,
        known: t.known,
        ...pick(t),
        date: day.date,
        publishedAt: now,
        sources: tierSources,
        tier: t.tier,
      },
      () => {},
      clock,
    );
    tiers.push({
      tier: t.tier,
      countries: entriesOf(p),
      ...pick(t),
      next: t.next,
      openair: { ...t.openair, ...countsOf(p) },
    });
    if (t.tier === "dynamic") {
      published = p;
      const doc = explainDocument(p.manifest.version, day.date, now, reuse.evidence, reuse.explanations);
      await writeExplanations(deps.store, doc, p.manifest.first);
    }
  }
  deps.log.progress("published", 1, 1);
  const report = againReport(reuse.report, published!, now);
  const version = published!.manifest.version;
  const head: DayHead = { at: now, window: reuse.window, version, sources: reuse.head.sources, tiers, report };
  await cache.put(headFolder(day.date), key, head);
  return report;
}

/** OpenAir blocks per feature of the countries this publication rendered. */
export function countsOf(p: PublishResult): Record<string, number[]> {
  return Object.fromEntries([...p.artifacts].flatMap(([cc, a]) => (a.openairCounts ? [[cc, a.openairCounts]] : [])));
}

/** A fragment's text (raw deflate ending in a sync flush). */
const inflated = (fragment: Buffer) =>
  inflateRawSync(fragment, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString("utf8");

/** The manifest's country entries as built (a change set is the next run's business, not the cache's). */
export function entriesOf(p: PublishResult): Record<string, CountryEntry> {
  return Object.fromEntries([...p.artifacts].map(([cc, a]) => [cc, a.entry]));
}

const pick = (t: { europeAirspaceNotams?: number }) =>
  t.europeAirspaceNotams === undefined ? {} : { europeAirspaceNotams: t.europeAirspaceNotams };

/** The explanations document of a version. */
export function explainDocument(
  version: string,
  date: string,
  now: number,
  evidence: readonly SourceEvidence[],
  explanations: ReadonlyMap<string, Explanation> | Record<string, Explanation>,
): ExplainDocument {
  const entries = explanations instanceof Map ? [...explanations] : Object.entries(explanations);
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
    features: Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
