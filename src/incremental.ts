// Whole-day reuse (issue 24): a run whose inputs are those of an earlier run of the same day (the same source
// bytes and options, the same code) and whose sources' standings are the same at its `now` (fresh, stale and why)
// reads, links and resolves nothing. Within the earlier run's window (resolve/activity.ts NowWindow: no feature's
// last interval ends between the two instants) it publishes that run's objects again; past it, the features whose
// resolution changed are taken from those resolved ahead (src/ahead.ts) and only the chunks of the fragments holding
// them are serialised and deflated again, GeoJSON and OpenAir (publish/artifacts.ts CHUNK). Entries:
// `internal/cache/day/<date>/` (the sources' standings), `ahead/<date>/<tier>/<cc>-<group>/` (written by a
// derivation, AHEAD_CHUNKS chunks each), `head/<date>/` (the last publication, rewritten by each run).

import { inflateRawSync, constants as zlibConstants } from "node:zlib";
import { type Ahead, advanceCountry, firstChange, resolveAhead, withPieces } from "./ahead.js";
import type { Feature } from "./model/contract.js";
import { EXPLAIN_SCHEMA, type ExplainDocument, type Explanation } from "./model/explain.js";
import { isRecord } from "./model/json.js";
import type { Logger } from "./model/logger.js";
import { type CountryEntry, parseVersioned, type SourceEntry, VersionManifest } from "./model/manifest.js";
import { isoInstant, type UtcDay } from "./model/time.js";
import type { Tier } from "./model/vocab.js";
import type { AirspaceInput, PublishDayOptions } from "./pipeline.js";
import {
  type Artifact,
  CHUNK,
  chunkFeatureTexts,
  chunkPieces,
  chunkText,
  type Layout,
  patchArtifact,
  storedArtifact,
  tierPrefix,
} from "./publish/artifacts.js";
import type { Change } from "./publish/changes.js";
import { explainKey, readExplanations, writeExplanations, writeExplanationsOver } from "./publish/explanations.js";
import { blocksOf, openairBlocks, openairOf } from "./publish/openair.js";
import { type PublishResult, publishVersion } from "./publish/publish.js";
import { manifestKey } from "./publish/record.js";
import type { StageCache } from "./publish/stage-cache.js";
import { validateFeature } from "./publish/validate.js";
import { againReport, type RunReport } from "./report.js";
import type { NowWindow, Track } from "./resolve/activity.js";
import { type SourceEvidence, type SourceFacts, standingOf } from "./resolve/evidence.js";
import type { DynamicInput } from "./sources.js";
import type { ObjectStore } from "./store/store.js";

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
   * Per country with features resolved ahead, per chunk of its fragment (kept under
   * `ahead/<date>/<tier>/<cc>-<group>`), the first instant after `at` at which one of the chunk's features
   * changes, null for none that day; a country not named changes no more that day.
   */
  next: Record<string, Array<number | null>>;
  /**
   * Per country, how its fragments are laid out: a refresh parses, renders and deflates again only the changed
   * features of the chunks where one changed.
   */
  layouts: Record<string, Layout>;
}

