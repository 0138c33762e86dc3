// Following a published version (DESIGN §5) at the cost of what changed (issue 24): a country whose collection has
// the SHA-256 the shadow state last followed, with every feature in step then and nothing waiting in the journal
// since, has the same features with the same dynamic parts, so it is neither read nor hashed again; its features'
// hashes are carried from the shadow manifest (unless the master features are in an earlier layout, which loads
// every feature again). A country whose change set starts from the version followed has only its added and changed
// features hashed. Any other state reads every country.
import type { Feature } from "../model/contract.js";
import type { ObjectStore } from "../publish/store.js";
import { Journal } from "./journal.js";
import {
  legacyKeys,
  MASTER_PREFIX,
  readShadowManifest,
  runShadow,
  type ShadowManifest,
  type ShadowOptions,
  type ShadowResult,
} from "./shadow.js";

/** A published version's countries: each collection's SHA-256, and how to read its features. */
export interface Published {
  sha256: ReadonlyMap<string, string>;
  read(cc: string): Promise<Feature[]>;
  /** The country's change from version `from` (its change set, DESIGN §8), when the version has one. */
  change?(cc: string): Promise<CountryChange | undefined>;
}

export interface CountryChange {
  from: string;
  added: Feature[];
  changed: Feature[];
  removed: string[];
}

/** Runs the shadow path over `published`, reading only the countries it has not followed already. */
export async function followPublished(
  store: ObjectStore,
  published: Published,
  options: ShadowOptions,
): Promise<ShadowResult & { read: number; patched: number }> {
  // `read`: the countries read and hashed; `patched`: those taken from their change set
  const manifest = await readShadowManifest(store);
  const listed = await store.list(MASTER_PREFIX);
  // master features in an earlier layout are all loaded again: nothing is carried
  const prior = legacyKeys(listed).length > 0 ? undefined : await priorCountries(store, manifest);
  const followed: NonNullable<ShadowManifest["countries"]> = {};
  const carried = new Map<string, string>();
  const features: Feature[] = [];
  let read = 0;
  let patched = 0;
  for (const [cc, sha256] of published.sha256) {
    const before = prior?.countries[cc];
    if (before && before.sha256 === sha256) {
      for (const id of before.ids) carried.set(id, prior.features[id]!);
      followed[cc] = before;
      continue;
    }
    // changed since the version followed: its change set says which features, the others keep their hashes
    const change = before && (await published.change?.(cc));
    if (before && change && change.from === prior.version) {
      const touched = new Set([...change.removed, ...change.changed.map((f) => f.properties._id)]);
      const kept = before.ids.filter((id) => !touched.has(id));
      for (const id of kept) carried.set(id, prior.features[id]!);
      features.push(...change.added, ...change.changed);
      const ids = [
        ...kept,
        ...change.added.map((f) => f.properties._id),
        ...change.changed.map((f) => f.properties._id),
      ];
      followed[cc] = { sha256, ids: ids.sort() };
      patched++;
      continue;
    }
    const own = await published.read(cc);
    read++;
    features.push(...own);
    followed[cc] = { sha256, ids: own.map((f) => f.properties._id) };
  }
  const result = await runShadow(store, features, { ...options, prior: manifest ?? null, listed, carried, followed });
  return { ...result, read, patched };
}

/** The shadow manifest's countries with their hashes, when they can be carried: recorded, and no message waits. */
async function priorCountries(
  store: ObjectStore,
  prior: ShadowManifest | undefined,
): Promise<(ShadowManifest & { countries: NonNullable<ShadowManifest["countries"]> }) | undefined> {
  if (!prior?.countries) return undefined;
  if ((await new Journal(store).pending()).length > 0) return undefined;
  const complete = Object.values(prior.countries).every((c) => c.ids.every((id) => prior.features[id] !== undefined));
  return complete ? { ...prior, countries: prior.countries } : undefined;
}
