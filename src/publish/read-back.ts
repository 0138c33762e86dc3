// Reading a published version back: the pointer, its manifest, a country's FeatureCollection.
import { gunzipSync } from "node:zlib";
import type { FeatureCollection } from "../model/contract.js";
import { Pointer, parseVersioned, VersionManifest } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { tierPrefix } from "./artifacts.js";
import type { ObjectStore } from "./store.js";

export async function currentManifest(
  store: ObjectStore,
  tier: Tier = "dynamic",
): Promise<VersionManifest | undefined> {
  const pointer = await store.get(`${tierPrefix(tier)}/current.json`);
  if (!pointer) return undefined;
  const p = parseVersioned(Pointer, pointer.toString("utf8"), "v1/current.json");
  const manifest = await store.get(p.manifest);
  if (!manifest) throw new Error(`${p.manifest} named by the pointer is missing`);
  return parseVersioned(VersionManifest, manifest.toString("utf8"), p.manifest);
}

export async function readCollection(store: ObjectStore, key: string): Promise<FeatureCollection> {
  const gz = await store.get(key);
  if (!gz) throw new Error(`${key} is missing`);
  return JSON.parse(gunzipSync(gz).toString("utf8")) as FeatureCollection;
}
