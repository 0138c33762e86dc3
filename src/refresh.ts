// Whole-day reuse (issue 24): a run whose inputs are those of an earlier run of the same day (the same source
// bytes and options, the same code) and whose sources' standings are the same at its `now` (fresh, stale and why)
// reads, links and resolves nothing. Within the earlier run's window (resolve/activity.ts NowWindow: no feature's
// last interval ends between the two instants) it publishes that run's objects again; past it, the features whose
// resolution changed are taken from those resolved ahead (src/ahead.ts) and only the chunks of the fragments holding
// them are serialised and deflated again, GeoJSON and OpenAir (publish/artifacts.ts CHUNK). What it reads and
// writes is the day cache (src/day-cache.ts).
import { inflateRawSync, constants as zlibConstants } from "node:zlib";
import { type Ahead, advanceCountry, withPieces } from "./ahead.js";
import { AHEAD_CHUNKS, type DayHead, keepHead, readAhead, readDay, type TierHead, windowFrom } from "./day-cache.js";
import type { Feature } from "./model/contract.js";
import type { Explanation } from "./model/explain.js";
import { isRecord } from "./model/json.js";
import type { Logger } from "./model/logger.js";
import { type CountryEntry, parseVersioned, type SourceEntry, VersionManifest } from "./model/manifest.js";
import { isoInstant } from "./model/time.js";
import type { Tier } from "./model/vocab.js";
import type { AirspaceInput, PublishDayOptions } from "./options.js";
import {
  type Artifact,
  CHUNK,
  chunkFeatureTexts,
  chunkPieces,
  chunkText,
  patchArtifact,
  storedArtifact,
  tierPrefix,
} from "./publish/artifacts.js";
import type { Change } from "./publish/changes.js";
import {
  explainDocument,
  explainKey,
  readExplanations,
  writeExplanations,
  writeExplanationsOver,
} from "./publish/explanations.js";
import { blocksOf, openairBlocks, openairOf } from "./publish/openair.js";
import type { PublishResult } from "./publish/publish.js";
import { manifestKey } from "./publish/record.js";
import type { StageCache } from "./publish/stage-cache.js";
import { validateFeature } from "./publish/validate.js";
import { againReport, nextChangeAt, type RunReport } from "./report.js";
import { evidenceAt, explainSources, type SourceEvidence, standingChangeAfter } from "./resolve/evidence.js";
import type { LeaseGuard } from "./store/publisher-lease.js";
import type { ObjectStore } from "./store/store.js";
import { publishTier } from "./tier.js";

/** A reusable run: its objects checked in the store, what `now` changed (and those features' explanations). */
export interface Reuse {
  evidence: SourceEvidence[];
  tiers: RenewedTier[];
  head: DayHead;
  window: DayHead["window"];
  /** The explanations of the features that changed at `now` (the others are the earlier run's). */
  explanations: Record<string, Explanation>;
  sources: Record<string, SourceEntry>;
  /** Features that changed at `now`. */
  changed: number;
  report: RunReport;
  /** When a source's standing changes next (see `standingChangeAfter`). */
  standingChange: number | undefined;
}

interface RenewedTier {
  tier: Tier;
  /** Every country's objects: as the earlier run published them, or with the chunks where a feature changed renewed. */
  reused: Map<string, Artifact>;
  /** The renewed countries' change from the earlier run's collection. */
  known: Map<string, { sha256: string; change: Change }>;
  europeAirspaceNotams?: number;
  next: TierHead["next"];
  layouts: TierHead["layouts"];
}

type Miss = { miss: string };

/** What renewing the tiers of an earlier run at `now` gathers as it goes. */
interface Renewal {
  cache: StageCache;
  key: string;
  date: string;
  /** The earlier run's `now`, and this run's. */
  at: number;
  now: number;
  explanations: Record<string, Explanation>;
  activity: RunReport["activity"];
  changed: number;
  /** The lower bound of this run's window of `now`. */
  lo: number;
}

