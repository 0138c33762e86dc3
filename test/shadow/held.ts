import { readParts, readShadowManifest } from "../../src/shadow/manifest.js";
import type { ObjectStore } from "../../src/store/store.js";

/** Every hash the shadow manifest's parts hold, id → hash. */
export async function held(store: ObjectStore): Promise<Record<string, string>> {
  const parts = await readParts(store, await readShadowManifest(store));
  return Object.assign({}, ...parts.values());
}

/** One country's part, id → hash. */
export async function part(store: ObjectStore, cc: string): Promise<Record<string, string> | undefined> {
  return (await readParts(store, await readShadowManifest(store))).get(cc);
}
