// Features resolved ahead (issue 24): when a run derives, every feature whose resolution ends later in the day (its
// last interval ends: active turns to not, or hours-driven to Unknown) is resolved again at each instant its
// resolution changes, until the day's end. A later run with the same inputs and standings then takes each feature's
// state at its own `now` from these pieces, and serialises again only the chunks of the fragments where one changed.
import type { Feature } from "./model/contract.js";
import type { Explanation } from "./model/explain.js";
import { type JsonPatch, jsonPatch, patched } from "./model/json.js";
import type { Track } from "./resolve/now-window.js";

/**
 * One feature's resolution from `from` until `until` (null: the end of time): its properties as a patch of the
 * piece's before it (the first's of the published ones), the rest of the feature (type, geometry) being the
 * published one's (the resolver hands on the same geometry at any instant). Most pieces change `isActive` and
 * little else: whole properties made the entries of a Europe-scale day 60 MB of JSON, 53 of them properties.
 */
export interface Piece {
  from: number;
  until: number | null;
  patch: JsonPatch;
  explanation: Explanation;
}

/**
 * The feature `f`, published as it was in force before `pieces` (those that follow it, in order), as the last of
 * them has it; undefined when a patch does not apply (an entry that is not what resolved it).
 */
export function withPieces(f: Feature, pieces: readonly Piece[]): Feature | undefined {
  let properties: unknown = f.properties;
  for (const p of pieces) {
    properties = patched(properties, p.patch);
    if (properties === undefined) return undefined;
  }
  return { ...f, properties: properties as Feature["properties"] };
}

/** A feature whose published resolution holds until `hi`; then the pieces after it, in order. */
export interface Ahead {
  /** Its place among the features it was resolved with (a chunk of its country's fragment). */
  index: number;
  hi: number;
  next: Piece[];
}

/** At most this many pieces per feature: a schedule of many short intervals is resolved again past them. */
const MAX_PIECES = 16;

/**
 * The pieces after each published feature of country `cc` with a bounded window, up to `dayEnd`. They are checked
 * against the contract when a later run takes them (src/incremental.ts): one that fails makes that run derive.
 */
export function resolveAhead(
  cc: string,
  features: readonly Feature[],
  track: ReadonlyMap<string, Track<Feature>>,
  dayEnd: number,
): Record<string, Ahead> {
  const out: Record<string, Ahead> = {};
  for (const [index, f] of features.entries()) {
    const id = f.properties._id;
    const t = track.get(id);
    if (!t || !Number.isFinite(t.window.hi)) continue;
    const next: Piece[] = [];
    let before = f.properties;
    for (let hi = t.window.hi; hi < dayEnd && next.length < MAX_PIECES; ) {
      const r = t.at(hi);
      const same =
        r.feature.geometry === f.geometry &&
        r.feature.type === f.type &&
        r.feature.properties._id === id &&
        r.feature.properties.country === cc;
      if (!same) break;
      const until = Number.isFinite(r.window.hi) ? r.window.hi : null;
      const properties = r.feature.properties;
      next.push({ from: hi, until, patch: jsonPatch(before, properties) ?? {}, explanation: r.explanation });
      before = properties;
      if (until === null) break;
      hi = until;
    }
    out[id] = { index, hi: t.window.hi, next };
  }
  return out;
}

/**
 * What moving one country from `at` to `now` changes: the features to replace (each with the pieces after the one
 * in force at `at`, up to the one at `now`), and when the next change is due.
 */
export interface Advance {
  changed: Map<string, Piece[]>;
  /** The latest start among the changed features' pieces (-Infinity: none changed). */
  from: number;
  /** The first instant after `now` at which one of the country's features changes; null: none that day. */
  next: number | null;
}

/** Index of the piece in force at `t`: -1 the published resolution, undefined past what was resolved ahead. */
function pieceAt(a: Ahead, t: number): number | undefined {
  if (t < a.hi) return -1;
  const i = a.next.findIndex((p) => p.from <= t && (p.until === null || t < p.until));
  return i < 0 ? undefined : i;
}

/** The first instant one of a country's features resolved ahead changes: the earliest end of a published one. */
export function firstChange(ahead: Record<string, Ahead>): number | null {
  let hi = Number.POSITIVE_INFINITY;
  for (const a of Object.values(ahead)) hi = Math.min(hi, a.hi);
  return Number.isFinite(hi) ? hi : null;
}

/**
 * A country's features at `now`, published as they were at `at` (`at` and `now` in one window: a feature's state
 * at `at` holds back to the window's start), or why they cannot be taken from the pieces.
 */
export function advanceCountry(ahead: Record<string, Ahead>, at: number, now: number): Advance | { miss: string } {
  const changed = new Map<string, Piece[]>();
  let from = Number.NEGATIVE_INFINITY;
  let next = Number.POSITIVE_INFINITY;
  for (const [id, a] of Object.entries(ahead)) {
    const i = pieceAt(a, now);
    const before = pieceAt(a, at);
    if (i === undefined || before === undefined) return { miss: `${id} is past what was resolved ahead` };
    if (i !== before) {
      if (i < before) return { miss: `${id} was published past its resolution at now` };
      changed.set(id, a.next.slice(before + 1, i + 1));
      from = Math.max(from, a.next[i]!.from);
    }
    const end = i < 0 ? a.hi : a.next[i]!.until;
    if (end !== null) next = Math.min(next, end);
  }
  return { changed, from, next: Number.isFinite(next) ? next : null };
}