/** The earlier run to publish again at `now`, or why it must be derived (for the log). */
export async function reusable(
  cache: StageCache,
  store: ObjectStore,
  key: string,
  inputs: readonly AirspaceInput[],
  o: PublishDayOptions,
  maxAgeMs: number,
): Promise<Reuse | Miss> {
  const day = await readDay(cache, key, o.day.date);
  if (!day) return { miss: "no earlier run of these inputs" };
  const { entry, head } = day;
  const evidence = evidenceAt(entry.facts, entry.aupCovered, o.day, o.now, maxAgeMs);
  if (JSON.stringify(evidence) !== entry.evidence) return { miss: "a source's standing changed" };
  const lo = head.window[0] ?? Number.NEGATIVE_INFINITY;
  if (o.now < lo) return { miss: "now is before the earlier run's" };
  if (!(await explanationsKept(store, head))) return { miss: "its explanations are gone" };
  const activity = structuredClone(head.report.activity);
  const r: Renewal = {
    cache,
    key,
    date: o.day.date,
    at: head.at,
    now: o.now,
    lo,
    changed: 0,
    explanations: {},
    activity,
  };
  const tiers: RenewedTier[] = [];
  for (const t of head.tiers) {
    const renewed = await renewTier(r, store, t);
    if ("miss" in renewed) return renewed;
    tiers.push(renewed);
  }
  const hi = Math.min(
    ...tiers.flatMap((t) => Object.values(t.next).flatMap((firsts) => firsts.filter((n) => n !== null))),
  );
  const report = {
    ...head.report,
    activity: { isActive: sorted(activity.isActive), activationType: sorted(activity.activationType) },
  };
  const sources = fetchedNow(head.sources, [...inputs, ...(o.notams ?? []), ...(o.aup ?? [])]);
  const window = windowFrom([r.lo, hi]);
  const standingChange = standingChangeAfter(entry.facts, entry.aupCovered, o.day, o.now, maxAgeMs);
  const changed = r.changed;
  return { head, evidence, tiers, window, explanations: r.explanations, sources, changed, report, standingChange };
}

/** Whether the explanations a refresh lays its changes over are there: the earlier run's, and the day's first. */
async function explanationsKept(store: ObjectStore, head: DayHead): Promise<boolean> {
  const earlier = await store.get(manifestKey(tierPrefix("dynamic"), head.version));
  const first = earlier && parseVersioned(VersionManifest, earlier.toString("utf8"), head.version).first;
  for (const v of new Set([head.version, first ?? head.version])) if (!(await store.head(explainKey(v)))) return false;
  return true;
}

/** The earlier run's sources, fetched at this run's instants. */
function fetchedNow(
  sources: Record<string, SourceEntry>,
  inputs: ReadonlyArray<{ name: string; fetchedAt: number }>,
): Record<string, SourceEntry> {
  const fetchedAt = new Map(inputs.map((i) => [i.name, isoInstant(i.fetchedAt)]));
  return Object.fromEntries(
    Object.entries(sources).map(([name, s]) => [name, { ...s, fetchedAt: fetchedAt.get(name) ?? s.fetchedAt }]),
  );
}

/** A tier of the earlier run with its countries' objects read back, renewed where a feature changed by `now`. */
async function renewTier(r: Renewal, store: ObjectStore, t: TierHead): Promise<RenewedTier | Miss> {
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
    const due = firsts.flatMap((n, j) => (n !== null && r.now >= n ? [j] : []));
    if (due.length === 0) {
      reused.set(cc, a);
      continue;
    }
    const renewed = await renewCountry(r, t, { cc, entry: e, artifact: a, firsts, due });
    if ("miss" in renewed) return renewed;
    next[cc] = renewed.next;
    reused.set(cc, renewed.artifact);
    if (renewed.change) known.set(cc, { sha256: e.sha256, change: renewed.change });
  }
  return { tier: t.tier, reused, known, next, layouts: t.layouts, ...pick(t) };
}

interface DueCountry {
  cc: string;
  entry: CountryEntry;
  artifact: Artifact;
  /** Per chunk, the first instant one of its features changes. */
  firsts: ReadonlyArray<number | null>;
  /** The chunks where one changes by `now`. */
  due: readonly number[];
}

