// The map page's MapLibre map over the vector tiles of a version (issue 60): Natural Earth outlines under the
// tiles' layers (web/tile-style.ts), the tiles fetched with the user's token, clicks answered with the top feature.
// MapLibre itself (dist/web/maplibre-gl.mjs) is loaded only when a version has tiles: web/main.ts imports it.
import type * as MapLibre from "maplibre-gl";
import { hatchCanvas } from "./hatch.js";
import { ALL } from "./logic.js";
import {
  activeAtMinute,
  FILL_LAYERS,
  HATCH_PREFIX,
  layerFilter,
  paintOf,
  SOURCE,
  SOURCE_LAYERS,
  type TileView,
  tileLayers,
} from "./tile-style.js";

/** A TileJSON document as the origin gives it (`/v1/tiles/{day}.json`). */
export interface TileJson {
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds?: [number, number, number, number];
}

/** A feature's properties as a tile gives them, under a click. */
export type TileProperties = Record<string, string | number | boolean>;

/** The warm-up's source (see warmUp). */
const WARM = "warm-up";

export class TileMap {
  readonly map: MapLibre.Map;
  private token = "";
  private shown = "";
  private open: MapLibre.Popup | undefined;
  /**
   * MapLibre's `load`, which comes once. Not `isStyleLoaded()`: that is false again while any source loads (the
   * warm-up's, tiles of a view), and a show that then waited for `load` never resolved.
   */
  private readonly loaded: Promise<void>;

  constructor(
    private readonly gl: typeof MapLibre,
    container: HTMLElement,
    outlines: GeoJSON.FeatureCollection,
    onClick: (properties: TileProperties, at: [number, number]) => void,
  ) {
    this.map = new gl.Map({
      container,
      center: [10, 50],
      zoom: 3,
      attributionControl: false,
      fadeDuration: 0,
      // the tiles are the origin's: they carry the token as a header, never in the URL
      transformRequest: (url) =>
        url.startsWith(location.origin) && url.includes("/v1/tiles/")
          ? { url, headers: { Authorization: `Bearer ${this.token}` } }
          : { url },
      style: {
        version: 8,
        sources: { outlines: { type: "geojson", data: outlines } },
        layers: [
          { id: "sea", type: "background", paint: { "background-color": "#eef3f7" } },
          { id: "land", type: "fill", source: "outlines", paint: { "fill-color": "#f8fafc" } },
          { id: "borders", type: "line", source: "outlines", paint: { "line-color": "#94a3b8", "line-width": 0.8 } },
        ],
      },
    });
    this.map.setMissingStyleImageResolver((id) => this.hatch(id));
    this.loaded = new Promise((r) => this.map.once("load", () => r()));
    void this.loaded.then(() => this.warmUp());
    this.map.on("click", (e) => {
      const top = this.map.queryRenderedFeatures(e.point, { layers: FILL_LAYERS })[0];
      if (top) onClick(top.properties as TileProperties, [e.lngLat.lng, e.lngLat.lat]);
    });
  }

  /** Draws `tiles` (a new version's replaces the last one's) as `v` says; resolves once they are painted. */
  async show(tiles: TileJson, token: string, v: TileView): Promise<void> {
    this.token = token;
    await this.loaded;
    const key = tiles.tiles.join(" ");
    if (key !== this.shown) {
      for (const l of tileLayers(v)) if (this.map.getLayer(l.id)) this.map.removeLayer(l.id);
      if (this.map.getSource(SOURCE)) this.map.removeSource(SOURCE);
      const { tiles: urls, minzoom, maxzoom, bounds } = tiles;
      this.map.addSource(SOURCE, { type: "vector", tiles: urls, minzoom, maxzoom, ...(bounds ? { bounds } : {}) });
      for (const l of tileLayers(v)) this.map.addLayer(l);
      this.shown = key;
    } else this.restyle(v);
    await this.painted();
  }

  /** Nothing drawn of the tiles (an error replaced the last load). */
  clear(): void {
    for (const l of tileLayers({ minute: 0, filters: ALL, countries: [] })) {
      if (this.map.getLayer(l.id)) this.map.removeLayer(l.id);
    }
    if (this.map.getSource(SOURCE)) this.map.removeSource(SOURCE);
    this.shown = "";
  }

