// A country's collection as the client holds it: the JSON text the service published, changed by a change set into
// the text the service publishes next (docs/client.md). Features are replaced whole by `_id` and kept sorted by it,
// each written as JSON.stringify writes it, so the result is the live collection byte for byte.
import { featureTexts, idOfText } from "../model/collection-text.js";

/** One country's change as `/v1/data/changes` answers it. */
export interface CountryChange {
  meta: unknown;
  added: ReadonlyArray<{ properties: { _id: string } }>;
  changed: ReadonlyArray<{ properties: { _id: string } }>;
  removed: readonly string[];
}

/** The collection text `held` with `change` applied; throws when `held` is not a collection as published. */
export function applyChange(held: string, change: CountryChange): string {
  const byId = new Map<string, string>();
  for (const t of featureTexts(held)) byId.set(idOfText(t), t);
  for (const id of change.removed) byId.delete(id);
  for (const f of [...change.changed, ...change.added]) byId.set(f.properties._id, JSON.stringify(f));
  const ids = [...byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return collectionText(
    ids.map((id) => byId.get(id)!),
    change.meta,
  );
}

/** A collection's text from its features' texts (sorted by `_id`) and its `meta`. */
export function collectionText(features: readonly string[], meta: unknown): string {
  return `{"type":"FeatureCollection","features":[${features.join(",")}],"meta":${JSON.stringify(meta)}}`;
}
