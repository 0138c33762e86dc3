// Per-country FeatureCollections as content-addressed objects: each country's features are serialised
// and deflated once (the fragment); the country's gzip object and EUROPE's are joined from fragments
// without compressing the features again.
import { createHash } from "node:crypto";
import type { Count, Feature } from "../model/contract.js";
import type { CountryEntry } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { crc32Combine } from "./crc32-combine.js";
import { deflatePiece, deflatePieceSync, gzipMember, type Piece } from "./gzip.js";

export const EUROPE = "EUROPE";

export interface Artifact {
  entry: CountryEntry;
  gz: Buffer;
  fragment: Buffer;
}

/** Object key prefix of a tier (DESIGN §5). */
export function tierPrefix(tier: Tier): string {
  return tier === "dynamic" ? "v1" : "internal/static/v1";
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

export function countOf(features: readonly Feature[], airspaceNotams: number): Count {
  let graphicalNotams = 0;
  for (const f of features) if (f.properties.featureCategory === "graphicalNotam") graphicalNotams++;
  return { airspaces: features.length - graphicalNotams, airspaceNotams, graphicalNotams, total: features.length };
}

/** `{"type":"FeatureCollection","features":[` … `],"meta":{…}}` around a fragment. */
function shell(count: Count, tier: Tier): { prefix: Buffer; suffix: Buffer } {
  return {
    prefix: Buffer.from('{"type":"FeatureCollection","features":['),
    suffix: Buffer.from(`],"meta":${JSON.stringify({ count, tier })}}`),
  };
}

const COMMA = Buffer.from(",");

/** Countries serialised and deflated at once: two keep both cores busy (zlib runs on the thread pool). */
const CONCURRENCY = 2;

/**
 * Builds every country's artifact and EUROPE's. `byCountry` maps a country to its features, already sorted.
 * A country's JSON lives only until it is deflated: memory holds the compressed fragments, not the text.
 */
export async function buildArtifacts(
  byCountry: ReadonlyMap<string, { features: readonly Feature[]; airspaceNotams: number }>,
  tier: Tier,
  europeAirspaceNotams?: number,
): Promise<Map<string, Artifact>> {
  const countries = [...byCountry.keys()].sort();
  const parts: Piece[] = new Array(countries.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < countries.length; i = next++) {
      const features = byCountry.get(countries[i]!)!.features;
      parts[i] = await deflatePiece(Buffer.from(features.map((f) => JSON.stringify(f)).join(",")));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const out = new Map<string, Artifact>();
  const comma = deflatePieceSync(COMMA, false);
  const europeCount: Count = { airspaces: 0, airspaceNotams: 0, graphicalNotams: 0, total: 0 };
  for (const [i, cc] of countries.entries()) {
    const { features, airspaceNotams } = byCountry.get(cc)!;
    const count = countOf(features, airspaceNotams);
    out.set(cc, assemble([parts[i]!], count, tier, comma));
    europeCount.airspaces += count.airspaces;
    europeCount.airspaceNotams += count.airspaceNotams;
    europeCount.graphicalNotams += count.graphicalNotams;
    europeCount.total += count.total;
  }
  if (europeAirspaceNotams !== undefined) europeCount.airspaceNotams = europeAirspaceNotams;
  out.set(
    EUROPE,
    assemble(
      parts.filter((p) => p.length > 0),
      europeCount,
      tier,
      comma,
    ),
  );
  return out;
}

/** Joins pieces (with commas between them) into a fragment and the full gzip object, CRCs combined. */
function assemble(parts: readonly Piece[], count: Count, tier: Tier, comma: Piece): Artifact {
  const { prefix, suffix } = shell(count, tier);
  const fragPieces: Buffer[] = [];
  let crc = 0;
  let length = 0;
  for (const [i, p] of parts.entries()) {
    if (i > 0) {
      fragPieces.push(comma.deflated);
      crc = crc32Combine(crc, comma.crc32, comma.length);
      length += comma.length;
    }
    fragPieces.push(p.deflated);
    crc = crc32Combine(crc, p.crc32, p.length);
    length += p.length;
  }
  const fragment = Buffer.concat(fragPieces);
  const head = deflatePieceSync(prefix, false);
  const tail = deflatePieceSync(suffix, true);
  const whole = crc32Combine(crc32Combine(head.crc32, crc, length), tail.crc32, tail.length);
  const bytes = prefix.length + length + suffix.length;
  const gz = gzipMember([head.deflated, fragment, tail.deflated], whole, bytes);
  const sha = sha256(gz);
  const fragSha = sha256(fragment);
  const base = tierPrefix(tier);
  return {
    gz,
    fragment,
    entry: {
      key: `${base}/objects/${sha}.geojson.gz`,
      fragment: `${base}/objects/${fragSha}.deflate`,
      sha256: sha,
      bytes,
      gzBytes: gz.length,
      fragmentSha256: fragSha,
      fragmentBytes: length,
      fragmentCrc32: crc,
      count,
    },
  };
}
