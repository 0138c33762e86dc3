// Reading a published version back: the pointer, its manifest, a country's FeatureCollection, and EUROPE
// joined from the countries' fragments exactly as the manifest describes it.
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type { FeatureCollection } from "../model/contract.js";
import { ChangeSet, type CountryEntry, Pointer, parseVersioned, VersionManifest } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import type { ObjectStore } from "../store/store.js";
import { joinMember, pieceOf, tierPrefix } from "./artifacts.js";

export async function currentManifest(
  store: ObjectStore,
  tier: Tier = "dynamic",
): Promise<VersionManifest | undefined> {
  const p = await currentPointer(store, tier);
  return p && manifestOf(store, p);
}

export async function currentPointer(store: ObjectStore, tier: Tier = "dynamic"): Promise<Pointer | undefined> {
  const key = `${tierPrefix(tier)}/current.json`;
  const pointer = await store.get(key);
  return pointer && parseVersioned(Pointer, pointer.toString("utf8"), key);
}

export async function manifestOf(store: ObjectStore, p: Pointer): Promise<VersionManifest> {
  const manifest = await store.get(p.manifest);
  if (!manifest) throw new Error(`${p.manifest} named by the pointer is missing`);
  return parseVersioned(VersionManifest, manifest.toString("utf8"), p.manifest);
}

export async function readCollection(store: ObjectStore, key: string): Promise<FeatureCollection> {
  const gz = await store.get(key);
  if (!gz) throw new Error(`${key} is missing`);
  return JSON.parse(gunzipSync(gz).toString("utf8")) as FeatureCollection;
}

/** A country's collection of a manifest, refused when its bytes are not those the manifest hashed. */
export async function readCountry(store: ObjectStore, entry: CountryEntry): Promise<FeatureCollection> {
  const gz = await store.get(entry.key);
  if (!gz) throw new Error(`${entry.key} is missing`);
  if (createHash("sha256").update(gz).digest("hex") !== entry.sha256) {
    throw new Error(`${entry.key} does not hash to the manifest's sha256`);
  }
  return JSON.parse(gunzipSync(gz).toString("utf8")) as FeatureCollection;
}

/** A country's change set of a manifest, when it has one; refused when its bytes are not those the manifest hashed. */
export async function readChangeSet(store: ObjectStore, entry: CountryEntry): Promise<ChangeSet | undefined> {
  if (!entry.changes) return undefined;
  const { key, sha256 } = entry.changes;
  const gz = await store.get(key);
  if (!gz) throw new Error(`${key} is missing`);
  if (createHash("sha256").update(gz).digest("hex") !== sha256) {
    throw new Error(`${key} does not hash to the manifest's sha256`);
  }
  return parseVersioned(ChangeSet, gunzipSync(gz).toString("utf8"), key);
}

/** EUROPE's gzip member, joined from the fragments it names; refused when it is not the member the manifest hashed. */
export async function europeMember(store: ObjectStore, manifest: VersionManifest): Promise<Buffer> {
  const { europe } = manifest;
  const pieces = await Promise.all(
    europe.parts.map(async (cc) => {
      const entry = manifest.countries[cc];
      const fragment = entry && (await store.get(entry.fragment));
      if (!entry || !fragment) throw new Error(`EUROPE: the fragment of ${cc} is missing`);
      return pieceOf({ entry, fragment });
    }),
  );
  const gz = joinMember(pieces, europe.count, manifest.tier);
  if (createHash("sha256").update(gz).digest("hex") !== europe.sha256) {
    throw new Error(`EUROPE of ${manifest.version}: the joined fragments do not hash to the manifest's sha256`);
  }
  return gz;
}

export async function readEurope(store: ObjectStore, manifest: VersionManifest): Promise<FeatureCollection> {
  return JSON.parse(gunzipSync(await europeMember(store, manifest)).toString("utf8")) as FeatureCollection;
}