/** The chunks of one fragment as stored: split by the layout, re-made where they change. */
interface Chunks {
  tier: Tier;
  pieces: NonNullable<ReturnType<typeof chunkPieces>>;
  oaPieces: NonNullable<ReturnType<typeof chunkPieces>>;
  lengths: number[];
  counts: number[];
  renewed: Map<number, string>;
  oaRenewed: Map<number, string>;
  change: Change;
}

/** A country with chunks due at `now`: its objects with those chunks renewed (as they were when none changed). */
async function renewCountry(
  r: Renewal,
  t: TierHead,
  c: DueCountry,
): Promise<{ artifact: Artifact; next: Array<number | null>; change?: Change } | Miss> {
  const layout = t.layouts[c.cc];
  const pieces = layout && chunkPieces(c.artifact.fragment, layout.chunks);
  const oaPieces = layout && chunkPieces(c.artifact.openair.fragment, layout.openairChunks);
  if (!layout || !pieces || !oaPieces || oaPieces.length !== pieces.length)
    return { miss: `${c.cc}'s chunks or OpenAir blocks are not known` };
  const chunks: Chunks = {
    tier: t.tier,
    pieces,
    oaPieces,
    lengths: [...layout.lengths],
    counts: [...layout.openairCounts],
    renewed: new Map(),
    oaRenewed: new Map(),
    change: { added: [], changed: [], removed: [] },
  };
  const after = [...c.firsts];
  // the entries of the due chunks, read at once
  const wanted = [...new Set(c.due.map((j) => Math.floor(j / AHEAD_CHUNKS)))];
  const read = wanted.map((group) => readAhead(r.cache, r.key, { date: r.date, tier: t.tier, cc: c.cc, group }));
  const groups = new Map(wanted.map((g, i) => [g, read[i]!]));
  for (const j of c.due) {
    const g = Math.floor(j / AHEAD_CHUNKS);
    // one record per chunk of the group, each an object
    const records = await groups.get(g);
    const whole = records?.length === Math.min(AHEAD_CHUNKS, c.firsts.length - g * AHEAD_CHUNKS);
    const ahead = whole ? parsed<Record<string, Ahead>>(records[j - g * AHEAD_CHUNKS]) : undefined;
    if (!isRecord(ahead)) return { miss: `${c.cc}'s features resolved ahead are gone` };
    const moved = advanceCountry(ahead, r.at, r.now);
    if ("miss" in moved) return moved;
    after[j] = moved.next;
    r.lo = Math.max(r.lo, moved.from);
    if (moved.changed.size === 0) continue;
    const renewed = renewChunk(r, chunks, { cc: c.cc, j, ahead, changed: moved.changed });
    if (renewed) return renewed;
  }
  if (chunks.renewed.size === 0) return { artifact: c.artifact, next: after };
  const json = { pieces, renewed: chunks.renewed, lengths: chunks.lengths, digests: [...layout.digests] };
  const openair = { pieces: oaPieces, renewed: chunks.oaRenewed, counts: chunks.counts };
  const patched = await patchArtifact(json, openair, c.entry.count, t.tier);
  // what decided each answer is the derivation's: the day's clock moves answers, not their grounds
  const artifact = {
    ...patched,
    entry: { ...patched.entry, ...(c.entry.decided ? { decided: c.entry.decided } : {}) },
  };
  return { artifact, next: after, change: chunks.change };
}

/**
 * Chunk `j` with its changed features laid over it: only they are parsed (the chunk's text splits by the features'
 * lengths), checked against the contract, and rendered again, GeoJSON and OpenAir. Undefined when done.
 */
