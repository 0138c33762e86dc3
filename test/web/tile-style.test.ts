// The map page's MapLibre style over the vector tiles (web/tile-style.ts), evaluated in Node with MapLibre's own
// style-spec package: the layers are a valid style, and on the tile properties of published features (the sample
// plus EBR04 with its real NOTAM and AUP rows) the expressions decide as the page's own logic does for the map
// form's canvas: which features are shown, active at a minute, faded outside the band, and the fill and dash.
import path from "node:path";
import {
  featureFilter,
  latest,
  type StylePropertySpecification,
  expression as styleExpression,
  validateStyleMin,
} from "@maplibre/maplibre-gl-style-spec";
import { beforeAll, describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { type UtcDay, utcDay } from "../../src/model/time.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { tileFeatureProperties } from "../../src/tiles/build.js";
import { paintStyle } from "../../web/canvas-style.js";
import { ALL, activeAt, type Filters, hidden, meetsBand, summarize } from "../../web/logic.js";
import {
  activeAtMinute,
  layerFilter,
  paintOf,
  SOURCE,
  SOURCE_LAYERS,
  shownFilter,
  type TileView,
  tileLayers,
} from "../../web/tile-style.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { cli } from "../origin/harness.js";

const DATE = "2022-02-23";
const CASE = path.join(FIXTURES, "decision", "aup-and-notam");
let day: UtcDay;
let features: Feature[];

beforeAll(async () => {
  const store = tempDir("tile-style-");
  const r = await cli([
    "publish",
    ...["--airspaces", path.join(FIXTURES, "sample"), "--airspaces", path.join(CASE, "airspace.geojson")],
    ...[
      "--notams",
      path.join(CASE, "notams.jsonl"),
      "--aup",
      `${DATE}T0959=${path.join(CASE, "aup_2022-02-23T0959Z.csv")}`,
    ],
    ...["--date", DATE, "--now", `${DATE}T10:00:00Z`, "--store", store, "--quiet"],
  ]);
  if (r.code !== 0) throw new Error(r.err);
  const local = new LocalStore(store);
  features = (await readEurope(local, (await currentManifest(local))!)).features;
  day = utcDay(DATE)!;
}, 60_000);

/** A feature as a MapLibre expression sees one from a tile. */
const tileFeature = (f: Feature) => ({ type: 3 as const, properties: tileFeatureProperties(f, day), id: undefined });
const GLOBALS = { zoom: 9 };

const shows = (layer: (typeof SOURCE_LAYERS)[number], v: TileView, f: Feature) =>
  featureFilter(shownFilter(layer, v), "layers[0].filter").filter(GLOBALS, tileFeature(f));

function evaluate(expr: unknown, spec: StylePropertySpecification, f: Feature): unknown {
  const compiled = styleExpression.createExpression(expr, "layers[0].paint.x", spec);
  if (compiled.result !== "success") throw new Error(compiled.value.map((e) => e.message).join("; "));
  return compiled.value.evaluate(GLOBALS, tileFeature(f));
}

const view = (minute: number, filters: Filters = ALL, countries?: string[]): TileView => ({
  minute,
  filters,
  countries,
});
const instant = (minute: number) => day.start + minute * 60_000;

describe("the map page's style over the tiles", () => {
  it("is a valid MapLibre style, with every filter set", () => {
    const filtered: Filters = {
      types: new Set([1, 3]),
      activationTypes: new Set(["isActive"]),
      bandFt: [1000, 9500],
      graphicalNotams: false,
      obstacles: false,
    };
    for (const v of [view(0), view(600, filtered, ["BE", "GB"])]) {
      const style = {
        version: 8 as const,
        sources: { [SOURCE]: { type: "vector" as const, tiles: ["http://127.0.0.1/{z}/{x}/{y}.mvt"] } },
        layers: tileLayers(v),
      };
      expect(validateStyleMin(style)).toEqual([]);
      expect(style.layers).toHaveLength(3 * SOURCE_LAYERS.length);
    }
  });

  it("tests 'active at t' on the tiles' minutes as the page does on the published intervals, every 5 minutes", () => {
    const filter = (t: number) => featureFilter(activeAtMinute(t), "layers[0].filter");
    let active = 0;
    for (let t = 0; t < 1440; t += 5) {
      const f = filter(t);
      for (const x of features) {
        const want = activeAt(summarize(x), instant(t));
        expect(f.filter(GLOBALS, tileFeature(x)), `${x.properties.name} at minute ${t}`).toBe(want);
        if (want) active++;
      }
    }
    expect(active).toBeGreaterThan(1000);
    expect(features.some((x) => x.properties.name.startsWith("EBR04"))).toBe(true);
  });

  it("shows the features the page's filters let through, of the countries drawn", () => {
    const cases: Filters[] = [
      ALL,
      { ...ALL, types: new Set([1]) },
      { ...ALL, activationTypes: new Set(["isActivatedByAUPAndNOTAMAirspace", "isActive"]) },
      { ...ALL, graphicalNotams: false },
      { ...ALL, obstacles: false },
    ];
    const countries = [...new Set(features.map((f) => f.properties.country))];
    expect(countries.length).toBeGreaterThan(1);
    for (const filters of cases)
      for (const drawn of [undefined, [countries[0]!]]) {
        let shown = 0;
        for (const f of features) {
          const layer = f.properties.featureCategory === "graphicalNotam" ? "graphicalNotam" : "airspace";
          const want = !hidden(summarize(f), filters) && (!drawn || drawn.includes(f.properties.country));
          expect(shows(layer, view(0, filters, drawn), f), f.properties.name).toBe(want);
          if (want) shown++;
        }
        if (filters === ALL && !drawn) expect(shown).toBe(features.length);
      }
  });

  it("paints as the canvas does: fill strengthened when active, faded outside the band, the same dashes", () => {
    const band: Filters = { ...ALL, bandFt: [0, 2000] };
    let faded = 0;
    // the canvas's hatch is a pattern made in the DOM: the hatched features are held to the hatch layer's filter
    const isHatched = (f: Feature) =>
      ["forwardDiagonal", "backwardDiagonal"].includes(summarize(f).style?.direction ?? "");
    const hatchLayer = featureFilter(layerFilter("airspace", "hatch", view(0)), "layers[0].filter");
    for (const f of features) expect(hatchLayer.filter(GLOBALS, tileFeature(f))).toBe(isHatched(f));
    const plain = features.filter((f) => !isHatched(f));
    expect(plain.length).toBeGreaterThan(100);
    for (const minute of [300, 600, 1380])
      for (const f of plain) {
        const canvas = paintStyle(summarize(f), instant(minute), band)!;
        const p = paintOf(view(minute, band));
        const fade = evaluate(p.fade, latest.paint_fill["fill-opacity"] as StylePropertySpecification, f);
        expect(fade).toBe(canvas.fillAlpha);
        if (fade !== 1) faded++;
        expect(fade === 1).toBe(meetsBand(summarize(f), band.bandFt));
        const width = evaluate(p.lineWidth, latest.paint_line["line-width"] as StylePropertySpecification, f);
        expect(width).toBeCloseTo(canvas.width, 9);
        const dash = evaluate(p.lineDash, latest.paint_line["line-dasharray"] as StylePropertySpecification, f);
        expect(dash).toEqual(canvas.dash.length > 0 ? canvas.dash : [1, 0]);
        if (typeof canvas.fill === "string") {
          const color = evaluate(p.fillColor, latest.paint_fill["fill-color"] as StylePropertySpecification, f) as {
            toString(): string;
            a: number;
          };
          const alpha = Number(/([0-9.]+)\)$/.exec(canvas.fill)?.[1]);
          expect(color.a).toBeCloseTo(alpha, 6);
        }
      }
    expect(faded).toBeGreaterThan(0);
  });
});
