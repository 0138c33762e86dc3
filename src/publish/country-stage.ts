// The validate and serialise stages with reuse per country (issue 24): a country whose features are what an
// earlier run published (the same JSON, tier and count of A/D NOTAMs) takes that run's objects from the store
// (its two fragments, checked against their digests) instead of validating, serialising and deflating again.
// Entry: `internal/cache/country/<date>/<tier>-<cc>/<key>.json.gz`, the key digesting the code and that input.
import type { Feature } from "../model/contract.js";
import type { Diagnostic, DiagnosticSink } from "../model/diagnostic.js";
import type { CountryEntry } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { type Artifact, storedArtifact } from "./artifacts.js";
import type { StageCache } from "./stage-cache.js";
import type { ObjectStore } from "./store.js";
import { validateFeature } from "./validate.js";

interface CountryCacheEntry {
  entry: CountryEntry;
  /** Indexes (in `_id` order) of the features left out, and why. */
  dropped: number[];
  violations: Diagnostic[];
  /** OpenAir blocks per feature (see Artifact). */
  openairCounts?: number[];
}

export interface CountryStage {
  /** Features that pass the contract, per home country, sorted by `_id` (a requested country may be empty). */
  byCountry: Map<string, { features: Feature[]; airspaceNotams: number }>;
  /** Countries taken as an earlier run built them. */
  reused: Map<string, Artifact>;
  /** Stores the entries of the countries built in this run, once their objects are published. */
  remember(artifacts: ReadonlyMap<string, Artifact>): Promise<void>;
}

/**
 * Groups the features by home country and validates them: each that fails the contract is left out with a
 * `contract.violation` diagnostic, so nothing invalid is published.
 */
export async function countryStage(
  features: readonly Feature[],
  opts: { tier: Tier; date: string; countries?: readonly string[]; airspaceNotams: (cc: string) => number },
  sink: DiagnosticSink,
  reuse?: { cache: StageCache; store: ObjectStore },
): Promise<CountryStage> {
  const requested = new Set(opts.countries ?? []);
  const groups = new Map<string, Feature[]>([...requested].map((cc) => [cc, []]));
  for (const f of features) {
    const group = groups.get(f.properties.country) ?? [];
    groups.set(f.properties.country, group);
    group.push(f);
  }
  const byCountry = new Map<string, { features: Feature[]; airspaceNotams: number }>();
  const reused = new Map<string, Artifact>();
  const built: Array<{ cc: string; folder: string; key: string; dropped: number[]; violations: Diagnostic[] }> = [];
  for (const cc of [...groups.keys()].sort()) {
    const all = groups.get(cc)!.sort((x, y) => cmp(x.properties._id, y.properties._id));
    const airspaceNotams = opts.airspaceNotams(cc);
    const folder = `country/${opts.date}/${opts.tier}-${cc}`;
    const key = reuse?.cache.key(opts.tier, cc, String(airspaceNotams), ...all.map((f) => JSON.stringify(f)));
    const hit = key ? await reuse?.cache.get<CountryCacheEntry>(folder, key) : undefined;
    const stored = hit && reuse ? await storedArtifact(reuse.store, hit.entry, opts.tier) : undefined;
    const { dropped, violations } = stored && hit ? hit : validate(all);
    sink.addAll(violations);
    const out = new Set(dropped);
    const valid = all.filter((_, i) => !out.has(i));
    if (valid.length === 0 && !requested.has(cc)) continue;
    byCountry.set(cc, { features: valid, airspaceNotams });
    if (stored) reused.set(cc, hit?.openairCounts ? { ...stored, openairCounts: hit.openairCounts } : stored);
    else if (key) built.push({ cc, folder, key, dropped, violations });
  }
  return {
    byCountry,
    reused,
    async remember(artifacts) {
      for (const b of built) {
        const a = artifacts.get(b.cc);
        if (a && reuse)
          await reuse.cache.put(b.folder, b.key, { entry: a.entry, dropped: b.dropped, violations: b.violations });
      }
    },
  };
}

function validate(features: readonly Feature[]): { dropped: number[]; violations: Diagnostic[] } {
  const dropped: number[] = [];
  const violations: Diagnostic[] = [];
  for (const [i, f] of features.entries()) {
    const found = validateFeature(f);
    if (found.length === 0) continue;
    const first = found[0]!;
    const more = found.length > 1 ? ` (+${found.length - 1} more)` : "";
    dropped.push(i);
    violations.push({
      code: "contract.violation",
      severity: "skipped",
      message: `${first.path}: ${first.message}${more}`,
      id: f.properties._id,
      name: f.properties.name,
    });
  }
  return { dropped, violations };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
