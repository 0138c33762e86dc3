// A client's collections in the browser's IndexedDB (docs/client.md): one record per country in the object store
// `countries` of the database `name`. A put is one transaction, so a record is written whole or not at all; the client
// checks its digest when it loads it.
import type { ClientStorage, HeldCountry } from "./storage.js";

const STORE = "countries";

// The part of the browser's IndexedDB this uses, typed here: the project compiles against Node's types, not the DOM's.
interface Request<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface OpenRequest extends Request<Database> {
  onupgradeneeded: (() => void) | null;
}
interface ObjectStore {
  get(key: string): Request<HeldCountry | undefined>;
  put(value: HeldCountry, key: string): Request<unknown>;
}
interface Transaction {
  objectStore(name: string): ObjectStore;
  error: unknown;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}
interface Database {
  createObjectStore(name: string): unknown;
  transaction(name: string, mode: "readonly" | "readwrite"): Transaction;
}

const indexedDB = (): { open(name: string, version: number): OpenRequest } => {
  const idb = (globalThis as { indexedDB?: { open(name: string, version: number): OpenRequest } }).indexedDB;
  if (!idb) throw new Error("indexedDbStorage: this runtime has no IndexedDB (in Node, use folderStorage)");
  return idb;
};

export function indexedDbStorage(name = "airspace-publisher"): ClientStorage {
  let db: Promise<Database> | undefined;
  const opened = () => {
    db ??= new Promise<Database>((resolve, reject) => {
      const req = indexedDB().open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return db;
  };
  const run = async <T>(mode: "readonly" | "readwrite", op: (s: ObjectStore) => Request<T>): Promise<T> => {
    const tx = (await opened()).transaction(STORE, mode);
    const req = op(tx.objectStore(STORE));
    return new Promise<T>((resolve, reject) => {
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  };
  return {
    load: async (cc) => (await run<HeldCountry | undefined>("readonly", (s) => s.get(cc))) ?? undefined,
    save: async (cc, held) => void (await run("readwrite", (s) => s.put(held, cc))),
  };
}
