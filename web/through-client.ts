// The page's data through the client (src/client, issue 51): the countries chosen are kept in the browser's IndexedDB,
// so coming back after a new version, or switching between today and tomorrow once each was shown, takes a change set
// (or nothing), not a full download; at midnight today's chain goes on from tomorrow's. The frames drawn are made
// from the held collections with the map form's own encoder. EUROPE stays on the origin's map form (main.ts): all
// countries' whole collections are more than a browser should keep, and its first paint is the benchmark's.
import { createClient, type SyncResult } from "../src/client/client.js";
import { indexedDbStorage } from "../src/client/storage-indexeddb.js";
import type { Feature } from "../src/model/contract.js";
import { encodeMapFrame, MapFormReader, type MapFrame, mapEnd } from "../src/origin/map-form.js";

const storage = indexedDbStorage("airspace-map");

export interface Held {
  frames: MapFrame[];
  sync: SyncResult;
}

/** `countries` of `day` brought to the live version, and their frames. */
export async function throughClient(token: string, countries: string[], day: "today" | "tomorrow"): Promise<Held> {
  const client = createClient({ endpoint: location.origin, token, countries, day, storage });
  const sync = await client.sync();
  const reader = new MapFormReader();
  let n = 0;
  for (const cc of [...countries].sort()) {
    const held = await client.collection(cc);
    if (!held) continue;
    reader.push(encodeMapFrame(cc, held.features as unknown as Feature[]));
    n++;
  }
  reader.push(mapEnd(n));
  return { frames: reader.end(), sync };
}
