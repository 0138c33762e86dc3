// Following a published version (DESIGN §5) at the cost of what changed (issue 24): a country whose collection has
// the SHA-256 the shadow state last followed, with every feature in step then and nothing waiting in the journal
// since, has the same features with the same dynamic parts, so it is neither read nor hashed again; its features'
// hashes are carried from the shadow manifest. Any other state reads every country.
import type { Feature } from "../model/contract.js";
import { parseVersioned } from "../model/manifest.js";
import type { ObjectStore } from "../publish/store.js";
import { Journal } from "./journal.js";
import { runShadow, SHADOW_MANIFEST_KEY, ShadowManifest, type ShadowOptions, type ShadowResult } from "./shadow.js";

/** A published version's countries: each collection's SHA-256, and how to read its features. */
export interface Published {
  sha256: ReadonlyMap<string, string>;
  read(cc: string): Promise<Feature[]>;
}

/** Runs the shadow path over `published`, reading only the countries it has not followed already. */
export async function followPublished(
  store: ObjectStore,
  published: Published,
  options: ShadowOptions,
): Promise<ShadowResult & { read: number }> {
  // `read`: the countries read and hashed
  const prior = await priorCountries(store);
  const followed: NonNullable<ShadowManifest["countries"]> = {};
  const carried = new Map<string, string>();
  const features: Feature[] = [];
  let read = 0;
  for (const [cc, sha256] of published.sha256) {
    const before = prior?.countries[cc];
    if (before && before.sha256 === sha256) {
      for (const id of before.ids) carried.set(id, prior.features[id]!);
      followed[cc] = before;
      continue;
    }
    const own = await published.read(cc);
    read++;
    features.push(...own);
    followed[cc] = { sha256, ids: own.map((f) => f.properties._id) };
  }
  const result = await runShadow(store, features, { ...options, carried, followed });
  return { ...result, read };
}

/** The shadow manifest's countries with their hashes, when they can be carried: recorded, and no message waits. */
async function priorCountries(
  store: ObjectStore,
): Promise<{ countries: NonNullable<ShadowManifest["countries"]>; features: Record<string, string> } | undefined> {
  const body = await store.get(SHADOW_MANIFEST_KEY);
  const prior = body && parseVersioned(ShadowManifest, body.toString("utf8"), SHADOW_MANIFEST_KEY);
  if (!prior?.countries) return undefined;
  if ((await new Journal(store).pending()).length > 0) return undefined;
  const complete = Object.values(prior.countries).every((c) => c.ids.every((id) => prior.features[id] !== undefined));
  return complete ? { countries: prior.countries, features: prior.features } : undefined;
}