/** A reusable run: its objects checked in the store, what `now` changed (and those features' explanations). */
export interface Reuse {
  evidence: SourceEvidence[];
  tiers: Array<{
    tier: Tier;
    /** Every country's objects: as the earlier run published them, or with the chunks where a feature changed renewed. */
    reused: Map<string, Artifact>;
    /** The renewed countries' change from the earlier run's collection. */
    known: Map<string, { sha256: string; change: Change }>;
    europeAirspaceNotams?: number;
    next: TierHead["next"];
    layouts: TierHead["layouts"];
  }>;
  head: DayHead;
  window: DayHead["window"];
  /** The explanations of the features that changed at `now` (the others are the earlier run's). */
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
const aheadUnder = (date: string, tier: Tier) => `ahead/${date}/${tier}`;
const aheadName = (cc: string, g: number) => `${cc}-${g}`;

/** Writes what a deriving run keeps for the next: the day's entry and the head of its publication. */
export function keepDay(cache: StageCache, key: string, date: string, entry: DayEntry, head: DayHead): void {
  cache.put(dayFolder(date), key, entry);
  cache.put(headFolder(date), key, head);
}

/**
 * Chunks of a fragment per entry of features resolved ahead: a refresh patches a chunk of 128 features, while a
 * derivation writes one entry per 512 (a store request each, and one to delete it when the next derivation writes its own).
 */
const AHEAD_CHUNKS = 4;

/**
 * Resolves each country's features ahead and keeps them, `AHEAD_CHUNKS` chunks of the fragment per entry (each
 * chunk's record of its own); per country that has some, per chunk the first instant one changes (a `TierHead`'s
 * `next`).
 */
export async function keepAhead(
  cache: StageCache,
  key: string,
  o: { date: string; tier: Tier; dayEnd: number },
  byCountry: ReadonlyMap<string, { features: readonly Feature[] }>,
  track: ReadonlyMap<string, Track<Feature>>,
): Promise<TierHead["next"]> {
  const next: TierHead["next"] = {};
  function* entries(): Generator<[string, Buffer[]]> {
    for (const [cc, { features }] of byCountry) {
      const firsts: Array<number | null> = [];
      for (let g = 0; g * AHEAD_CHUNKS * CHUNK < features.length; g++) {
        // each chunk's record a line of JSON: a refresh parses only the records of its due chunks
        const group: Buffer[] = [];
        for (let j = g * AHEAD_CHUNKS; j < (g + 1) * AHEAD_CHUNKS && j * CHUNK < features.length; j++) {
          const ahead = resolveAhead(cc, features.slice(j * CHUNK, (j + 1) * CHUNK), track, o.dayEnd);
          firsts.push(firstChange(ahead));
          group.push(recordBytes(ahead));
        }
        if (firsts.slice(g * AHEAD_CHUNKS).some((f) => f !== null)) yield [aheadName(cc, g), group];
      }
      if (firsts.some((f) => f !== null)) next[cc] = firsts;
    }
  }
  await cache.putLines(aheadUnder(o.date, o.tier), key, entries());
  return next;
}

/**
 * `JSON.stringify(record)` as UTF-8, made feature by feature: a chunk's record as one string is ~250 000 characters,
 * two bytes each (a NOTAM's name ends in `…`), and strings that large stay in V8's large-object space until a full
 * collection (writing the entries raised the Europe-scale publish's peak RSS by 40–130 MB).
 */
function recordBytes(record: Record<string, Ahead>): Buffer {
  const parts: Buffer[] = [];
  for (const [id, a] of Object.entries(record)) {
    parts.push(Buffer.from(`${parts.length === 0 ? "{" : ","}${JSON.stringify(id)}:${JSON.stringify(a)}`));
  }
  parts.push(Buffer.from(parts.length === 0 ? "{}" : "}"));
  return Buffer.concat(parts);
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
  // the explanations the refresh lays its changes over: the earlier run's, and the day's first (their base)
  const earlier = await store.get(manifestKey(tierPrefix("dynamic"), head.version));
  const first = earlier && parseVersioned(VersionManifest, earlier.toString("utf8"), head.version).first;
  for (const v of new Set([head.version, first ?? head.version]))
    if (!(await store.head(explainKey(v)))) return { miss: "its explanations are gone" };
  const explanations: Record<string, Explanation> = {};
  const activity = structuredClone(head.report.activity);
  const tiers: Reuse["tiers"] = [];
  let changed = 0;
  for (const t of head.tiers) {
    const reused = new Map<string, Artifact>();
    const known = new Map<string, { sha256: string; change: Change }>();
    const next = { ...t.next };
    // every country's objects read at once: the reads overlap (and the checks of those already read)
    const stored = await Promise.all(
      Object.entries(t.countries).map(async ([cc, e]) => [cc, e, await storedArtifact(store, e, t.tier)] as const),
    );
    for (const [cc, e, a] of stored) {
      if (!a) return { miss: `${cc}'s objects are gone` };
      const firsts = t.next[cc] ?? [];
      const due = firsts.flatMap((n, j) => (n !== null && o.now >= n ? [j] : []));
      if (due.length === 0) {
        reused.set(cc, a);
        continue;
      }
      const layout = t.layouts[cc];
      const pieces = layout && chunkPieces(a.fragment, layout.chunks);
      const oaPieces = layout && chunkPieces(a.openair.fragment, layout.openairChunks);
      if (!layout || !pieces || !oaPieces || oaPieces.length !== pieces.length)
        return { miss: `${cc}'s chunks or OpenAir blocks are not known` };
      const lengths = [...layout.lengths];
      const counts = [...layout.openairCounts];
      const renewed = new Map<number, string>();
      const oaRenewed = new Map<number, string>();
      const change: Change = { added: [], changed: [], removed: [] };
      const after = [...firsts];
      // the entries of the due chunks, read at once
      const wanted = [...new Set(due.map((j) => Math.floor(j / AHEAD_CHUNKS)))];
      const read = wanted.map((g) => cache.getLines(`${aheadUnder(date, t.tier)}/${aheadName(cc, g)}`, key));
      const groups = new Map(wanted.map((g, i) => [g, read[i]!]));
      for (const j of due) {
        const g = Math.floor(j / AHEAD_CHUNKS);
        // one record per chunk of the group, each an object
        const records = await groups.get(g);
        const whole = records?.length === Math.min(AHEAD_CHUNKS, firsts.length - g * AHEAD_CHUNKS);
        const ahead = whole ? parsed<Record<string, Ahead>>(records[j - g * AHEAD_CHUNKS]) : undefined;
        if (!isRecord(ahead)) return { miss: `${cc}'s features resolved ahead are gone` };
        const moved = advanceCountry(ahead, head.at, o.now);
        if ("miss" in moved) return moved;
        after[j] = moved.next;
        lo = Math.max(lo, moved.from);
        if (moved.changed.size === 0) continue;
        // only the changed features are parsed: the chunk's text splits by the features' lengths
        const [from, to] = [j * CHUNK, Math.min((j + 1) * CHUNK, lengths.length)];
        const texts = chunkFeatureTexts(inflated(pieces[j]!.deflated), j, lengths.slice(from, to));
        const blocks = blocksOf(inflated(oaPieces[j]!.deflated), counts.slice(from, to));
        if (!texts || !blocks || blocks.length !== texts.length)
          return { miss: `${cc}'s chunk ${j} does not split into its features` };
        const at = [...moved.changed.keys()].map((id) => ahead[id]!.index).sort((x, y) => x - y);
        for (const k of at) {
          const was = parsed<Feature>(texts[k]);
          const p = was && moved.changed.get(was.properties?._id);
          if (!was || !p) return { miss: `${cc}'s stored chunk lacks a feature resolved ahead` };
          const now = withPieces(was, p);
          if (!now) return { miss: `${was.properties._id}'s pieces resolved ahead do not apply to it` };
          // the contract, as the country stage checks a derived feature (a piece is checked when taken)
          if (validateFeature(now).length > 0)
            return { miss: `${now.properties._id} resolved ahead fails the contract` };
          const json = JSON.stringify(now);
          if (json !== texts[k]) change.changed.push(now);
          texts[k] = json;
          lengths[from + k] = json.length;
          if (t.tier === "dynamic") {
            explanations[now.properties._id] = p.at(-1)!.explanation;
            count(activity, was, -1);
            count(activity, now, 1);
          }
          blocks[k] = openairBlocks(now);
          counts[from + k] = blocks[k].length;
        }
        changed += at.length;
        renewed.set(j, chunkText(texts, j));
        oaRenewed.set(j, openairOf(blocks).text);
      }
      next[cc] = after;
      if (renewed.size === 0) {
        reused.set(cc, a);
        continue;
      }
      const json = { pieces, renewed, lengths };
      const openair = { pieces: oaPieces, renewed: oaRenewed, counts };
      reused.set(cc, await patchArtifact(json, openair, e.count, t.tier));
      known.set(cc, { sha256: e.sha256, change });
    }
    tiers.push({ tier: t.tier, reused, known, next, layouts: t.layouts, ...pick(t) });
  }
  const hi = Math.min(
    ...tiers.flatMap((t) => Object.values(t.next).flatMap((firsts) => firsts.filter((n) => n !== null))),
  );
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
        byCountry: new Map(),
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
      layouts: { ...t.layouts, ...layoutsOf(p) },
    });
    if (t.tier === "dynamic") {
      published = p;
      await explainAgain(deps.store, reuse, p.manifest.version, p.manifest.first, options);
    }
  }
  deps.log.progress("published", 1, 1);
  const report = againReport(reuse.report, published!, now);
  const version = published!.manifest.version;
  const head: DayHead = { at: now, window: reuse.window, version, sources: reuse.head.sources, tiers, report };
  cache.put(headFolder(day.date), key, head);
  return report;
}

