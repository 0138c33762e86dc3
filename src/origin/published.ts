// What the origin serves from: per tier, the live version (followed through the pointer, re-read on a short
// interval by the server) and its fragments in a memory cache with a byte bound. A store that fails keeps the
// last good version answering; a new version is switched to only once its fragments are loaded (or do not fit).
import { createHash } from "node:crypto";
import type { CountryEntry, VersionManifest } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { currentPointer, manifestOf } from "../publish/read-back.js";
import type { ObjectStore } from "../publish/store.js";

/** Least recently used fragments, up to a number of bytes. Keys are content-addressed, so versions share them. */
export class FragmentCache {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;
  constructor(readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes || this.map.has(key)) return;
    this.map.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
}

export class FragmentMissing extends Error {
  override readonly name = "FragmentMissing";
}

export class TierView {
  current: VersionManifest | undefined;

  constructor(
    private readonly store: ObjectStore,
    readonly tier: Tier,
    private readonly cache: FragmentCache,
  ) {}

  /**
   * Re-reads the pointer; on a new version loads its fragments (as many as the cache holds), then switches.
   * Throws when the store cannot be read; the current version then stays.
   */
  async refresh(): Promise<"unchanged" | "switched" | "none"> {
    // the pointer alone tells whether anything changed: the manifest is read only for a new version
    const pointer = await currentPointer(this.store, this.tier);
    if (!pointer) return "none";
    if (pointer.version === this.current?.version) return "unchanged";
    const manifest = await manifestOf(this.store, pointer);
    let budget = this.cache.maxBytes;
    for (const entry of Object.values(manifest.countries)) {
      budget -= entry.gzBytes; // about the fragment's compressed size
      if (budget < 0) break;
      await this.fragment(entry);
    }
    this.current = manifest;
    return "switched";
  }

  /** A country's fragment, from the cache or the store; its bytes are checked against the manifest's hash. */
  async fragment(entry: CountryEntry): Promise<Buffer> {
    const hit = this.cache.get(entry.fragment);
    if (hit) return hit;
    const bytes = await this.store.get(entry.fragment);
    if (!bytes) throw new FragmentMissing(`${entry.fragment} is missing`);
    if (createHash("sha256").update(bytes).digest("hex") !== entry.fragmentSha256) {
      throw new FragmentMissing(`${entry.fragment} does not match its hash`);
    }
    this.cache.set(entry.fragment, bytes);
    return bytes;
  }
}
