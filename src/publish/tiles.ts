// A version's vector tiles (issue 60): every feature of EUROPE in one PMTiles archive, an immutable object named by its
// SHA-256 like the collections. A version whose countries are those of the day's previous version (a no-change
// refresh) names that version's archive again, built once.
import { createHash } from "node:crypto";
import type { Feature, FeatureCollection } from "../model/contract.js";
import type { TilesEntry, VersionManifest } from "../model/manifest.js";
import { type UtcDay, utcDay } from "../model/time.js";
import type { ObjectStore, PutOptions } from "../store/store.js";
import { archiveOf, buildTiles, LAYERS, MAX_ZOOM, type TileSet } from "../tiles/build.js";
import { patchTiles, rewrittenSince } from "../tiles/patch.js";
import { INTERVALS } from "../tiles/properties.js";
import { headerOf } from "../tiles/read-back.js";
import type { Artifact } from "./artifacts.js";
import type { Change } from "./changes.js";
import { gunzipAsync } from "./gzip.js";

export const TILES_HEADERS: PutOptions = {
  contentType: "application/vnd.pmtiles",
  cacheControl: "public, max-age=31536000, immutable",
};

export const ATTRIBUTION = "Airspace data: openAIP (CC BY-NC 4.0) and national AIS publications; NOTAM: EAD, NATS";

/** The fields of a tile feature (src/tiles/properties.ts), as TileJSON's `vector_layers` lists them. */
const FIELDS: Record<string, string> = {
  _id: "String",
  name: "String",
  type: "Number",
  featureCategory: "String",
  country: "String",
  upperLimit: "String",
  lowerLimit: "String",
  upperFt: "Number",
  lowerFt: "Number",
  isActive: "String",
  activationType: "String",
  obstacle: "Boolean",
  intervals: "Number",
  ...Object.fromEntries(
    Array.from({ length: INTERVALS }, (_, k) => [
      [`s${k}`, "Number"],
      [`e${k}`, "Number"],
    ]).flat(),
  ),
  minzoom: "Number",
  fillColor: "String",
  fillOpacity: "Number",
  lineColor: "String",
  lineWidth: "Number",
  lineOpacity: "Number",
  lineDasharray: "String",
  priority: "Number",
  polygonPaintDirection: "String",
  complexStyle: "String",
};

export interface TilesObject {
  entry: TilesEntry;
  /** The archive's bytes; none when the previous version's archive is named again. */
  body?: Buffer;
}

/**
 * The archive of `features` (every country's, `_id`-sorted per country) for `date`, or the previous version's when
 * its countries are these very ones; none for a version with nothing to draw.
 */
/** Every feature's tiles, built (a derivation holds its features; a country published as it was is read back). */
async function built(countries: ReadonlyMap<string, TilesCountry>, day: UtcDay): Promise<TileSet> {
  const features: Feature[] = [];
  for (const { artifact, features: held } of countries.values()) {
    const fs = held ?? (JSON.parse((await gunzipAsync(artifact.gz())).toString("utf8")) as FeatureCollection).features;
    for (const f of fs) features.push(f);
  }
  return buildTiles(features, day);
}

/**
 * A refresh's tiles (src/tiles/patch.ts): the previous archive with the changed features' tiles written again, when
 * every country that changed did so by a change the refresh knows and that adds or removes nothing (a refresh moves
 * activation, never geometry). Undefined when it cannot: then the tiles are built.
 */
async function patched(
  before: Buffer,
  countries: ReadonlyMap<string, TilesCountry>,
  previous: VersionManifest,
  day: UtcDay,
): Promise<TileSet | undefined> {
  const changed: Feature[] = [];
  for (const [cc, c] of countries) {
    if (previous.countries[cc]?.sha256 === c.artifact.entry.sha256) continue;
    if (c.features || !c.change || c.change.added.length > 0 || c.change.removed.length > 0) return undefined;
    changed.push(...c.change.changed);
  }
  if (Object.keys(previous.countries).some((cc) => !countries.has(cc))) return undefined;
  const header = headerOf(before);
  const p = await patchTiles(before, changed, day);
  const bounds: [number, number, number, number] = [header.minLon, header.minLat, header.maxLon, header.maxLat];
  return { tiles: p.tiles, perZoom: [], features: previous.tiles?.features ?? 0, bounds };
}

/** A country as the tiles take it: its objects, its features when the run holds them, its change when known. */
export interface TilesCountry {
  artifact: Artifact;
  features?: readonly Feature[];
  change?: Change;
}

export async function tilesObject(
  store: ObjectStore,
  base: string,
  date: string,
  countries: ReadonlyMap<string, TilesCountry>,
  previous: VersionManifest | undefined,
): Promise<TilesObject | undefined> {
  const same =
    previous?.tiles !== undefined &&
    Object.keys(previous.countries).length === countries.size &&
    [...countries].every(([cc, c]) => previous.countries[cc]?.sha256 === c.artifact.entry.sha256);
  if (same && previous?.tiles)
    return { entry: { ...previous.tiles, rewritten: { from: previous.version, tiles: 0, bytes: 0 } } };
  const day = utcDay(date);
  if (!day) throw new Error(`tiles: ${date} is not a day`);
  const before = previous?.tiles && (await store.get(previous.tiles.key));
  const set = (before && (await patched(before, countries, previous!, day))) ?? (await built(countries, day));
  // nothing drawn, no archive (a PMTiles directory is never empty): the origin says the version has no tiles
  if (set.tiles.length === 0) return undefined;
  const body = archiveOf(set, {
    name: `Airspaces and graphical NOTAMs of ${date}`,
    description: "Activation of the UTC day: isActive, and s0/e0 … pairs in minutes since 00:00Z (docs/tiles.md)",
    version: "1",
    day: date,
    attribution: ATTRIBUTION,
    vector_layers: LAYERS.map((id) => ({ id, fields: FIELDS, minzoom: 0, maxzoom: MAX_ZOOM })),
  });
  const sha256 = createHash("sha256").update(body).digest("hex");
  const tileBytes = set.tiles.reduce((n, t) => n + t.data.length, 0);
  const entry: TilesEntry = {
    key: `${base}/objects/${sha256}.pmtiles`,
    sha256,
    bytes: body.length,
    tiles: set.tiles.length,
    tileBytes,
    largestTile: set.tiles.reduce((n, t) => Math.max(n, t.data.length), 0),
    minZoom: 0,
    maxZoom: MAX_ZOOM,
    features: set.features,
  };
  // the tiles whose bytes are not what the day's previous archive holds at the same z/x/y
  if (previous && before) entry.rewritten = { from: previous.version, ...rewrittenSince(before, set.tiles) };
  return { entry, body };
}
