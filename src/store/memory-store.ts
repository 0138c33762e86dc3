// An ObjectStore in memory: `explain` over inputs publishes into it, tests use it where no files are needed.
import {
  type ConditionalPut,
  checkExpectation,
  contentEtag,
  expectationHolds,
  type ObjectStore,
  type PutExpectation,
  type PutOptions,
} from "./store.js";

export class MemoryStore implements ObjectStore {
  readonly url = "memory:";
  private readonly objects = new Map<string, Buffer>();

  async get(key: string): Promise<Buffer | undefined> {
    return this.objects.get(key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    this.objects.set(key, Buffer.from(body));
  }

  async head(key: string): Promise<{ size: number; etag: string } | undefined> {
    const b = this.objects.get(key);
    return b ? { size: b.length, etag: contentEtag(b) } : undefined;
  }

  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  /** Check and write happen in one turn of the event loop, so no other call can come between them. */
  async putIfMatch(key: string, body: Buffer, _options: PutOptions, expected: PutExpectation): Promise<ConditionalPut> {
    const want = checkExpectation(expected);
    const current = this.objects.get(key);
    if (!expectationHolds(want, current && contentEtag(current))) return "conflict";
    this.objects.set(key, Buffer.from(body));
    return "written";
  }
}
