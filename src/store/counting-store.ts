// A store that counts what passes through it, for `replay` and the benchmarks: requests by operation and bytes
// written and read. Behaves exactly as the store it wraps.
import type { ConditionalPut, ObjectStore, PutExpectation, PutOptions } from "./store.js";

export interface StoreCounts {
  get: number;
  put: number;
  head: number;
  list: number;
  delete: number;
  bytesWritten: number;
  bytesRead: number;
}

export const noCounts = (): StoreCounts => ({
  get: 0,
  put: 0,
  head: 0,
  list: 0,
  delete: 0,
  bytesWritten: 0,
  bytesRead: 0,
});

export class CountingStore implements ObjectStore {
  counts = noCounts();

  constructor(private readonly inner: ObjectStore) {}

  /** The inner store's compare-and-swap; `unsupported` (nothing written) where it has none, as the port says. */
  async putIfMatch(key: string, body: Buffer, options: PutOptions, expected: PutExpectation): Promise<ConditionalPut> {
    if (!this.inner.putIfMatch) return "unsupported";
    this.counts.put++;
    const r = await this.inner.putIfMatch(key, body, options, expected);
    if (r === "written") this.counts.bytesWritten += body.length;
    return r;
  }

  get url(): string {
    return this.inner.url;
  }

  /** The counts since the last call, and a fresh start. */
  take(): StoreCounts {
    const c = this.counts;
    this.counts = noCounts();
    return c;
  }

  async get(key: string): Promise<Buffer | undefined> {
    this.counts.get++;
    const b = await this.inner.get(key);
    this.counts.bytesRead += b?.length ?? 0;
    return b;
  }

  async put(key: string, body: Buffer, options?: PutOptions): Promise<void> {
    this.counts.put++;
    this.counts.bytesWritten += body.length;
    await this.inner.put(key, body, options);
  }

  head(key: string): Promise<{ size: number; etag?: string } | undefined> {
    this.counts.head++;
    return this.inner.head(key);
  }

  list(prefix: string): Promise<string[]> {
    this.counts.list++;
    return this.inner.list(prefix);
  }

  delete(key: string): Promise<void> {
    this.counts.delete++;
    return this.inner.delete(key);
  }
}
