// Hand-drawn NOTAM areas (fixtures/notam-areas/LABELLING.md): the labels read, each drawn by its own small renderer
// (@turf/turf and the Natural Earth topology only, none of src/notam's geometry), and the product's drawing measured
// against it: coverage of each labelled area and the excess drawn beyond them all.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as turf from "@turf/turf";
import type { Feature, MultiPolygon, Point, Polygon, Position } from "geojson";
import { feature, mesh } from "topojson-client";
import type { GeometryObject, Topology } from "topojson-specification";
import type { AreaGeometry } from "../../src/model/contract.js";
import { FIXTURES } from "../helpers.js";

export const LABELS = path.join(FIXTURES, "notam-areas");

type Coordinate = string;
type Vertex =
  | Coordinate
  | { arc: { centre: Coordinate; radius: string | null; dir: "cw" | "ccw"; dirStated: boolean } }
  | { border: "state" | "coast" | "fir"; states?: string[]; fir?: string; via: Coordinate };
/** `exclude`: areas the text takes out of this one (`EXCLUDING AREA: RADIUS 3NM CENTERED ON …`). */
export type LabelArea = (
  | { polygon: Vertex[] }
  | { circle: { centre: Coordinate; radius: string } }
  | { corridor: { line: Coordinate[]; halfWidth: string } }
  | { point: Coordinate }
) & { exclude?: LabelArea[] };
export interface Label {
  notam: string;
  kinds: string[];
  areas: LabelArea[];
  top: { value: number; unit: "M" | "FT"; ref: "AMSL" | "AGL" } | null;
  /** `qLine`: the ring as written crosses itself beyond a slip, so the Q-line circle stands in (reviewed). */
  expect?: "qLine";
  note?: string;
}
export interface LabelFile {
  state: string;
  labels: Label[];
}

export function readLabels(): Array<Label & { state: string }> {
  const dir = path.join(LABELS, "labels");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => {
      const file = JSON.parse(readFileSync(path.join(dir, f), "utf8")) as LabelFile;
      return file.labels.map((l) => ({ ...l, state: file.state }));
    });
}

/** The NOTAM blocks the labels name, as the briefs print them (notams.jsonl). */
export function readBlocks(): Map<string, { brief: string; block: string }> {
  const lines = readFileSync(path.join(LABELS, "notams.jsonl"), "utf8").split("\n").filter(Boolean);
  return new Map(lines.map((l) => JSON.parse(l)).map((r) => [r.notam, { brief: r.brief, block: r.block }]));
}

const COORD = /^(\d{2})(\d{2})(\d{2}(?:\.\d+)?)?([NS]) (\d{3})(\d{2})(\d{2}(?:\.\d+)?)?([EW])$/;

/** `463848.7N 0142021.1E` → [lon, lat]. */
export function position(c: Coordinate): Position {
  const m = COORD.exec(c);
  if (!m) throw new Error(`label coordinate ${JSON.stringify(c)} is not DDMM[SS]N DDDMM[SS]E`);
  const lat = Number(m[1]) + Number(m[2]) / 60 + Number(m[3] ?? 0) / 3600;
  const lon = Number(m[5]) + Number(m[6]) / 60 + Number(m[7] ?? 0) / 3600;
  return [m[8] === "W" ? -lon : lon, m[4] === "S" ? -lat : lat];
}

/** `2NM`, `0.5KM`, `300M`, `1000FT` → km. */
export function km(distance: string): number {
  const m = /^(\d+(?:\.\d+)?) ?(NM|KM|M|FT)$/.exec(distance);
  if (!m) throw new Error(`label distance ${JSON.stringify(distance)} is not <number><NM|KM|M|FT>`);
  const factor = { NM: 1.852, KM: 1, M: 0.001, FT: 0.0003048 }[m[2] as "NM" | "KM" | "M" | "FT"];
  return Number(m[1]) * factor;
}

/** The point circle of docs/contract.md: 500 m. */
const POINT_KM = 0.5;

/** A labelled area as a polygon, without what it excludes. */
export function drawLabel(a: LabelArea): Feature<Polygon | MultiPolygon> {
  const whole = drawOne(a);
  if (!a.exclude?.length) return whole;
  const rest = turf.difference(turf.featureCollection([whole, ...a.exclude.map(drawOne)]));
  if (!rest) throw new Error("the label excludes all of its area");
  return rest as Feature<Polygon | MultiPolygon>;
}

