// The explanations of one published version (src/resolve/explain.ts) in the store's internal part:
// `internal/explain/<version>.json.gz`, written once after the version (an unchanged re-run finds it there), read
// by `explain`, collected with its version by retention. Never public. The day's first version holds them all;
// a later version of the day holds what differs from it (kept for the record at a fraction of the size).
import { promisify } from "node:util";
import { gunzipSync, gzip } from "node:zlib";
import { EXPLAIN_SCHEMA, ExplainDocument, type Explanation } from "../model/explain.js";
import { isoInstant } from "../model/time.js";
import type { ObjectStore } from "../store/store.js";

export const explainKey = (version: string) => `internal/explain/${version}.json.gz`;

/** The explanations document of a version: its sources' standings and each feature's explanation, by id. */
export function explainDocument(
  version: string,
  date: string,
  now: number,
  sources: ExplainDocument["sources"],
  explanations: ReadonlyMap<string, Explanation> | Record<string, Explanation>,
): ExplainDocument {
  const entries = explanations instanceof Map ? [...explanations] : Object.entries(explanations);
  return {
    schema: EXPLAIN_SCHEMA,
    version,
    date,
    now: isoInstant(now),
    sources,
    features: Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

/** Writes `doc` whole when `base` is undefined (or the version itself), else what differs from `base`'s. */
export async function writeExplanations(store: ObjectStore, doc: ExplainDocument, base?: string): Promise<void> {
  const key = explainKey(doc.version);
  if (await store.head(key)) return;
  const from = base && base !== doc.version ? await readExplanations(store, base) : undefined;
  await put(store, key, from ? delta(doc, from) : doc);
}

const gzipAsync = promisify(gzip);

/** Compressed on zlib's thread pool: a Europe-scale day's ~15 MB go beside the run's next step. */
const put = async (store: ObjectStore, key: string, doc: ExplainDocument) =>
  store.put(key, await gzipAsync(Buffer.from(JSON.stringify(doc))), {
    contentType: "application/json",
    contentEncoding: "gzip",
    cacheControl: "no-store",
  });

/**
 * The explanations of a later version of the day than `prior`'s, which differ from `prior`'s only in `changed` (a
 * refresh past some features' windows): `prior`'s stored delta with `changed` laid over it, or `changed` alone when
 * `prior` is the day's first version `first`. Neither the first version's document nor the whole set is read; a
 * delta may so hold an entry equal to the first version's (one that changed back), which reading merges the same.
 * False, with nothing written, when `prior` is not stored or is a delta on another version than `first`.
 */
export async function writeExplanationsOver(
  store: ObjectStore,
  doc: Omit<ExplainDocument, "features">,
  prior: string,
  changed: ExplainDocument["features"],
  first: string,
): Promise<boolean> {
  const key = explainKey(doc.version);
  if (await store.head(key)) return true;
  if (doc.version === first || !(await store.head(explainKey(first)))) return false;
  // the day's first version is stored whole: only a later one's delta is read
  const stored = prior === first ? undefined : await readStored(store, prior);
  if (prior !== first && stored?.base !== first) return false;
  const over = stored ? { ...stored.features, ...changed } : { ...changed };
  const features = Object.fromEntries(Object.entries(over).sort(([a], [b]) => cmp(a, b)));
  const delta: ExplainDocument = { ...doc, features, base: first, removed: stored?.removed ?? [] };
  await put(store, key, delta);
  return true;
}

/** The explanations of a version, or undefined when none were stored (versions published before issue 15). */
export async function readExplanations(store: ObjectStore, version: string): Promise<ExplainDocument | undefined> {
  const doc = await readStored(store, version);
  if (!doc?.base) return doc;
  const base = await readStored(store, doc.base);
  if (!base) throw new Error(`${explainKey(version)}: its base ${doc.base} is gone`);
  const features = { ...base.features };
  for (const id of doc.removed ?? []) delete features[id];
  Object.assign(features, doc.features);
  const { base: _, removed: __, ...whole } = doc;
  return { ...whole, features: Object.fromEntries(Object.entries(features).sort(([a], [b]) => cmp(a, b))) };
}

async function readStored(store: ObjectStore, version: string): Promise<ExplainDocument | undefined> {
  const bytes = await store.get(explainKey(version));
  if (!bytes) return undefined;
  const json: unknown = JSON.parse(gunzipSync(bytes).toString("utf8"));
  const schema = typeof json === "object" && json !== null && "schema" in json ? json.schema : undefined;
  if (schema !== EXPLAIN_SCHEMA)
    throw new Error(`${explainKey(version)}: schema ${JSON.stringify(schema)} is not supported`);
  // the document's own fields are checked whole, its tens of thousands of entries by shape (zod over every one of
  // them was half of a Europe-scale refresh's reading): each an object with its rule
  const { features, ...rest } = json as { features?: unknown };
  const head = ExplainDocument.omit({ features: true }).parse(rest);
  if (typeof features !== "object" || features === null || Array.isArray(features))
    throw new Error(`${explainKey(version)}: features is not an object`);
  for (const [id, e] of Object.entries(features)) {
    if (typeof e !== "object" || e === null || typeof (e as { rule?: unknown }).rule !== "string")
      throw new Error(`${explainKey(version)}: the explanation of ${id} has no rule`);
  }
  return { ...head, features: features as ExplainDocument["features"] };
}

/** `doc` as what differs from `from` (a whole document). */
function delta(doc: ExplainDocument, from: ExplainDocument): ExplainDocument {
  const features: ExplainDocument["features"] = {};
  for (const [id, e] of Object.entries(doc.features)) {
    const was = from.features[id];
    if (!was || JSON.stringify(was) !== JSON.stringify(e)) features[id] = e;
  }
  const removed = Object.keys(from.features).filter((id) => !Object.hasOwn(doc.features, id));
  return { ...doc, features, base: from.version, removed };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