/** The explanations of a version published again: the earlier run's with the changed features' laid over them. */
async function explainAgain(
  store: ObjectStore,
  reuse: Reuse,
  version: string,
  first: string | undefined,
  { day, now }: PublishDayOptions,
): Promise<void> {
  const { features: changed, ...doc } = explainDocument(version, day.date, now, reuse.evidence, reuse.explanations);
  if (first && (await writeExplanationsOver(store, doc, reuse.head.version, changed, first))) return;
  // the earlier run's document is not the day's first version or a delta on it: merged whole, as a derivation writes it
  const earlier = await readExplanations(store, reuse.head.version);
  if (!earlier) throw new Error(`the explanations of ${reuse.head.version} are gone`);
  const all = { ...earlier.features, ...reuse.explanations };
  await writeExplanations(store, explainDocument(version, day.date, now, reuse.evidence, all), first);
}

/** How the fragments of the countries this publication built are laid out. */
export function layoutsOf(p: PublishResult): Record<string, Layout> {
  return Object.fromEntries([...p.artifacts].flatMap(([cc, a]) => (a.layout ? [[cc, a.layout]] : [])));
}

/** JSON text as a value; undefined for no text, or text that is not JSON (then the run derives). */
function parsed<T>(text: unknown): T | undefined {
  if (typeof text !== "string") return undefined;
  try {
    return (JSON.parse(text) as T | null) ?? undefined;
  } catch {
    return undefined;
  }
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
