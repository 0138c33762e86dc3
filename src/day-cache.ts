// The day cache (issue 24): what a run of a day's inputs keeps in the stage cache so that the next run of the same
// inputs publishes again instead of deriving (src/refresh.ts). Entries, under `internal/cache/`:
// `day/<date>/` (the sources' standings), `ahead/<date>/<tier>/<cc>-<group>/` (features resolved ahead, written by a
// derivation, AHEAD_CHUNKS chunks each), `head/<date>/` (the last publication, rewritten by each run).
import { type Ahead, firstChange, resolveAhead } from "./ahead.js";
import type { Feature } from "./model/contract.js";
import type { CountryEntry, SourceEntry } from "./model/manifest.js";
import { isoDay, type UtcDay } from "./model/time.js";
import type { Tier } from "./model/vocab.js";
import type { AirspaceInput, PublishDayOptions } from "./options.js";
import { CHUNK, type Layout } from "./publish/artifacts.js";
import type { PublishResult } from "./publish/publish.js";
import type { StageCache } from "./publish/stage-cache.js";
import type { RunReport } from "./report.js";
import type { SourceFacts } from "./resolve/evidence.js";
import type { NowWindow, Track } from "./resolve/now-window.js";
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

/** The stage cache's folders of a day: its entry, its head, and each country's features resolved ahead. */
const DAY_KINDS = ["day", "head", "ahead"] as const;
const dayFolder = (date: string) => `day/${date}`;
const headFolder = (date: string) => `head/${date}`;
const aheadUnder = (date: string, tier: Tier) => `ahead/${date}/${tier}`;
const aheadName = (cc: string, g: number) => `${cc}-${g}`;

/**
 * Chunks of a fragment per entry of features resolved ahead: a refresh patches a chunk of 128 features, while a
 * derivation writes one entry per 512 (a store request each, and one to delete it when the next derivation writes its own).
 */
export const AHEAD_CHUNKS = 4;

/** Writes what a deriving run keeps for the next: the day's entry and the head of its publication. */
export function keepDay(cache: StageCache, key: string, date: string, entry: DayEntry, head: DayHead): void {
  cache.put(dayFolder(date), key, entry);
  keepHead(cache, key, date, head);
}

/** Writes the head of a run's publication (a refresh keeps the day's entry as it is). */
export function keepHead(cache: StageCache, key: string, date: string, head: DayHead): void {
  cache.put(headFolder(date), key, head);
}

/** The day's entry and the head of the last publication of these inputs, when both are there. */
export async function readDay(
  cache: StageCache,
  key: string,
  date: string,
): Promise<{ entry: DayEntry; head: DayHead } | undefined> {
  const entry = await cache.get<DayEntry>(dayFolder(date), key);
  const head = entry && (await cache.get<DayHead>(headFolder(date), key));
  return entry && head ? { entry, head } : undefined;
}

/** The records of one entry of features resolved ahead: one line of JSON per chunk. */
export function readAhead(
  cache: StageCache,
  key: string,
  at: { date: string; tier: Tier; cc: string; group: number },
): Promise<string[] | undefined> {
  return cache.getLines(`${aheadUnder(at.date, at.tier)}/${aheadName(at.cc, at.group)}`, key);
}

/** Deletes the day cache's entries of the days before yesterday (and the countries' objects cached for them). */
export async function pruneDays(cache: StageCache, day: UtcDay): Promise<void> {
  const before = isoDay(Math.floor(day.start / 86_400_000) - 1);
  for (const kind of [...DAY_KINDS, "country"]) await cache.prune(kind, before);
}

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
      tiles: o.tiles === true,
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

export const windowOf = (w: NowWindow): DayHead["window"] => windowFrom([w.lo, w.hi]);

/** A window's bounds as stored: null for unbounded. */
export function windowFrom([lo, hi]: [number, number]): DayHead["window"] {
  return [Number.isFinite(lo) ? lo : null, Number.isFinite(hi) ? hi : null];
}

/** How the fragments of the countries this publication built are laid out. */
export function layoutsOf(p: PublishResult): Record<string, Layout> {
  return Object.fromEntries([...p.artifacts].flatMap(([cc, a]) => (a.layout ? [[cc, a.layout]] : [])));
}

/** The manifest's country entries as built (a change set is the next run's business, not the cache's). */
export function entriesOf(p: PublishResult): Record<string, CountryEntry> {
  return Object.fromEntries([...p.artifacts].map(([cc, a]) => [cc, a.entry]));
}
