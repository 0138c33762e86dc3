// What the shadow path compares (docs/design.md §5): the features published, each with the hash of its dynamic part, against
// the hashes the shadow manifest's parts hold, and the hashes this run wrote. Features carried in step from a part
// (shadow/follow.ts: a changed country's unchanged features) cost one lookup each and nothing more, and a country
// carried whole is not here at all (only its count): only ids whose hash the parts did not hold, or that this run
// wrote, can be out of step after the run.
import type { Feature } from "../model/contract.js";

export interface Change {
  featureId: string;
  /** The hash to write; null: the feature is no longer published. */
  hash: string | null;
}

export class ShadowState {
  /** This run's features by id; a carried id is not among them. */
  readonly #own = new Map<string, { feature: Feature; hash: string; label: string }>();
  readonly #carried: ReadonlyMap<string, string>;
  /** The parts read, by label: id → hash as the shadow manifest holds it. */
  readonly #parts: ReadonlyMap<string, Record<string, string>>;
  /** Every part's ids at once (the one part itself when only one was read). */
  readonly #previous: Record<string, string>;
  /** Features of the countries carried unread, every one in step. */
  readonly #unread: number;
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
    parts: ReadonlyMap<string, Record<string, string>>,
    unread = 0,
    partOf: (f: Feature) => string = (f) => f.properties.country,
  ) {
    this.#carried = carried;
    this.#parts = parts;
    this.#previous = parts.size === 1 ? [...parts.values()][0]! : Object.assign({}, ...parts.values());
    this.#unread = unread;
    for (const f of features) {
      const id = f.properties._id;
      if (!carried.has(id)) this.#own.set(id, { feature: f, hash: hashOf(f), label: partOf(f) });
    }
  }

  get size(): number {
    return this.#own.size + this.#carried.size + this.#unread;
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
    // the parts hold more than is published: find what left (a no-change run never walks them)
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

  /**
   * id → hash held, by part, ids in order: a published feature in its part (`partOf`), any other id held (carried, or
   * no longer published and not yet deleted) in the part it was read from. Parts carried unread are not here. The
   * parts read are updated in place and sorted only when an id was added (a refresh takes GB's ~28 000 ids through
   * here): the state's last use.
   */
  parts(): Map<string, Record<string, string>> {
    const out = new Map<string, Record<string, string>>();
    // the published features' hashes first: the parts read are what `held` reads
    const own = new Map<string, { label: string; hash: string }>();
    for (const [id, { label }] of this.#own) {
      const hash = this.held(id);
      if (hash !== undefined) own.set(id, { label, hash });
    }
    for (const [label, part] of this.#parts) {
      let kept = 0;
      for (const id in part) {
        const o = own.get(id);
        const hash = this.#own.has(id) ? (o?.label === label ? o.hash : undefined) : this.held(id);
        if (hash === undefined) delete part[id];
        else {
          part[id] = hash;
          own.delete(id);
          kept++;
        }
      }
      // a part left empty (a country no longer published, the store's one manifest before the split) is not written
      if (kept > 0) out.set(label, part);
    }
    const grown = new Set<string>();
    for (const [id, { label, hash }] of own) {
      const part = out.get(label);
      if (part) part[id] = hash;
      else out.set(label, { [id]: hash });
      grown.add(label);
    }
    const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    for (const label of grown) {
      const part = out.get(label)!;
      out.set(
        label,
        Object.fromEntries(
          Object.keys(part)
            .sort(byId)
            .map((id) => [id, part[id]!]),
        ),
      );
    }
    return out;
  }
}