  /** The minute, the filters or the selection changed. */
  restyle(v: TileView): void {
    if (!this.map.getSource(SOURCE)) return;
    const p = paintOf(v);
    for (const layer of SOURCE_LAYERS) {
      this.map.setFilter(`${layer}-fill`, layerFilter(layer, "fill", v));
      this.map.setFilter(`${layer}-hatch`, layerFilter(layer, "hatch", v));
      this.map.setFilter(`${layer}-line`, layerFilter(layer, "line", v));
      this.map.setPaintProperty(`${layer}-fill`, "fill-color", p.fillColor);
      this.map.setPaintProperty(`${layer}-fill`, "fill-opacity", p.fade);
      this.map.setPaintProperty(`${layer}-hatch`, "fill-opacity", p.fade);
      this.map.setPaintProperty(`${layer}-line`, "line-opacity", p.lineOpacity);
      this.map.setPaintProperty(`${layer}-line`, "line-width", p.lineWidth);
      this.map.setPaintProperty(`${layer}-line`, "line-dasharray", p.lineDash);
    }
  }

  /** Fits the view to [west, south, east, north]. */
  fit(box: [number, number, number, number], padding: number, maxZoom?: number): void {
    this.map.fitBounds(
      [
        [box[0], box[1]],
        [box[2], box[3]],
      ],
      { padding, animate: false, ...(maxZoom === undefined ? {} : { maxZoom }) },
    );
  }

  /** A popup at `at` ([lon, lat]), its content replaceable while it is open. */
  popup(at: [number, number], html: string): { setContent(html: string): void; isOpen(): boolean } {
    // one popup at a time, as Leaflet's openOn
    this.open?.remove();
    const p = new this.gl.Popup({ maxWidth: "400px" }).setLngLat(at).setHTML(html).addTo(this.map);
    this.open = p;
    return { setContent: (h) => void p.setHTML(h), isOpen: () => p.isOpen() };
  }

  view(): { south: number; west: number; north: number; east: number } {
    const b = this.map.getBounds();
    return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
  }

  /** The ids of the features the tiles draw in the view; with `minute`, only those active at it. */
  rendered(minute?: number): string[] {
    const options = { layers: FILL_LAYERS, ...(minute === undefined ? {} : { filter: activeAtMinute(minute) }) };
    const ids = this.map.queryRenderedFeatures(options).map((f) => String(f.properties._id));
    return [...new Set(ids)].sort();
  }

  /** Resolves when the map has nothing left to load or paint. */
  private painted(): Promise<void> {
    const idle = new Promise<void>((r) => this.map.once("idle", () => r()));
    this.map.triggerRepaint();
    return idle;
  }

  /**
   * Draws the page's layers once over one invisible feature (transparent, every property a tile gives) while the
   * page opens: MapLibre's worker starts and SwiftShader or the GPU compiles the layers' programs before the first
   * load, as Leaflet's map is ready before it (bench/map.ts measures the first load's paint with it).
   */
  private warmUp(): void {
    const clear = "rgba(0, 0, 0, 0)";
    const properties = {
      _id: "warm-up",
      ...{ fillColor: clear, lineColor: clear, lineWidth: 1, lineDasharray: "", priority: 0, intervals: 0 },
      ...{ polygonPaintDirection: "none", isActive: "No", featureCategory: "airspace", lowerFt: 0, upperFt: 0 },
    };
    const ring = [
      [10, 50],
      [10.01, 50],
      [10.01, 50.01],
      [10, 50],
    ];
    this.map.addSource(WARM, {
      type: "geojson",
      data: { type: "Feature", properties, geometry: { type: "Polygon", coordinates: [ring] } },
    });
    const layers = tileLayers({ minute: 0, filters: ALL, countries: undefined })
      .filter((l) => l.id.startsWith("airspace-"))
      .map(({ "source-layer": _, ...l }) => ({ ...l, id: `${WARM}-${l.id}`, source: WARM }));
    for (const l of layers) this.map.addLayer(l);
    this.map.once("idle", () => {
      for (const l of layers) this.map.removeLayer(l.id);
      this.map.removeSource(WARM);
    });
  }

  /** A diagonal hatch in the feature's line colour (the image `hatch|<colour>|<direction>`), made when first asked. */
  private hatch(id: string): void {
    if (!id.startsWith(HATCH_PREFIX) || this.map.hasImage(id)) return;
    const [, color, direction] = id.split("|");
    const ctx = hatchCanvas(color ?? "#52525b", direction ?? "")?.getContext("2d");
    if (!ctx) return;
    this.map.addImage(id, ctx.getImageData(0, 0, 8, 8));
  }
}
