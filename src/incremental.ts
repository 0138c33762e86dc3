// Whole-day reuse (issue 24): a run whose inputs are those of an earlier run of the same day (the same source
// bytes and options, the same code) and whose `now` changes nothing publishes that run's objects again without
// reading, resolving or serialising anything. `now` changes nothing when the sources' standings are the same at it
// (fresh, stale and why) and it lies in the run's window (resolve/activity.ts NowWindow: no interval of any
// feature begins or ends between the two instants). Entry: `internal/cache/day/<date>/<key>.json.gz`.

import { EXPLAIN_SCHEMA, type ExplainDocument, type Explanation } from "./model/explain.js";
import type { CountryEntry, SourceEntry } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import type { Tier } from "./model/vocab.js";
import type { AirspaceInput, PublishDayOptions } from "./pipeline.js";
import type { Artifact } from "./publish/artifacts.js";
import { storedArtifact } from "./publish/artifacts.js";
import { readExplanations } from "./publish/explanations.js";
import type { StageCache } from "./publish/stage-cache.js";
import type { ObjectStore } from "./publish/store.js";
import type { RunReport } from "./report.js";
import type { NowWindow } from "./resolve/activity.js";
import { type SourceEvidence, type SourceFacts, standingOf } from "./resolve/evidence.js";
import type { DynamicInput } from "./sources.js";

export interface DayEntry {
  /** The sources' evidence as the run saw it (JSON): at another `now` it must be the same. */
  evidence: string;
  facts: SourceFacts[];
  /** Whether the AUP plans cover the day (late) and its first hours (early), when AUP sources were given. */
  aupCovered?: { early: boolean; late: boolean };
  /** The run's window of `now`, null for unbounded. */
  window: [number | null, number | null];
  /** The version the run published: its explanations are this run's. */
  version: string;
  /** The manifest's sources (their `fetchedAt` is the new run's). */
  sources: Record<string, SourceEntry>;
  tiers: Array<{ tier: Tier; countries: Record<string, CountryEntry>; europeAirspaceNotams?: number }>;
  report: RunReport;
}

/** A reusable run: its objects checked in the store, its explanations read back. */
export interface Reuse {
  entry: DayEntry;
  evidence: SourceEvidence[];
  tiers: Array<{ tier: Tier; reused: Map<string, Artifact>; europeAirspaceNotams?: number }>;
  explanations: Record<string, Explanation>;
  sources: Record<string, SourceEntry>;
}

export const dayFolder = (date: string) => `day/${date}`;

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

export const windowOf = (w: NowWindow): DayEntry["window"] => [
  Number.isFinite(w.lo) ? w.lo : null,
  Number.isFinite(w.hi) ? w.hi : null,
];

/** The earlier run to publish again at `now`, or undefined (and why, for the log) when it must be derived. */
export async function reusable(
  cache: StageCache,
  store: ObjectStore,
  key: string,
  inputs: readonly AirspaceInput[],
  o: PublishDayOptions,
  maxAgeMs: number,
): Promise<Reuse | { miss: string }> {
  const entry = await cache.get<DayEntry>(dayFolder(o.day.date), key);
  if (!entry) return { miss: "no earlier run of these inputs" };
  const evidence = evidenceAt(entry.facts, entry.aupCovered, o.day, o.now, maxAgeMs);
  if (JSON.stringify(evidence) !== entry.evidence) return { miss: "a source's standing changed" };
  const [lo, hi] = entry.window;
  if ((lo !== null && o.now < lo) || (hi !== null && o.now >= hi)) {
    return { miss: "a feature's last interval ends between the two runs" };
  }
  const tiers: Reuse["tiers"] = [];
  for (const t of entry.tiers) {
    const reused = new Map<string, Artifact>();
    for (const [cc, e] of Object.entries(t.countries)) {
      const a = await storedArtifact(store, e, t.tier);
      if (!a) return { miss: `${cc}'s objects are gone` };
      reused.set(cc, a);
    }
    tiers.push({ tier: t.tier, reused, ...pick(t) });
  }
  const explained = await readExplanations(store, entry.version).catch(() => undefined);
  if (!explained) return { miss: "its explanations are gone" };
  const fetchedAt = new Map(
    [...inputs, ...(o.notams ?? []), ...(o.aup ?? [])].map((i) => [i.name, isoInstant(i.fetchedAt)]),
  );
  const sources = Object.fromEntries(
    Object.entries(entry.sources).map(([name, s]) => [name, { ...s, fetchedAt: fetchedAt.get(name) ?? s.fetchedAt }]),
  );
  return { entry, evidence, tiers, explanations: explained.features, sources };
}

const pick = (t: DayEntry["tiers"][number]) =>
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
