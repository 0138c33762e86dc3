// How the map page paints the vector tiles (issue 60, docs/tiles.md) in MapLibre: the same look as the map form's
// canvas (web/canvas-layer.ts, web/main.ts paintStyle), as style expressions over the tile properties
// (src/tiles/properties.ts). The chosen minute, the filters and the selection are literals in the expressions, so
// a change is one setFilter/setPaintProperty per layer. Without the DOM: tested in Node (test/web/tile-style.test.ts).
import type {
  DataDrivenPropertyValueSpecification,
  ExpressionSpecification,
  FillLayerSpecification,
  FilterSpecification,
  LineLayerSpecification,
} from "maplibre-gl";
import { PALETTE } from "../src/resolve/style.js";
import { INTERVALS } from "../src/tiles/properties.js";
import type { Filters } from "./logic.js";

/** The vector source's name in the page's style. */
export const SOURCE = "air";
/** The tiles' layers, drawn in this order (NOTAMs over airspaces). */
export const SOURCE_LAYERS = ["airspace", "graphicalNotam"] as const;
export type SourceLayer = (typeof SOURCE_LAYERS)[number];

/** What the expressions depend on: the minute of the UTC day, the filters and the countries drawn (all: undefined). */
export interface TileView {
  minute: number;
  filters: Filters;
  countries: readonly string[] | undefined;
}

const HATCHED = ["forwardDiagonal", "backwardDiagonal"];
const DEFAULT_FILL = "rgba(82, 82, 91, 0.08)";
const DEFAULT_LINE = "rgba(82, 82, 91, 1)";

const num = (key: string, fallback: number): ExpressionSpecification => ["coalesce", ["get", key], fallback];

/** "Active at minute `t`": inside one of the feature's s_k/e_k pairs (docs/tiles.md), e exclusive. */
export function activeAtMinute(t: number): ExpressionSpecification {
  const pairs = Array.from(
    { length: INTERVALS },
    (_, k): ExpressionSpecification => [
      "all",
      [">", num("intervals", 0), k],
      ["<=", ["get", `s${k}`], t],
      [">", ["get", `e${k}`], t],
    ],
  );
  return ["any", ...pairs];
}

/** Whether the feature's [lowerFt, upperFt] meets the band (touching counts), as web/logic.ts meetsBand. */
function meetsBand([lo, hi]: readonly [number, number]): ExpressionSpecification {
  return ["all", ["<=", num("lowerFt", 0), hi], [">=", num("upperFt", 0), lo]];
}

/** The features of `layer` the filters show (web/logic.ts hidden, negated), of the countries drawn. */
export function shownFilter(layer: SourceLayer, v: TileView): FilterSpecification {
  const f = v.filters;
  if (layer === "graphicalNotam" && !f.graphicalNotams) return ["boolean", false];
  const all: ExpressionSpecification[] = [];
  if (f.types.size > 0) all.push(["in", ["get", "type"], ["literal", [...f.types]]]);
  if (f.activationTypes.size > 0) all.push(["in", ["get", "activationType"], ["literal", [...f.activationTypes]]]);
  if (!f.obstacles) all.push(["!", ["==", ["get", "obstacle"], true]]);
  if (v.countries) all.push(["in", ["get", "country"], ["literal", [...v.countries]]]);
  return ["all", ...all];
}

const hatched: ExpressionSpecification = ["in", ["get", "polygonPaintDirection"], ["literal", HATCHED]];

/** An airspace answered by default (web/logic.ts byDefault): drawn with long dashes. */
const byDefault: ExpressionSpecification = [
  "all",
  ["==", ["get", "featureCategory"], "airspace"],
  ["==", ["get", "activationType"], "isOtherActiveAirspace"],
];

/** The palette's dash patterns by their tile text (`8,4`); anything else is drawn solid. */
function styleDash(): ExpressionSpecification {
  const seen = new Map<string, number[]>();
  for (const p of Object.values(PALETTE))
    if (p.lineDasharray.length > 0) seen.set(p.lineDasharray.join(","), [...p.lineDasharray]);
  if (seen.size === 0) return ["literal", [1, 0]];
  const arms = [...seen].flatMap(([text, dash]) => [text, ["literal", dash]]);
  return [
    "match",
    ["coalesce", ["get", "lineDasharray"], ""],
    ...arms,
    ["literal", [1, 0]],
  ] as unknown as ExpressionSpecification;
}
const STYLE_DASH = styleDash();

