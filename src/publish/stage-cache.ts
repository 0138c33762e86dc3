// What a run derived, kept in the store's internal tier so the next run (on this machine or a new one) does not
// derive it again (issue 24): `internal/cache/<folder>/<key>.json.gz`, gzip JSON. Every key digests the running
// code's version (jobs/code-version.ts: every file of src/, parsers and rules included) with the stage's inputs, so
// code of another version never reads an entry. One entry per folder is kept: writing one deletes the others.
// Folders: `airspace-read/<name digest>` (a source's reading), `day/<date>` (a day's publication, src/incremental.ts),
// `country/<date>/<tier>-<cc>` (a country's serialised collection); `prune` drops the day folders of past days.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gunzipSync, gzip, gzipSync } from "node:zlib";
import type { ObjectStore } from "../store/store.js";

const gzipAsync = promisify(gzip);

const PREFIX = "internal/cache/";
const NEWLINE = Buffer.from("\n");

/** Lines (UTF-8) joined by `\n`. */
function joinLines(lines: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const [i, line] of lines.entries()) {
    if (i > 0) parts.push(NEWLINE);
    parts.push(line);
  }
  return Buffer.concat(parts);
}
const HEADERS = { contentType: "application/json", contentEncoding: "gzip", cacheControl: "no-store" };

export class StageCache {
  /** Entries served, and entries the store would not take, for the run's log. */
  readonly counts = { hits: 0, unwritten: 0 };
  /**
   * Writes under way, by the folder they replace: an entry's text is made when it is put (the caller may change the
   * value after), its compression and upload go on beside the run (zlib's thread pool), in order within a folder.
   */
  private readonly writes = new Map<string, Promise<void>>();

  /** `codeVersion` digests the code that derives the values: a new version derives everything again. */
  constructor(
    private readonly store: ObjectStore,
    readonly codeVersion: string,
  ) {}

  /** The key of an entry derived from these parts by this code. */
  key(...parts: ReadonlyArray<string | Uint8Array>): string {
    const hash = createHash("sha256").update(this.codeVersion);
    for (const p of parts) hash.update("\0").update(p);
    return hash.digest("hex");
  }

  /** The stored entry, or undefined when there is none, or it cannot be read (cut, foreign): derive it again. */
  async get<T>(folder: string, key: string): Promise<T | undefined> {
    return this.getAs(folder, key, (text) => JSON.parse(text) as T);
  }

  /** An entry stored as lines (`putLines`), each a record the caller checks. */
  async getLines(folder: string, key: string): Promise<string[] | undefined> {
    return this.getAs(folder, key, (text) => text.split("\n"));
  }

  private async getAs<T>(folder: string, key: string, decode: (text: string) => T): Promise<T | undefined> {
    const stored = await this.store.get(entryKey(folder, key)).catch(() => undefined);
    if (!stored) return undefined;
    try {
      const value = decode(gunzipSync(stored).toString("utf8"));
      this.counts.hits++;
      return value;
    } catch {
      return undefined;
    }
  }

  /** Stores an entry in place of the folder's others; a store that refuses costs the cache, never the run. */
  put(folder: string, key: string, value: unknown): void {
    const k = entryKey(folder, key);
    const body = JSON.stringify(value);
    // output room for the whole entry (JSON deflates ~5:1): zlib's thread pool seldom waits for the main thread
    const chunkSize = Math.max(64 * 1024, body.length >> 2);
    this.write(folder, async () => {
      await this.store.put(k, await gzipAsync(body, { level: 1, chunkSize }), HEADERS);
      for (const old of await this.store.list(`${PREFIX}${folder}/`)) if (old !== k) await this.store.delete(old);
    });
  }

  /**
   * Stores entries under `<under>/<name>/` in place of every other entry under `under`: one listing for all of
   * them, not one per entry. Each entry is lines of UTF-8 text without line breaks of their own (records as JSON),
   * joined rather than written as a JSON array of strings: that escaped every quote again, and a refresh parsed
   * megabytes of strings to split them (`getLines` reads one).
   */
  async putLines(
    under: string,
    key: string,
    entries: Iterable<[name: string, lines: readonly Buffer[]]>,
  ): Promise<void> {
    // written as they are made, one at a time: the entries of a Europe-scale day are ~100 MB of text
    try {
      const written = new Set<string>();
      for (const [name, lines] of entries) {
        const k = entryKey(`${under}/${name}`, key);
        await this.store.put(k, gzipSync(joinLines(lines), { level: 1 }), HEADERS);
        written.add(k);
      }
      for (const old of await this.store.list(`${PREFIX}${under}/`))
        if (!written.has(old)) await this.store.delete(old);
    } catch {
      this.counts.unwritten++;
    }
  }

  /** Runs `task` after the writes to `folder` before it; its failure is counted, never thrown. */
  private write(folder: string, task: () => Promise<void>): void {
    const before = this.writes.get(folder) ?? Promise.resolve();
    const done = before.then(task).catch(() => {
      this.counts.unwritten++;
    });
    this.writes.set(folder, done);
  }

  /** Waits for every write under way (a run does before it reports, and before it ends). */
  async settled(): Promise<void> {
    for (let pending = [...this.writes]; pending.length > 0; pending = [...this.writes]) {
      await Promise.all(pending.map(([, p]) => p));
      for (const [folder, p] of pending) if (this.writes.get(folder) === p) this.writes.delete(folder);
    }
  }

  /**
   * The value `derive` gives for a source's bytes: the stored one when this code derived it before, else derived
   * and stored. `derive` throwing stores nothing.
   */
  async value<T>(kind: string, name: string, bytes: Uint8Array, derive: () => T): Promise<T> {
    const folder = `${kind}/${createHash("sha256").update(name).digest("hex").slice(0, 32)}`;
    const key = this.key(name, bytes);
    const stored = await this.get<T>(folder, key);
    if (stored !== undefined) return stored;
    const value = derive();
    this.put(folder, key, value);
    return value;
  }

  /** Deletes the entries under `internal/cache/<kind>/<date>/` of dates before `before` (YYYY-MM-DD). */
  async prune(kind: string, before: string): Promise<void> {
    try {
      const folder = `${PREFIX}${kind}/`;
      for (const k of await this.store.list(folder)) {
        const date = k.slice(folder.length, folder.length + 10);
        if (/^\d{4}-\d{2}-\d{2}$/.test(date) && date < before) await this.store.delete(k);
      }
    } catch {
      this.counts.unwritten++;
    }
  }
}

const entryKey = (folder: string, key: string) => `${PREFIX}${folder}/${key}.json.gz`;
