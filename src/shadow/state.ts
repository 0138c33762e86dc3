// What the shadow path compares (DESIGN §5): the features published, each with the hash of its dynamic part, against
// the hashes the shadow manifest holds, and the hashes this run wrote. Features carried in step from the manifest
// (shadow/follow.ts: ~48 000 at Europe scale, against a few dozen read) cost one lookup each and nothing more: only
// ids whose hash the manifest did not hold, or that this run wrote, can be out of step after the run.
import type { Feature } from "../model/contract.js";

export interface Change {
  featureId: string;
  /** The hash to write; null: the feature is no longer published. */
  hash: string | null;
}

export class ShadowState {
  /** This run's features by id; a carried id is not among them. */
  readonly #own = new Map<string, { feature: Feature; hash: string }>();
  readonly #carried: ReadonlyMap<string, string>;
  /** id → hash as the shadow manifest holds it; updated in place by `outcome`. */
  readonly #previous: Record<string, string>;
  /** Hashes written by this run (null: deleted). */
  readonly #written = new Map<string, string | null>();
  /** Published ids whose hash the manifest did not hold. */
  readonly #touched = new Set<string>();
  /** Ids the manifest held that are no longer published. */
  readonly #removed: string[] = [];

  constructor(
    features: readonly Feature[],
    hashOf: (f: Feature) => string,
    carried: ReadonlyMap<string, string>,
    previous: Record<string, string>,
  ) {
    this.#carried = carried;
    this.#previous = previous;
    for (const f of features) {
      const id = f.properties._id;
      if (!carried.has(id)) this.#own.set(id, { feature: f, hash: hashOf(f) });
    }
  }

  get size(): number {
    return this.#own.size + this.#carried.size;
  }

  /** The hash published, or undefined when the feature is not published. */
  hash(id: string): string | undefined {
    return this.#carried.get(id) ?? this.#own.get(id)?.hash;
  }

  /** The feature to write; undefined for one not published or carried (its bucket holds it already). */
  feature(id: string): Feature | undefined {
    return this.#carried.has(id) ? undefined : this.#own.get(id)?.feature;
  }

  /** The hash the shadow state holds now. */
  held(id: string): string | undefined {
    const w = this.#written.get(id);
    return w !== undefined ? (w ?? undefined) : this.#previous[id];
  }

  /** The published feature (or its absence) is now what the master features hold. */
  wrote(id: string): void {
    this.#written.set(id, this.hash(id) ?? null);
  }

  /** What differs from the manifest, unsorted: changed or new features, then those no longer published. */
  changes(): Change[] {
    const out: Change[] = [];
    let held = 0;
    const visit = (featureId: string, hash: string) => {
      const before = this.#previous[featureId];
      if (before !== undefined) held++;
      if (before === hash) return;
      this.#touched.add(featureId);
      out.push({ featureId, hash });
    };
    for (const [id, { hash }] of this.#own) visit(id, hash);
    for (const [id, hash] of this.#carried) visit(id, hash);
    // the manifest holds more than is published: find what left (a no-change run never walks it)
    if (Object.keys(this.#previous).length > held) {
      for (const id of Object.keys(this.#previous)) {
        if (this.hash(id) === undefined) {
          this.#removed.push(id);
          out.push({ featureId: id, hash: null });
        }
      }
    }
    return out;
  }

  /** Parity, feature by feature, after the run: every id published or held checked once. */
  parity(): { checked: number; mismatched: number; loaded: number } {
    let mismatched = 0;
    let missing = 0;
    const ids = new Set([...this.#touched, ...this.#written.keys()]);
    for (const id of ids) {
      const published = this.hash(id);
      if (published === undefined) continue;
      const held = this.held(id);
      if (held !== published) mismatched++;
      if (held === undefined) missing++;
    }
    let extra = 0;
    for (const id of this.#removed) if (this.held(id) !== undefined) extra++;
    return { checked: this.size + extra, mismatched: mismatched + extra, loaded: this.size - missing };
  }

  /** id → hash held, in id order: the manifest's record, updated in place (sorted only when an id was added). */
  features(): Record<string, string> {
    const out = this.#previous;
    let added = false;
    for (const [id, hash] of this.#written) {
      if (hash === null) delete out[id];
      else {
        if (out[id] === undefined) added = true;
        out[id] = hash;
      }
    }
    if (!added) return out;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
