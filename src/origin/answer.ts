// src/origin — the /v1 origin: tokens, country sets, the joined gzip answer, the request handler.
// The body of a data answer: the fragments of the asked countries joined into ONE gzip member (DESIGN §6), no
// JSON parsed and nothing compressed again; meta.count from the manifest. The ETag is strong and names the
// content: the fragments' hashes and the shell, so an unchanged country set keeps its ETag across versions.
import { createHash } from "node:crypto";
import type { Count } from "../model/contract.js";
import type { VersionManifest } from "../model/manifest.js";
import { addCount, memberPieces, pieceOf } from "../publish/artifacts.js";
import { EUROPE } from "./countries.js";
import type { TierView } from "./published.js";

export interface Answer {
  /** The gzip member as buffers in order (fragments not copied). */
  pieces: Buffer[];
  gzBytes: number;
  /** Uncompressed length. */
  bytes: number;
  /** Strong ETag of the gzip representation, quoted. */
  etag: string;
}

function countOf(manifest: VersionManifest, codes: readonly string[]): Count {
  if (codes[0] === EUROPE) return manifest.europe.count;
  const sum: Count = { airspaces: 0, airspaceNotams: 0, graphicalNotams: 0, total: 0 };
  for (const cc of codes) addCount(sum, manifest.countries[cc]!.count);
  return sum;
}

/** Answers built lately, by tier, version and country set: the shell is deflated and the tag hashed once. */
const recent = new Map<string, Answer>();
const RECENT = 256;
const versions = new Map<string, string>();

/** `codes` as parseCountries returns them: sorted published codes, or EUROPE alone. */
export async function answer(view: TierView, manifest: VersionManifest, codes: readonly string[]): Promise<Answer> {
  if (versions.get(manifest.tier) !== manifest.version) {
    // a new version: answers of the old one would only keep its fragments alive
    for (const k of recent.keys()) if (k.startsWith(`${manifest.tier}|`)) recent.delete(k);
    versions.set(manifest.tier, manifest.version);
  }
  const key = `${manifest.tier}|${manifest.version}|${codes.join(",")}`;
  const hit = recent.get(key);
  if (hit) return hit;
  const built = await build(view, manifest, codes);
  recent.set(key, built);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return built;
}

async function build(view: TierView, manifest: VersionManifest, codes: readonly string[]): Promise<Answer> {
  const names = codes[0] === EUROPE ? manifest.europe.parts : codes;
  const entries = names.map((cc) => manifest.countries[cc]!);
  // an empty country has an empty fragment: it adds no features (and no comma)
  const joined = entries.filter((e) => e.fragmentBytes > 0);
  const fragments = await Promise.all(joined.map((e) => view.fragment(e)));
  const count = countOf(manifest, codes);
  const { pieces, bytes } = memberPieces(
    joined.map((entry, i) => pieceOf({ entry, fragment: fragments[i]! })),
    count,
    manifest.tier,
  );
  const etag = createHash("sha256")
    .update(JSON.stringify([manifest.tier, count, joined.map((e) => e.fragmentSha256)]))
    .digest("base64url")
    .slice(0, 32);
  return { pieces, gzBytes: pieces.reduce((n, p) => n + p.length, 0), bytes, etag: `"${etag}"` };
}