function drawOne(a: LabelArea): Feature<Polygon | MultiPolygon> {
  if ("circle" in a) return turf.circle(position(a.circle.centre), km(a.circle.radius), { steps: 180 });
  if ("point" in a) return turf.circle(position(a.point), POINT_KM, { steps: 180 });
  if ("corridor" in a) {
    const line = turf.lineString(a.corridor.line.map(position));
    const b = turf.buffer(line, km(a.corridor.halfWidth), { units: "kilometers", steps: 32 });
    if (!b) throw new Error("corridor buffer failed");
    return b as Feature<Polygon | MultiPolygon>;
  }
  return turf.polygon([close(ring(a.polygon))]);
}

function close(r: Position[]): Position[] {
  const first = r[0]!;
  const last = r[r.length - 1]!;
  return first[0] === last[0] && first[1] === last[1] ? r : [...r, first];
}

/** The polygon's ring: its points, each arc drawn every degree, each border stretch along the line. */
function ring(vertices: Vertex[]): Position[] {
  const points = vertices.filter((v): v is Coordinate => typeof v === "string").map(position);
  const out: Position[] = [];
  const n = vertices.length;
  for (let k = 0; k < n; k++) {
    const v = vertices[k]!;
    if (typeof v === "string") {
      out.push(position(v));
      continue;
    }
    const from = out[out.length - 1] ?? points[points.length - 1]!;
    // the vertex after wraps round to the first
    const next = vertices.slice(k + 1).find((x): x is Coordinate => typeof x === "string");
    const to = next ? position(next) : points[0]!;
    if ("arc" in v) out.push(...arc(position(v.arc.centre), from, to, v.arc.dir === "cw"));
    else out.push(...border(v, from, to));
  }
  return out;
}

function arc(centre: Position, from: Position, to: Position, cw: boolean): Position[] {
  const b0 = turf.bearing(centre, from);
  const b1 = turf.bearing(centre, to);
  const r0 = turf.distance(centre, from);
  const r1 = turf.distance(centre, to);
  let sweep = cw ? (b1 - b0 + 720) % 360 : (b0 - b1 + 720) % 360;
  if (sweep === 0) sweep = 360;
  const steps = Math.ceil(sweep);
  const out: Position[] = [];
  for (let i = 1; i < steps; i++) {
    const f = i / steps;
    out.push(turf.destination(centre, r0 + (r1 - r0) * f, b0 + (cw ? 1 : -1) * sweep * f).geometry.coordinates);
  }
  return out;
}

type Countries = Topology<{ countries: { type: "GeometryCollection"; geometries: GeometryObject[] } }>;
let countries: Countries | undefined;
const NUMERIC: Record<string, string> = {
  BY: "112",
  DE: "276",
  DK: "208",
  EE: "233",
  FI: "246",
  LT: "440",
  LV: "428",
  NO: "578",
  PL: "616",
  RU: "643",
  SE: "752",
  SK: "703",
  UA: "804",
  CZ: "203",
  HU: "348",
  RO: "642",
  MD: "498",
  RS: "688",
  HR: "191",
  SI: "705",
  AT: "040",
  IT: "380",
  CH: "756",
  FR: "250",
  ES: "724",
  PT: "620",
  BE: "056",
  NL: "528",
  GR: "300",
  TR: "792",
  BG: "100",
  MK: "807",
  AL: "008",
  ME: "499",
  BA: "070",
  GB: "826",
  IE: "372",
};

/** The lines a label's border stretch may follow: the states' shared arcs, else the first state's outline or coast. */
function lines(b: { border: string; states?: string[]; fir?: string }): Position[][] {
  if (b.border === "fir") {
    const firs = JSON.parse(readFileSync(path.join(FIXTURES, "..", "src", "geo", "firs.json"), "utf8")) as {
      firs: Array<{ ident: string; polygons: Position[][][] }>;
    };
    return firs.firs.filter((f) => f.ident === b.fir).flatMap((f) => f.polygons.flat());
  }
  countries ??= createRequire(import.meta.url)("world-atlas/countries-10m.json") as Countries;
  const object = countries.objects.countries;
  const geometry = (iso: string) => object.geometries.find((g) => String(g.id) === NUMERIC[iso]);
  const [a, c] = (b.states ?? []).map(geometry);
  if (!a) throw new Error(`label border names no state the renderer knows: ${JSON.stringify(b.states)}`);
  if (b.border === "coast") return mesh(countries, object, (x, y) => x === y && x === a).coordinates;
  if (c) {
    const shared = mesh(countries, object, (x, y) => (x === a && y === c) || (x === c && y === a)).coordinates;
    if (shared.length > 0) return shared;
  }
  const g = (feature(countries, a) as Feature<Polygon | MultiPolygon>).geometry;
  return g.type === "Polygon" ? g.coordinates : g.coordinates.flat();
}

