// The validate and serialise stages, one country at a time (its JSON lives only while it is deflated), with reuse
// (issue 24): a country whose features are what an earlier run published (the same JSON, tier and count of A/D
// NOTAMs) takes that run's objects from the store (its two fragments, checked against their digests) instead of
// validating, serialising and deflating again. Entry: `internal/cache/country/<date>/<tier>-<cc>/<key>.json.gz`,
// the key digesting the code and that input.
import type { Feature } from "../model/contract.js";
import type { Diagnostic, DiagnosticSink } from "../model/diagnostic.js";
import type { CountryEntry } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import type { ObjectStore } from "../store/store.js";
import {
  type Artifact,
  CHUNK,
  CONCURRENCY,
  countOf,
  encodeFeatures,
  type Layout,
  serialise,
  storedArtifact,
} from "./artifacts.js";
import { type Change, diffLaid } from "./changes.js";
import { laidChunks } from "./chunk-memo.js";
import type { StageCache } from "./stage-cache.js";
import { validateFeature } from "./validate.js";

interface CountryCacheEntry {
  entry: CountryEntry;
  /** Indexes (in `_id` order) of the features left out, and why. */
  dropped: number[];
  violations: Diagnostic[];
  /** How its fragments are laid out (see Artifact). */
  layout?: Layout;
}

export interface CountryStage {
  /** Features that pass the contract, per home country, sorted by `_id` (a requested country may be empty). */
  byCountry: Map<string, { features: Feature[]; airspaceNotams: number }>;
  /** Every country's objects: built by this run, or taken as an earlier run built them. */
  artifacts: Map<string, Artifact>;
  /** Per country built from this process's chunk memo: its change from the collection serialised last. */
  known: Map<string, { sha256: string; change: Change }>;
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
  const codes = [...groups.keys()].sort();
  const done = new Map<string, Done>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < codes.length; i = next++) {
      const cc = codes[i]!;
      done.set(cc, await country(cc, groups.get(cc)!, opts, reuse));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const byCountry = new Map<string, { features: Feature[]; airspaceNotams: number }>();
  const artifacts = new Map<string, Artifact>();
  const known = new Map<string, { sha256: string; change: Change }>();
  const built: Done[] = [];
  for (const cc of codes) {
    const d = done.get(cc)!;
    sink.addAll(d.violations);
    if (d.valid.length === 0 && !requested.has(cc)) continue;
    byCountry.set(cc, { features: d.valid, airspaceNotams: d.airspaceNotams });
    artifacts.set(cc, d.artifact);
    if (d.known) known.set(cc, d.known);
    if (d.key && !d.reused) built.push(d);
  }
  return {
    byCountry,
    artifacts,
    known,
    async remember(published) {
      for (const b of built) {
        const a = published.get(b.cc);
        if (!a || !reuse || !b.key) continue;
        const { dropped, violations } = b;
        const layout = a.layout ? { layout: a.layout } : {};
        reuse.cache.put(b.folder, b.key, { entry: a.entry, dropped, violations, ...layout });
      }
    },
  };
}

interface Done {
  cc: string;
  folder: string;
  key: string | undefined;
  valid: Feature[];
  airspaceNotams: number;
  dropped: number[];
  violations: Diagnostic[];
  artifact: Artifact;
  reused: boolean;
  /** Its change from the collection this process serialised last for it (of that collection's SHA-256). */
  known?: { sha256: string; change: Change };
}

/** One country: its objects as an earlier run stored them, or validated and serialised now. */
async function country(
  cc: string,
  features: Feature[],
  opts: { tier: Tier; date: string; airspaceNotams: (cc: string) => number },
  reuse: { cache: StageCache; store: ObjectStore } | undefined,
): Promise<Done> {
  const all = features.sort((x, y) => cmp(x.properties._id, y.properties._id));
  const airspaceNotams = opts.airspaceNotams(cc);
  const folder = `country/${opts.date}/${opts.tier}-${cc}`;
  const before = laidChunks(folder);
  const encoded = encodeFeatures(all, before?.laid);
  const { digests } = encoded;
  const key = reuse?.cache.key(opts.tier, cc, String(airspaceNotams), ...digests);
  const hit = key ? await reuse?.cache.get<CountryCacheEntry>(folder, key) : undefined;
  const stored = hit && reuse ? await storedArtifact(reuse.store, hit.entry, opts.tier) : undefined;
  // a chunk this process serialised last time passed the contract then (chunk-memo.ts)
  const checked = (i: number) => before?.byDigest.has(digests[Math.floor(i / CHUNK)]!) === true;
  const { dropped, violations } = stored && hit ? hit : validate(all, checked);
  const out = new Set(dropped);
  const valid = all.filter((_, i) => !out.has(i));
  const base = { cc, folder, key, valid, airspaceNotams, dropped, violations };
  if (stored && hit) {
    const artifact = { ...stored, ...(hit.layout ? { layout: hit.layout } : {}) };
    return { ...base, artifact, reused: true };
  }
  const count = countOf(valid, airspaceNotams);
  // a feature left out (rare): the chunks of those kept
  const validEncoded = out.size === 0 ? encoded : encodeFeatures(valid);
  // only chunks whose every feature passed are kept for the next derivation
  const memo = out.size === 0 ? { key: folder } : undefined;
  // the change from the collection of the last serialisation (publish takes it if that is the version before)
  const same = (j: number) => encoded.chunks[j] === undefined;
  const known =
    memo && before ? { sha256: before.sha256, change: diffLaid(before.laid, valid, CHUNK, same) } : undefined;
  const artifact = await serialise(valid, count, opts.tier, validEncoded, memo);
  return { ...base, artifact, reused: false, ...(known ? { known } : {}) };
}

/**
 * Each feature against the contract (but those `checked` already); one whose `_id` the one before it has (they are
 * sorted) is left out too.
 */
function validate(
  features: readonly Feature[],
  checked: (i: number) => boolean,
): { dropped: number[]; violations: Diagnostic[] } {
  const dropped: number[] = [];
  const violations: Diagnostic[] = [];
  for (const [i, f] of features.entries()) {
    const id = f.properties._id;
    if (i > 0 && id === features[i - 1]!.properties._id) {
      dropped.push(i);
      violations.push({
        code: "contract.duplicateId",
        severity: "skipped",
        message: `properties._id: "${id}" repeats; the first feature with it is published`,
        id,
        name: f.properties.name,
      });
      continue;
    }
    if (checked(i)) continue;
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
