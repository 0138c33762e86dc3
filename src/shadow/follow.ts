// Following a published version (docs/design.md §5) at the cost of what changed (issue 24): a country whose collection has
// the SHA-256 the shadow state last followed, with every feature in step then and nothing waiting in the journal
// since, has the same features with the same dynamic parts, so neither it nor its part of the shadow manifest is
// read again (unless the master features are in an earlier layout, which loads every feature again). A country
// whose change set starts from the version followed has only its added and changed features hashed, the others'
// hashes carried from its part. Any other state reads every country.
import type { Feature } from "../model/contract.js";
import type { ObjectStore } from "../store/store.js";
import { legacyKeys, MASTER_PREFIX } from "./buckets.js";
import { Journal } from "./journal.js";
import { type PriorShadow, readParts, readShadowManifest, type ShadowManifest, type ShadowPart } from "./manifest.js";
import { runShadow, type ShadowOptions, type ShadowResult } from "./shadow.js";

/** A published version's countries: each collection's SHA-256, and how to read its features. */
export interface Published {
  sha256: ReadonlyMap<string, string>;
  read(cc: string): Promise<Feature[]>;
  /** The country's change from version `from` (its change set, docs/design.md §8), when the version has one. */
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
  // master features in an earlier layout are all loaded again: nothing is carried, no hash taken as held
  const legacy = legacyKeys(listed).length > 0;
  const prior = legacy ? undefined : await carriable(store, manifest);
  // a country whose collection is the one followed is carried whole: neither it nor its part is read
  const unread: Record<string, ShadowPart> = {};
  for (const [cc, sha256] of published.sha256) {
    const part = prior?.parts[cc];
    if (part?.collection === sha256) unread[cc] = part;
  }
  const parts = legacy ? new Map() : await readParts(store, manifest, new Set(Object.keys(unread)));
  const followed: Record<string, string> = {};
  const carried = new Map<string, string>();
  const features: Feature[] = [];
  // each feature in the part of the collection that holds it, whatever its `country`
  const partOf = new Map<Feature, string>();
  const take = (cc: string, own: readonly Feature[]) => {
    for (const f of own) {
      features.push(f);
      partOf.set(f, cc);
    }
    followed[cc] = published.sha256.get(cc)!;
  };
  let read = 0;
  let patched = 0;
  for (const cc of published.sha256.keys()) {
    if (unread[cc]) continue;
    // changed since the version followed: its change set says which features, the others keep their hashes
    const change = prior?.parts[cc]?.collection && (await published.change?.(cc));
    if (change && change.from === prior!.version) {
      const touched = new Set([...change.removed, ...change.changed.map((f) => f.properties._id)]);
      const held = parts.get(cc)!;
      for (const id in held) if (!touched.has(id)) carried.set(id, held[id]!);
      take(cc, [...change.added, ...change.changed]);
      patched++;
      continue;
    }
    take(cc, await published.read(cc));
    read++;
  }
  const result = await runShadow(store, features, {
    ...options,
    prior: manifest ?? null,
    listed,
    parts,
    partOf: (f) => partOf.get(f)!,
    carried,
    unread,
    followed,
  });
  return { ...result, read, patched };
}

/** The shadow manifest's head when its parts can be carried: no message waits. */
async function carriable(store: ObjectStore, prior: PriorShadow | undefined): Promise<ShadowManifest | undefined> {
  if (!prior || (await new Journal(store).pending()).length > 0) return undefined;
  return prior.head;
}
