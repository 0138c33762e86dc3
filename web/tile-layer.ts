// The map page's vector tiles (issue 60), drawn in Leaflet on canvas tiles by protomaps-leaflet: a version's tiles
// from the origin with the user's token (a header, never in the URL), each feature painted as the map form's canvas
// paints it (paintStyle of its summary, found by `_id`), higher priority on top within each of the tiles' layers
// (airspaces, then graphical NOTAMs over them). Chosen by measurement over MapLibre GL (docs/tiles.md, Chromium
// without a GPU): EUROPE painted in 0.70 s against the map form's 0.88 s; MapLibre under SwiftShader took 3.0×
// the map form's time.
import { VectorTile } from "@mapbox/vector-tile";
import type L from "leaflet";
import { PbfReader } from "pbf";
import {
  type GeomType,
  leafletLayer,
  type PaintSymbolizer,
  TileCache,
  type Feature as TileFeature,
  type TileSource,
  View,
  type Zxy,
} from "protomaps-leaflet";
import { Pen } from "./canvas-layer.js";
import type { PaintStyle } from "./canvas-style.js";

/** A TileJSON document as the origin gives it (`/v1/tiles/{day}.json`). */
export interface TileJson {
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds?: [number, number, number, number];
}

/** A feature's properties as a tile gives them. */
export type TileProperties = Record<string, string | number | boolean>;

/** The tiles' layers, drawn in this order. */
const LAYERS = ["airspace", "graphicalNotam"] as const;

/** Whether a tile feature's own intervals (s0/e0 …, minutes of the day) hold `minute`. */
export function activeInTile(p: TileProperties, minute: number): boolean {
  for (let k = 0; k < Number(p.intervals ?? 0); k++) {
    if (Number(p[`s${k}`]) <= minute && minute < Number(p[`e${k}`])) return true;
  }
  return false;
}

/**
 * The origin's tiles of one version, each decoded for protomaps-leaflet, its features by priority; only those of
 * the features `chosen` names (the countries chosen) are decoded.
 */
class OriginTiles implements TileSource {
  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly chosen: (id: string) => boolean,
    /** A tile that could not be read: its area is drawn without it (and asked for again on the next paint). */
    private readonly failed: (why: string) => void,
  ) {}

  async get(c: Zxy, tileSize: number): Promise<Map<string, TileFeature[]>> {
    const url = this.url.replace("{z}", String(c.z)).replace("{x}", String(c.x)).replace("{y}", String(c.y));
    try {
      const r = await fetch(url, { headers: { Authorization: `Bearer ${this.token}` } });
      // 204: the archive has no tile there
      if (r.status === 204) return new Map();
      if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
      return decode(new Uint8Array(await r.arrayBuffer()), tileSize, this.chosen);
    } catch (e) {
      this.failed(`tile ${c.z}/${c.x}/${c.y}: ${e instanceof Error ? e.message : e}`);
      throw e;
    }
  }
}

/** An MVT's layers as protomaps-leaflet's features, in pixels of a `tileSize` tile, lower priority first. */
function decode(data: Uint8Array, tileSize: number, chosen: (id: string) => boolean): Map<string, TileFeature[]> {
  const vt = new VectorTile(new PbfReader(data));
  const out = new Map<string, TileFeature[]>();
  for (const [name, layer] of Object.entries(vt.layers)) {
    const k = tileSize / layer.extent;
    const features: TileFeature[] = [];
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      if (f.type === 0 || !chosen(String(f.properties._id))) continue;
      const bbox = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
      let numVertices = 0;
      const geom = f.loadGeometry();
      for (const ring of geom) {
        for (const p of ring) {
          p.x *= k;
          p.y *= k;
          bbox.minX = Math.min(bbox.minX, p.x);
          bbox.minY = Math.min(bbox.minY, p.y);
          bbox.maxX = Math.max(bbox.maxX, p.x);
          bbox.maxY = Math.max(bbox.maxY, p.y);
        }
        numVertices += ring.length;
      }
      features.push({
        props: f.properties as TileProperties,
        bbox,
        geomType: f.type as number as GeomType,
        geom,
        numVertices,
      });
    }
    features.sort((a, b) => Number(a.props.priority ?? 0) - Number(b.props.priority ?? 0));
    out.set(name, features);
  }
  return out;
}

/** Paints a tile feature with the style `styleOf` gives its id (none: not drawn), and notes what it drew. */
class SummarySymbolizer implements PaintSymbolizer {
  private pen: Pen | undefined;

  constructor(
    private readonly styleOf: (id: string) => PaintStyle<CanvasPattern> | undefined,
    private readonly drawn: Map<string, TileProperties>,
  ) {}

  /** Before each tile's features: protomaps-leaflet saves and restores the context around them. */
  before(ctx: CanvasRenderingContext2D): void {
    this.pen = new Pen(ctx);
  }

