// Per-country FeatureCollections as content-addressed objects: each country's features are serialised
// and deflated once (the fragment); the country's gzip object and EUROPE's are joined from fragments
// without compressing the features again.
import { createHash } from "node:crypto";
import type { Count, Feature } from "../model/contract.js";
import type { CountryEntry } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { crc32, deflatePiece, deflatePieceSync, gzipMember, type Piece } from "./gzip.js";

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

interface Part {
  raw: Buffer;
  piece: Piece;
}

/** Builds every country's artifact and EUROPE's. `byCountry` maps a country to its features, already sorted. */
export async function buildArtifacts(
  byCountry: ReadonlyMap<string, { features: readonly Feature[]; airspaceNotams: number }>,
  tier: Tier,
  europeAirspaceNotams?: number,
): Promise<Map<string, Artifact>> {
  const countries = [...byCountry.keys()].sort();
  const parts = await Promise.all(
    countries.map(async (cc): Promise<Part> => {
      const raw = Buffer.from(
        byCountry
          .get(cc)!
          .features.map((f) => JSON.stringify(f))
          .join(","),
      );
      return { raw, piece: await deflatePiece(raw) };
    }),
  );
  const out = new Map<string, Artifact>();
  const comma = deflatePieceSync(COMMA, false);
  countries.forEach((cc, i) => {
    const { features, airspaceNotams } = byCountry.get(cc)!;
    out.set(cc, assemble([parts[i]!], countOf(features, airspaceNotams), tier, comma));
  });
  const all = countries.map((cc) => byCountry.get(cc)!);
  const europeCount: Count = {
    airspaces: 0,
    airspaceNotams: 0,
    graphicalNotams: 0,
    total: 0,
  };
  for (const [i, cc] of countries.entries()) {
    const c = out.get(cc)!.entry.count;
    europeCount.airspaces += c.airspaces;
    europeCount.airspaceNotams += all[i]!.airspaceNotams;
    europeCount.graphicalNotams += c.graphicalNotams;
    europeCount.total += c.total;
  }
  if (europeAirspaceNotams !== undefined) europeCount.airspaceNotams = europeAirspaceNotams;
  out.set(
    EUROPE,
    assemble(
      parts.filter((p) => p.raw.length > 0),
      europeCount,
      tier,
      comma,
    ),
  );
  return out;
}

/** Joins parts (with commas between them) into a fragment and the full gzip object. */
function assemble(parts: readonly Part[], count: Count, tier: Tier, comma: Piece): Artifact {
  const { prefix, suffix } = shell(count, tier);
  const fragPieces: Buffer[] = [];
  let crc = 0;
  let length = 0;
  for (const [i, p] of parts.entries()) {
    if (i > 0) {
      fragPieces.push(comma.deflated);
      crc = crc32(COMMA, crc);
      length += COMMA.length;
    }
    fragPieces.push(p.piece.deflated);
    crc = crc32(p.raw, crc);
    length += p.raw.length;
  }
  const fragment = Buffer.concat(fragPieces);
  const head = deflatePieceSync(prefix, false);
  const tail = deflatePieceSync(suffix, true);
  let whole = crc32(prefix);
  for (const [i, p] of parts.entries()) {
    if (i > 0) whole = crc32(COMMA, whole);
    whole = crc32(p.raw, whole);
  }
  whole = crc32(suffix, whole);
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