function renewChunk(
  r: Renewal,
  chunks: Chunks,
  due: {
    cc: string;
    j: number;
    ahead: Record<string, Ahead>;
    changed: ReadonlyMap<string, Parameters<typeof withPieces>[1]>;
  },
): Miss | undefined {
  const { cc, j, ahead } = due;
  const { lengths, counts } = chunks;
  const [from, to] = [j * CHUNK, Math.min((j + 1) * CHUNK, lengths.length)];
  const texts = chunkFeatureTexts(inflated(chunks.pieces[j]!.deflated), j, lengths.slice(from, to));
  const blocks = blocksOf(inflated(chunks.oaPieces[j]!.deflated), counts.slice(from, to));
  if (!texts || !blocks || blocks.length !== texts.length)
    return { miss: `${cc}'s chunk ${j} does not split into its features` };
  const at = [...due.changed.keys()].map((id) => ahead[id]!.index).sort((x, y) => x - y);
  for (const k of at) {
    const was = parsed<Feature>(texts[k]);
    const p = was && due.changed.get(was.properties?._id);
    if (!was || !p) return { miss: `${cc}'s stored chunk lacks a feature resolved ahead` };
    const now = withPieces(was, p);
    if (!now) return { miss: `${was.properties._id}'s pieces resolved ahead do not apply to it` };
    // the contract, as the country stage checks a derived feature (a piece is checked when taken)
    if (validateFeature(now).length > 0) return { miss: `${now.properties._id} resolved ahead fails the contract` };
    const json = JSON.stringify(now);
    if (json !== texts[k]) chunks.change.changed.push(now);
    texts[k] = json;
    lengths[from + k] = json.length;
    if (chunks.tier === "dynamic") {
      r.explanations[now.properties._id] = p.at(-1)!.explanation;
      count(r.activity, was, -1);
      count(r.activity, now, 1);
    }
    blocks[k] = openairBlocks(now);
    counts[from + k] = blocks[k].length;
  }
  r.changed += at.length;
  chunks.renewed.set(j, chunkText(texts, j));
  chunks.oaRenewed.set(j, openairOf(blocks).text);
  return undefined;
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

/** Publishes `reuse` at the run's `now`: the reused countries as they are, the changed ones serialised. */
export async function publishAgain(
  reuse: Reuse,
  options: PublishDayOptions,
  deps: { store: ObjectStore; log: Logger; lease?: LeaseGuard },
  cache: StageCache,
  key: string,
): Promise<RunReport> {
  const { day, now } = options;
  deps.log.info("reused", {
    from: reuse.head.version,
    note: reuse.changed === 0 ? "no input changed, and now changes no feature" : "no input changed",
    changedFeatures: reuse.changed,
  });
  let published: PublishResult | undefined;
  const tiers: TierHead[] = [];
  const at = { date: day.date, now, tiles: options.tiles === true, ...(deps.lease ? { lease: deps.lease } : {}) };
  for (const t of reuse.tiers) {
    const tier = await publishTier(
      deps.store,
      at,
      { tier: t.tier, reused: t.reused, known: t.known, ...pick(t), sources: reuse.sources, layouts: t.layouts },
      {
        next: async () => t.next,
        ...(t.tier === "dynamic"
          ? { alongside: (p) => explainAgain(deps.store, reuse, p.manifest.version, p.manifest.first, options) }
          : {}),
      },
    );
    tiers.push(tier.head);
    if (t.tier === "dynamic") published = tier.published;
  }
  deps.log.progress("published", 1, 1);
  const report = {
    ...againReport(reuse.report, published!, now),
    nextChangeAt: nextChangeAt(reuse.window[1], reuse.standingChange),
  };
  const version = published!.manifest.version;
  keepHead(cache, key, day.date, {
    at: now,
    window: reuse.window,
    version,
    sources: reuse.head.sources,
    tiers,
    report,
  });
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
  const sources = explainSources(reuse.evidence);
  const { features: changed, ...doc } = explainDocument(version, day.date, now, sources, reuse.explanations);
  if (first && (await writeExplanationsOver(store, doc, reuse.head.version, changed, first))) return;
  // the earlier run's document is not the day's first version or a delta on it: merged whole, as a derivation writes it
  const earlier = await readExplanations(store, reuse.head.version);
  if (!earlier) throw new Error(`the explanations of ${reuse.head.version} are gone`);
  const all = { ...earlier.features, ...reuse.explanations };
  await writeExplanations(store, explainDocument(version, day.date, now, sources, all), first);
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

const pick = (t: { europeAirspaceNotams?: number }) =>
  t.europeAirspaceNotams === undefined ? {} : { europeAirspaceNotams: t.europeAirspaceNotams };
