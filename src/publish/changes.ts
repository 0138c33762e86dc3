// Change sets (docs/design.md §8): what changed in one country from the previous version of the same day, and the composed
// change from any earlier version to a later one. Features are compared as the JSON text they are published as, so
// a change set applied to the old collection gives the new one exactly (collections are sorted by `_id`).
//   U ──Δ1──▶ V1 ──Δ2──▶ V2      compose(Δ1, Δ2) = one change from U to V2: a feature added then changed is added,
//                                added then removed is nothing, changed then removed is removed.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { Feature, FeatureCollection } from "../model/contract.js";
import { type ChangeSet, MANIFEST_SCHEMA } from "../model/manifest.js";

export interface Change {
  added: Feature[];
  changed: Feature[];
  removed: string[];
}

const idOf = (f: Feature) => f.properties._id;

/** The change from `before` to `after` (both lists of one country's features). */
export function diffFeatures(before: readonly Feature[], after: readonly Feature[]): Change {
  const old = new Map(before.map((f) => [idOf(f), f]));
  const added: Feature[] = [];
  const changed: Feature[] = [];
  for (const f of after) {
    const was = old.get(idOf(f));
    if (was === undefined) added.push(f);
    // the same object is the same feature (a refresh keeps its unchanged ones); else compared as published
    else if (was !== f && JSON.stringify(was) !== JSON.stringify(f)) changed.push(f);
    old.delete(idOf(f));
  }
  return { added, changed, removed: [...old.keys()].sort() };
}

/** The change set object of one country: its bytes (gzip), key and sizes. */
export function changeSetObject(
  base: string,
  set: Omit<ChangeSet, "schema">,
): { key: string; gz: Buffer; sha256: string; bytes: number } {
  const text = Buffer.from(JSON.stringify({ schema: MANIFEST_SCHEMA, ...set }));
  const gz = gzipSync(text, { level: 6 });
  const sha256 = createHash("sha256").update(gz).digest("hex");
  return { key: `${base}/changes/${set.day}/${sha256}.json.gz`, gz, sha256, bytes: text.length };
}

/**
 * Several consecutive changes of one country as one. `existed(id)` tells whether the feature was in the collection
 * the first change starts from (the first change's own lists say so for every id it touches; for the others the
 * first mention decides: `added` means it was not there).
 */
export function composeChanges(changes: readonly Change[]): Change {
  const state = new Map<string, { was: boolean; now: Feature | null }>();
  for (const c of changes) {
    for (const id of c.removed) {
      const s = state.get(id);
      state.set(id, { was: s ? s.was : true, now: null });
    }
    for (const f of c.changed) {
      const s = state.get(idOf(f));
      state.set(idOf(f), { was: s ? s.was : true, now: f });
    }
    for (const f of c.added) {
      const s = state.get(idOf(f));
      state.set(idOf(f), { was: s ? s.was : false, now: f });
    }
  }
  const out: Change = { added: [], changed: [], removed: [] };
  for (const [id, s] of [...state].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (s.now === null) {
      if (s.was) out.removed.push(id);
    } else if (s.was) out.changed.push(s.now);
    else out.added.push(s.now);
  }
  return out;
}

/** A collection with a change applied: removed ids out, changed ones replaced, added ones in, sorted by `_id`. */
export function applyChange(
  collection: FeatureCollection,
  change: Change,
  meta: FeatureCollection["meta"],
): FeatureCollection {
  const byId = new Map(collection.features.map((f) => [idOf(f), f]));
  for (const id of change.removed) byId.delete(id);
  for (const f of [...change.changed, ...change.added]) byId.set(idOf(f), f);
  const features = [...byId.values()].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
  return { type: "FeatureCollection", features, meta };
}
