// An ObjectStore in memory: `explain` over inputs publishes into it, tests use it where no files are needed.
import type { ObjectStore } from "./store.js";

export class MemoryStore implements ObjectStore {
  readonly url = "memory:";
  private readonly objects = new Map<string, Buffer>();

  async get(key: string): Promise<Buffer | undefined> {
    return this.objects.get(key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    this.objects.set(key, Buffer.from(body));
  }

  async head(key: string): Promise<{ size: number } | undefined> {
    const b = this.objects.get(key);
    return b ? { size: b.length } : undefined;
  }

  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
}