/** The hatch image a hatched feature is filled with: its line colour and direction (made on demand, tile-map.ts). */
export const HATCH_PREFIX = "hatch|";
export const hatchImage: ExpressionSpecification = [
  "concat",
  HATCH_PREFIX,
  ["coalesce", ["get", "lineColor"], DEFAULT_LINE],
  "|",
  ["get", "polygonPaintDirection"],
];

/** The paint of each of the page's layers at `v` (the filter aside): the map form's look, web/main.ts paintStyle. */
export function paintOf(v: TileView): {
  fillColor: DataDrivenPropertyValueSpecification<string>;
  fade: DataDrivenPropertyValueSpecification<number>;
  lineOpacity: DataDrivenPropertyValueSpecification<number>;
  lineWidth: DataDrivenPropertyValueSpecification<number>;
  lineDash: DataDrivenPropertyValueSpecification<number[]>;
} {
  const active = activeAtMinute(v.minute);
  const fade: ExpressionSpecification = ["case", meetsBand(v.filters.bandFt), 1, 0.2];
  // the colours carry their opacity; an active feature stands out with its fill's alpha 2.5 times (at most 1)
  const rgba: ExpressionSpecification = ["to-rgba", ["to-color", ["coalesce", ["get", "fillColor"], DEFAULT_FILL]]];
  const fillColor: ExpressionSpecification = [
    "let",
    "c",
    rgba,
    [
      "rgba",
      ["at", 0, ["var", "c"]],
      ["at", 1, ["var", "c"]],
      ["at", 2, ["var", "c"]],
      ["min", 1, ["*", ["case", active, 2.5, 1], ["at", 3, ["var", "c"]]]],
    ],
  ];
  return {
    fillColor,
    fade,
    lineOpacity: ["min", 1, ["*", fade, ["case", active, 1.25, 1]]],
    lineWidth: [
      "+",
      ["*", num("lineWidth", 1), ["case", active, 2, 1]],
      ["case", ["==", ["get", "polygonPaintDirection"], "inside"], 2, 0],
    ],
    // Unknown is dotted, a Yes only a default gives has long dashes, as on the canvas (MapLibre counts in line widths)
    lineDash: [
      "case",
      ["==", ["get", "isActive"], "Unknown"],
      ["literal", [1, 4]],
      byDefault,
      ["literal", [10, 4]],
      STYLE_DASH,
    ],
  };
}

/** The filter of one of the page's layers: what the filters show, hatched or not for the two fill layers. */
export function layerFilter(layer: SourceLayer, kind: "fill" | "hatch" | "line", v: TileView): FilterSpecification {
  const shown = shownFilter(layer, v) as ExpressionSpecification;
  if (kind === "line") return shown;
  return ["all", shown, kind === "hatch" ? hatched : ["!", hatched]];
}

/** The page's layers over the tiles: per source layer a fill, a hatched fill and an outline, higher priority on top. */
export function tileLayers(v: TileView): (FillLayerSpecification | LineLayerSpecification)[] {
  const p = paintOf(v);
  const sortKey: DataDrivenPropertyValueSpecification<number> = num("priority", 0);
  return SOURCE_LAYERS.flatMap((layer): (FillLayerSpecification | LineLayerSpecification)[] => [
    {
      id: `${layer}-fill`,
      type: "fill",
      source: SOURCE,
      "source-layer": layer,
      filter: layerFilter(layer, "fill", v),
      layout: { "fill-sort-key": sortKey },
      paint: { "fill-color": p.fillColor, "fill-opacity": p.fade, "fill-antialias": false },
    },
    {
      id: `${layer}-hatch`,
      type: "fill",
      source: SOURCE,
      "source-layer": layer,
      filter: layerFilter(layer, "hatch", v),
      layout: { "fill-sort-key": sortKey },
      paint: { "fill-pattern": hatchImage, "fill-opacity": p.fade },
    },
    {
      id: `${layer}-line`,
      type: "line",
      source: SOURCE,
      "source-layer": layer,
      filter: layerFilter(layer, "line", v),
      layout: { "line-sort-key": sortKey },
      paint: {
        "line-color": ["coalesce", ["get", "lineColor"], DEFAULT_LINE],
        "line-opacity": p.lineOpacity,
        "line-width": p.lineWidth,
        "line-dasharray": p.lineDash,
      },
    },
  ]);
}

/** The fill layers' ids, for clicks (the top feature under the pointer). */
export const FILL_LAYERS = SOURCE_LAYERS.flatMap((l) => [`${l}-fill`, `${l}-hatch`]);