/**
 * The stretch from `from` to `to` along the line nearest both, the way round that passes nearest `via` (a label's own
 * reading of which way, where the product goes by the text's words and the shorter way). A label that names two
 * states whose shared border does not reach both points follows the first state's outline.
 */
function border(b: { border: string; states?: string[]; fir?: string; via: Coordinate }, from: Position, to: Position) {
  const via = turf.point(position(b.via));
  let best: { line: Position[]; i: number; j: number; pi: Position; pj: Position; d: number } | undefined;
  const candidates = [...lines(b), ...(b.states && b.states.length > 1 ? lines({ ...b, states: [b.states[0]!] }) : [])];
  for (const line of candidates) {
    if (line.length < 2) continue;
    const ls = turf.lineString(line);
    const p = turf.nearestPointOnLine(ls, from);
    const q = turf.nearestPointOnLine(ls, to);
    const d = Math.max(p.properties.dist ?? 0, q.properties.dist ?? 0);
    if (!best || d < best.d) {
      best = {
        line,
        i: p.properties.index ?? 0,
        j: q.properties.index ?? 0,
        pi: p.geometry.coordinates,
        pj: q.geometry.coordinates,
        d,
      };
    }
  }
  if (!best) throw new Error("no line to follow");
  const { line, i, j, pi, pj } = best;
  const closed = line[0]![0] === line[line.length - 1]![0] && line[0]![1] === line[line.length - 1]![1];
  const n = closed ? line.length - 1 : line.length;
  const walk = (step: 1 | -1): Position[] => {
    const out: Position[] = [pi];
    let k = step === 1 ? i + 1 : i;
    const end = step === 1 ? j : j + 1;
    for (let guard = 0; guard <= n; guard++) {
      const idx = ((k % n) + n) % n;
      if (!closed && (k < 0 || k >= line.length)) break;
      out.push(line[idx]!);
      if (idx === ((end % n) + n) % n) break;
      k += step;
    }
    out.push(pj);
    return out;
  };
  if (i === j) {
    // both on one segment: straight along it, or all the way round a closed line
    if (!closed) return [pi, pj];
    const ahead = turf.distance(line[i]!, pi) <= turf.distance(line[i]!, pj);
    const round = walk(ahead ? -1 : 1);
    return nearest(via, [[pi, pj], round]);
  }
  if (!closed) return i <= j ? walk(1) : walk(-1);
  return nearest(via, [walk(1), walk(-1)]);
}

function nearest(via: Feature<Point>, ways: Position[][]): Position[] {
  const near = (w: Position[]) => turf.pointToLineDistance(via, turf.lineString(w));
  return near(ways[0]!) <= near(ways[1]!) ? ways[0]! : ways[1]!;
}

export interface Measured {
  /** Per labelled area: the share of it the drawing covers. */
  coverage: number[];
  /** The area drawn beyond every labelled area, as a share of the labelled area. */
  excess: number;
}

/** The drawing measured against the labelled areas. */
export function measure(drawn: AreaGeometry, areas: ReadonlyArray<Feature<Polygon | MultiPolygon>>): Measured {
  const d = turf.feature(drawn) as Feature<Polygon | MultiPolygon>;
  const coverage = areas.map((a) => {
    const both = turf.intersect(turf.featureCollection([d, a]));
    return both ? turf.area(both) / turf.area(a) : 0;
  });
  const all = areas.length === 1 ? areas[0]! : turf.union(turf.featureCollection([...areas]));
  if (!all) return { coverage, excess: Number.POSITIVE_INFINITY };
  const beyond = turf.difference(turf.featureCollection([d, all]));
  return { coverage, excess: beyond ? turf.area(beyond) / turf.area(all) : 0 };
}
