// A client's collections in the browser's IndexedDB (docs/client.md), in the object store `countries` of the database
// `name`: per record a head (`GB`: version, day, digest and the number of parts) and the text in parts (`GB#0000`, …)
// of at most 8 Mi characters, since Chromium refuses a value over ~133 MB serialised (a string is 2 bytes a character
// there: a country at Europe scale with its NOTAMs, 90 M characters, was refused whole). A save is one transaction,
// so a record is written whole or not at all; the client checks its digest when it loads it.
import type { ClientStorage, HeldCountry } from "./storage.js";

const STORE = "countries";
/** Characters a part holds. */
const PART = 8 * 1024 * 1024;

type Head = Omit<HeldCountry, "text"> & { parts: number };

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
  get(key: string): Request<unknown>;
  put(value: unknown, key: string): Request<unknown>;
  delete(range: unknown): Request<unknown>;
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
interface Browser {
  indexedDB?: { open(name: string, version: number): OpenRequest };
  IDBKeyRange?: { bound(lower: string, upper: string): unknown };
}

const browser = (): Required<Browser> => {
  const b = globalThis as Browser;
  if (!b.indexedDB || !b.IDBKeyRange)
    throw new Error("indexedDbStorage: this runtime has no IndexedDB (in Node, use folderStorage)");
  return b as Required<Browser>;
};

const partKey = (key: string, i: number) => `${key}#${String(i).padStart(4, "0")}`;

export function indexedDbStorage(name = "airspace-publisher"): ClientStorage {
  let db: Promise<Database> | undefined;
  const opened = () => {
    db ??= new Promise<Database>((resolve, reject) => {
      const req = browser().indexedDB.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return db;
  };
  /** `op` in one transaction; resolves with what it gave once the transaction is complete. */
  const run = async <T>(mode: "readonly" | "readwrite", op: (s: ObjectStore) => () => T): Promise<T> => {
    const tx = (await opened()).transaction(STORE, mode);
    const result = op(tx.objectStore(STORE));
    return new Promise<T>((resolve, reject) => {
      tx.oncomplete = () => resolve(result());
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  };
  return {
    load: (key) =>
      run("readonly", (s) => {
        let head: Head | undefined;
        const parts: string[] = [];
        const req = s.get(key);
        req.onsuccess = () => {
          head = req.result as Head | undefined;
          for (let i = 0; i < (head?.parts ?? 0); i++) {
            const part = s.get(partKey(key, i));
            part.onsuccess = () => {
              parts[i] = part.result as string;
            };
          }
        };
        return () => {
          if (!head || parts.length !== head.parts || parts.some((p) => typeof p !== "string")) return undefined;
          const { parts: _, ...rest } = head;
          return { ...rest, text: parts.join("") };
        };
      }),
    save: (key, held) =>
      run("readwrite", (s) => {
        const { text, ...rest } = held;
        const parts = Math.ceil(text.length / PART);
        s.delete(browser().IDBKeyRange.bound(partKey(key, parts), partKey(key, 9999)));
        for (let i = 0; i < parts; i++) s.put(text.slice(i * PART, (i + 1) * PART), partKey(key, i));
        s.put({ ...rest, parts } satisfies Head, key);
        return () => undefined;
      }),
  };
}
