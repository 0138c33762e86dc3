// Features resolved ahead (issue 24): when a run derives, every feature whose resolution ends later in the day (its
// last interval ends: active turns to not, or hours-driven to Unknown) is resolved again at each instant its
// resolution changes, until the day's end. A later run with the same inputs and standings then takes each feature's
// state at its own `now` from these pieces, and serialises only the countries where one changed.
import type { Feature } from "./model/contract.js";
import type { Explanation } from "./model/explain.js";
import { validateFeature } from "./publish/validate.js";
import type { Track } from "./resolve/activity.js";

/**
 * One feature's resolution from `from` until `until` (null: the end of time): its properties, the rest of the
 * feature (type, geometry) being the published one's (the resolver hands on the same geometry at any instant).
 */
export interface Piece {
  from: number;
  until: number | null;
  properties: Feature["properties"];
  explanation: Explanation;
}

/** The published feature `f` as a piece has it. */
export const withPiece = (f: Feature, p: Piece): Feature => ({ ...f, properties: p.properties });

/** A feature whose published resolution holds until `hi`; then the pieces after it, in order. */
export interface Ahead {
  cc: string;
  hi: number;
  next: Piece[];
}

/** At most this many pieces per feature: a schedule of many short intervals is resolved again past them. */
const MAX_PIECES = 16;

/**
 * The pieces after each published feature with a bounded window, up to `dayEnd`. A piece that would fail the
 * contract ends the feature's pieces there (a run past it derives again).
 */
export function resolveAhead(
  byCountry: ReadonlyMap<string, { features: readonly Feature[] }>,
  track: ReadonlyMap<string, Track<Feature>>,
  dayEnd: number,
): Record<string, Ahead> {
  const out: Record<string, Ahead> = {};
  for (const [cc, { features }] of byCountry) {
    for (const f of features) {
      const id = f.properties._id;
      const t = track.get(id);
      if (!t || !Number.isFinite(t.window.hi)) continue;
      const next: Piece[] = [];
      for (let hi = t.window.hi; hi < dayEnd && next.length < MAX_PIECES; ) {
        const r = t.at(hi);
        const same =
          r.feature.geometry === f.geometry &&
          r.feature.type === f.type &&
          r.feature.properties._id === id &&
          r.feature.properties.country === cc;
        if (!same || validateFeature(r.feature).length > 0) break;
        const until = Number.isFinite(r.window.hi) ? r.window.hi : null;
        next.push({ from: hi, until, properties: r.feature.properties, explanation: r.explanation });
        if (until === null) break;
        hi = until;
      }
      out[id] = { cc, hi: t.window.hi, next };
    }
  }
  return out;
}

/** What moving to `now` changes: per country, the features to replace; the pieces and window after it. */
export interface Advance {
  changed: Map<string, Map<string, Piece>>;
  ahead: Record<string, Ahead>;
  window: [number, number | null];
}

/** The features at `now` (not before `lo`), or why they cannot be taken from the pieces. */
export function advanceTo(ahead: Record<string, Ahead>, lo: number, now: number): Advance | { miss: string } {
  const changed = new Map<string, Map<string, Piece>>();
  const after: Record<string, Ahead> = {};
  let from = lo;
  let hi = Number.POSITIVE_INFINITY;
  for (const [id, a] of Object.entries(ahead)) {
    if (now < a.hi) {
      after[id] = a;
      hi = Math.min(hi, a.hi);
      continue;
    }
    const i = a.next.findIndex((p) => p.from <= now && (p.until === null || now < p.until));
    if (i < 0) return { miss: `${id} is past what was resolved ahead` };
    const p = a.next[i]!;
    const byId = changed.get(a.cc) ?? new Map<string, Piece>();
    changed.set(a.cc, byId.set(id, p));
    from = Math.max(from, p.from);
    if (p.until !== null) {
      after[id] = { cc: a.cc, hi: p.until, next: a.next.slice(i + 1) };
      hi = Math.min(hi, p.until);
    }
  }
  return { changed, ahead: after, window: [from, Number.isFinite(hi) ? hi : null] };
}
