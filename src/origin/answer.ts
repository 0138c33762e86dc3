// src/origin — the /v1 origin: tokens, country sets, the joined gzip answer, the request handler.
// The body of a data answer: the fragments of the asked countries joined into ONE gzip member (docs/design.md §6), no
// JSON parsed and nothing compressed again; meta.count from the manifest. The ETag is strong and names the
// content: the fragments' hashes and the shell, so an unchanged country set keeps its ETag across versions.
import { createHash } from "node:crypto";
import type { Count } from "../model/contract.js";
import type { VersionManifest } from "../model/manifest.js";
import { addCount, memberOf, memberPieces, openairPieces, pieceOf } from "../publish/artifacts.js";
import { deflatePieceSync } from "../publish/gzip.js";
import { OPENAIR_HEADER } from "../publish/openair.js";
import { EUROPE } from "./countries.js";
import { MAP_FORM_VERSION, mapEnd } from "./map-form.js";
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

/** The GeoJSON of docs/contract.md §4.1, OpenAir for instruments (docs/design.md §8), the map page's compact form (map-form.ts). */
export type Form = "geojson" | "openair" | "map" | "mapBoxes";

/**
 * Answers built lately, by tier, version, form and country set (least recently used first out): the shell is
 * deflated and the tag hashed once. Several versions are served at once (today, tomorrow, past instants), so old
 * answers leave by age, not when a version changes.
 */
const recent = new Map<string, Answer>();
const RECENT = 128;

/** `codes` as parseCountries returns them: sorted published codes, or EUROPE alone. */
export async function answer(
  view: TierView,
  manifest: VersionManifest,
  codes: readonly string[],
  form: Form = "geojson",
): Promise<Answer> {
  const key = `${manifest.tier}|${manifest.version}|${form}|${codes.join(",")}`;
  const hit = recent.get(key);
  if (hit) {
    recent.delete(key);
    recent.set(key, hit);
    return hit;
  }
  const built =
    form === "geojson"
      ? await build(view, manifest, codes)
      : form === "openair"
        ? await buildOpenair(view, manifest, codes)
        : await buildMap(view, manifest, codes, form === "mapBoxes");
  recent.set(key, built);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return built;
}

/** The countries' OpenAir joined into one gzip member after the header (docs/design.md §8). */
async function buildOpenair(view: TierView, manifest: VersionManifest, codes: readonly string[]): Promise<Answer> {
  const names = codes[0] === EUROPE ? Object.keys(manifest.countries).sort() : codes;
  const entries = names.map((cc) => manifest.countries[cc]!.openair!);
  const fragments = await Promise.all(names.map((cc) => view.openairOf(manifest, cc)));
  const pieces = openairPieces(
    entries.map((e, i) => ({ deflated: fragments[i]!, crc32: e.fragmentCrc32, length: e.fragmentBytes })),
  );
  const bytes = OPENAIR_HEADER.length + 1 + entries.reduce((n, e) => n + e.fragmentBytes, 0);
  const etag = createHash("sha256")
    .update(JSON.stringify(["openair", entries.map((e) => e.fragmentSha256)]))
    .digest("base64url")
    .slice(0, 32);
  return { pieces, gzBytes: pieces.reduce((n, p) => n + p.length, 0), bytes, etag: `"${etag}"` };
}

/** The countries' map frames (made from their fragments, once per content) and the end, in one gzip member; `boxes`: rings are boxes. */
async function buildMap(
  view: TierView,
  manifest: VersionManifest,
  codes: readonly string[],
  boxes: boolean,
): Promise<Answer> {
  const names = (codes[0] === EUROPE ? manifest.europe.parts : codes).filter(
    (cc) => manifest.countries[cc]!.fragmentBytes > 0,
  );
  const frames = await Promise.all(names.map((cc) => view.mapFrameOf(manifest, cc, boxes)));
  const pieces = memberOf([...frames, deflatePieceSync(Buffer.from(mapEnd(frames.length)), false)]);
  const bytes = frames.reduce((n, p) => n + p.length, 8);
  const etag = createHash("sha256")
    .update(
      JSON.stringify([
        boxes ? "mapBoxes" : "map",
        MAP_FORM_VERSION,
        names.map((cc) => manifest.countries[cc]!.fragmentSha256),
      ]),
    )
    .digest("base64url")
    .slice(0, 32);
  return { pieces, gzBytes: pieces.reduce((n, p) => n + p.length, 0), bytes, etag: `"${etag}"` };
}

async function build(view: TierView, manifest: VersionManifest, codes: readonly string[]): Promise<Answer> {
  const names = codes[0] === EUROPE ? manifest.europe.parts : codes;
  // an empty country has an empty fragment: it adds no features (and no comma)
  const joined = names.filter((cc) => manifest.countries[cc]!.fragmentBytes > 0);
  const fragments = await Promise.all(joined.map((cc) => view.fragmentOf(manifest, cc)));
  const count = countOf(manifest, codes);
  const { pieces, bytes } = memberPieces(
    joined.map((cc, i) => pieceOf({ entry: manifest.countries[cc]!, fragment: fragments[i]! })),
    count,
    manifest.tier,
  );
  const etag = createHash("sha256")
    .update(JSON.stringify([manifest.tier, count, joined.map((cc) => manifest.countries[cc]!.fragmentSha256)]))
    .digest("base64url")
    .slice(0, 32);
  return { pieces, gzBytes: pieces.reduce((n, p) => n + p.length, 0), bytes, etag: `"${etag}"` };
}