  draw(ctx: CanvasRenderingContext2D, geom: TileFeature["geom"], _z: number, f: TileFeature): void {
    const id = String(f.props._id);
    const style = this.styleOf(id);
    if (!style) return;
    this.pen ??= new Pen(ctx);
    const pen = this.pen;
    ctx.beginPath();
    for (const ring of geom) {
      ctx.moveTo(ring[0]!.x, ring[0]!.y);
      for (let i = 1; i < ring.length; i++) ctx.lineTo(ring[i]!.x, ring[i]!.y);
      ctx.closePath();
    }
    pen.fill(style.fill, style.fillAlpha);
    ctx.fill("evenodd");
    pen.stroke(style.stroke, style.strokeAlpha, style.width, style.dash);
    ctx.stroke();
    this.drawn.set(id, f.props as TileProperties);
  }
}

type Grid = L.GridLayer & {
  views: Map<string, View>;
  renderTile(coords: L.Coords, el: HTMLCanvasElement, key: string): Promise<void>;
  queryTileFeaturesDebug(lng: number, lat: number, brush?: number): Map<string, { feature: TileFeature }[]>;
  // Leaflet's GridLayer's own, as protomaps-leaflet's rerenderTiles uses them
  _tiles: Record<string, { el: HTMLCanvasElement }>;
  _keyToTileCoords(key: string): L.Coords;
  _wrapCoords(c: L.Coords): L.Coords;
  _tileCoordsToKey(c: L.Coords): string;
};

/**
 * The pane the tiles are drawn in: over the overlay pane, where Leaflet draws the land's outlines (opaque), under
 * the popups.
 */
const PANE = "airspace-tiles";

/** The tiles are 512-pixel tiles (MapLibre's): one of zoom z is drawn as four 256-pixel Leaflet tiles of zoom z + 1. */
const LEVEL_DIFF = 1;

/** One version's tiles on a Leaflet map. */
export class TileLayer {
  private readonly grid: Grid;
  /** The features painted since the last whole repaint, with their tile properties. */
  private readonly drawn = new Map<string, TileProperties>();
  private painting: Promise<void> = Promise.resolve();
  /** The tiles that could not be read, each with why. */
  readonly failed: string[] = [];

  constructor(
    readonly tiles: TileJson,
    token: string,
    /** Whether a feature is one of those chosen (its tiles' features of other countries are not even decoded). */
    chosen: (id: string) => boolean,
    private readonly styleOf: (id: string) => PaintStyle<CanvasPattern> | undefined,
    /** Told of each tile that could not be read. */
    onFailure: (why: string) => void = () => {},
  ) {
    const symbolizer = new SummarySymbolizer(styleOf, this.drawn);
    const url = tiles.tiles[0] ?? "";
    this.grid = leafletLayer({
      url,
      maxDataZoom: tiles.maxzoom,
      paintRules: LAYERS.map((dataLayer) => ({ dataLayer, symbolizer })),
      labelRules: [],
      attribution: "",
      pane: PANE,
    }) as unknown as Grid;
    // protomaps-leaflet would fetch the URL without a header and draw the tiles' features in their order: its view
    // reads the origin's tiles with the token instead, each layer's features by priority
    const source = new TileCache(
      new OriginTiles(url, token, chosen, (why) => {
        this.failed.push(why);
        onFailure(why);
      }),
      256 << LEVEL_DIFF,
    );
    this.grid.views = new Map([["", new View(source, tiles.maxzoom, LEVEL_DIFF)]]);
  }

  /** The zoom of the tiles drawn at the map's `zoom`. */
  dataZoom(zoom: number): number {
    return Math.max(0, Math.min(this.tiles.maxzoom, Math.floor(zoom) - LEVEL_DIFF));
  }

  /** Adds the tiles to `map`; resolves once every tile in view is painted. */
  show(map: L.Map): Promise<void> {
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE);
      pane.style.zIndex = "450";
      pane.style.pointerEvents = "none";
    }
    this.painting = new Promise((resolve) => {
      // removed before then (a later load): nothing more to wait for
      this.grid.once("load remove", () => resolve());
      this.grid.addTo(map);
      if (!this.grid.isLoading()) resolve();
    });
    return this.painting;
  }

  remove(): void {
    this.grid.remove();
  }

  /** Paints every tile again (the minute, the filters or the selection changed); resolves once they are. */
  repaint(): Promise<void> {
    this.drawn.clear();
    const g = this.grid;
    const all = Object.keys(g._tiles).map((key) => {
      const c = g._wrapCoords(g._keyToTileCoords(key));
      return g.renderTile(c, g._tiles[key]!.el, g._tileCoordsToKey(c));
    });
    this.painting = Promise.all(all).then(() => {});
    return this.painting;
  }

  /** Resolves once the last paint asked for is done. */
  settled(): Promise<void> {
    return this.painting;
  }

  /** The id of the feature drawn on top at `at`, if any (protomaps-leaflet's query of the decoded tiles in view). */
  hit(at: L.LatLng): string | undefined {
    const picked = [...this.grid.queryTileFeaturesDebug(at.lng, at.lat, 3).values()].flat();
    // drawn in this order: the last is on top
    for (let i = picked.length - 1; i >= 0; i--) {
      const id = String(picked[i]!.feature.props._id);
      if (this.styleOf(id)) return id;
    }
    return undefined;
  }

  /** The ids painted since the last whole repaint; with `minute`, those the tiles' intervals say are active then. */
  rendered(minute?: number): string[] {
    const ids = [...this.drawn].filter(([, p]) => minute === undefined || activeInTile(p, minute)).map(([id]) => id);
    return ids.sort();
  }
}
