// What a run derived from a source's bytes, kept in the store's internal tier so the next run (on this machine or a
// new one) does not derive it again (issue 24): `internal/cache/<kind>/<sha256 of the name>/<key>.json.gz`, where
// the key digests the code's version, the source's name and its bytes. Code of another version never reads an
// entry (its key differs); one entry per source name is kept, older ones deleted when a new one is written.
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { ObjectStore } from "./store.js";

const PREFIX = "internal/cache/";
const HEADERS = { contentType: "application/json", contentEncoding: "gzip", cacheControl: "no-store" };

export class ReadCache {
  /** Entries served, and derived entries the store would not take, for the run's log. */
  readonly counts = { hits: 0, unwritten: 0 };

  /** `codeVersion` digests the code that derives the values: a new version derives everything again. */
  constructor(
    private readonly store: ObjectStore,
    private readonly codeVersion: string,
  ) {}

  /**
   * The value `derive` gives for a source's bytes: the stored one when this code derived it before, else derived
   * and stored. `derive` throwing stores nothing. A stored entry that cannot be read is derived again; a store that
   * fails the cache's own requests costs the cache, never the run (counted in `unwritten`).
   */
  async value<T>(kind: string, name: string, bytes: Uint8Array, derive: () => T): Promise<T> {
    const folder = `${PREFIX}${kind}/${hex(name)}/`;
    const key = `${folder}${createHash("sha256").update(`${this.codeVersion}\0${name}\0`).update(bytes).digest("hex")}.json.gz`;
    const stored = await this.store.get(key).catch(() => undefined);
    if (stored) {
      try {
        const value = JSON.parse(gunzipSync(stored).toString("utf8")) as T;
        this.counts.hits++;
        return value;
      } catch {
        // a cut or foreign object: derive it again below
      }
    }
    const value = derive();
    try {
      await this.store.put(key, gzipSync(JSON.stringify(value), { level: 1 }), HEADERS);
      for (const old of await this.store.list(folder)) if (old !== key) await this.store.delete(old);
    } catch {
      this.counts.unwritten++;
    }
    return value;
  }
}

const hex = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 32);
