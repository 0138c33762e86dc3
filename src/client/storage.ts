// Where a client holds its collections (docs/client.md): one record per country, its version, its features digest and
// the collection's text. A record is written whole or not at all; the client checks the digest when it loads one, so a
// record a crash cut is downloaded again. In memory here; a folder for Node (storage-folder.ts), IndexedDB in a
// browser (storage-indexeddb.ts).

export interface HeldCountry {
  version: string;
  /** The UTC day it is of (`YYYY-MM-DD`): activity is known within it only. */
  day: string;
  digest: string;
  text: string;
}

export interface ClientStorage {
  load(country: string): Promise<HeldCountry | undefined>;
  save(country: string, held: HeldCountry): Promise<void>;
}

/** Held in this process only: a restart starts from nothing. */
export function memoryStorage(): ClientStorage {
  const held = new Map<string, HeldCountry>();
  return {
    load: async (cc) => held.get(cc),
    save: async (cc, h) => void held.set(cc, h),
  };
}
