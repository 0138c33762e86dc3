// Lines a NOTAM area may follow between two of its points ("THEN ALONG THE STATE BORDER TO …", "ALONG COAST LINE
// TO …", "ALONG FIR BDRY"): a border two states share, a state's whole outline, its coast, an FIR boundary.
// Borders and coasts: Natural Earth 1:10 m admin-0 countries (world-atlas' TopoJSON), chosen for its licence (public
// domain) and because its shared arcs are the borders; it lies 0.1–3.7 km from the border points of 18 real NOTAMs
// (EE, PL, BY, RU), which OSM's 2017 extract (ODbL, 38 MB) did not beat. FIR boundaries: the bundled FIRs.
// The data is read the first time a NOTAM needs it, never before.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { lineString, point } from "@turf/helpers";
import { nearestPointOnLine } from "@turf/nearest-point-on-line";
import { feature, mesh } from "topojson-client";
import type { GeometryObject, Topology } from "topojson-specification";
import { bundledFirIndex } from "./fir-index.js";
import type { LatLon } from "./geodesy.js";

export type BoundaryKind = "state" | "coast" | "fir";

export interface Boundary {
  kind: BoundaryKind;
  /** ISO 3166-1 alpha-2: two states for the border they share, one for its outline (or coast). */
  states: readonly string[];
  /** The FIR whose boundary (kind `fir`). */
  fir?: string;
}

export type BoundaryPaths = { ok: true; paths: LatLon[][] } | { ok: false; why: string };

/** How far a written point may lie from the line it is said to be on: Natural Earth's error and the NOTAM's. */
const ON_LINE_KM = 12;
/** A state's border at sea (its territorial sea, 12 NM) lies off the coast Natural Earth draws. */
const OFF_COAST_KM = 45;

/** ISO 3166-1 numeric (Natural Earth's ids) of the states a European NOTAM names, and their neighbours. */
const NUMERIC: Record<string, string> = {
  "008": "AL",
  "012": "DZ",
  "020": "AD",
  "031": "AZ",
  "040": "AT",
  "051": "AM",
  "056": "BE",
  "070": "BA",
  "100": "BG",
  "112": "BY",
  "191": "HR",
  "196": "CY",
  "203": "CZ",
  "208": "DK",
  "233": "EE",
  "246": "FI",
  "250": "FR",
  "268": "GE",
  "276": "DE",
  "292": "GI",
  "300": "GR",
  "336": "VA",
  "348": "HU",
  "352": "IS",
  "364": "IR",
  "368": "IQ",
  "372": "IE",
  "376": "IL",
  "380": "IT",
  "398": "KZ",
  "400": "JO",
  "422": "LB",
  "428": "LV",
  "434": "LY",
  "438": "LI",
  "440": "LT",
  "442": "LU",
  "470": "MT",
  "492": "MC",
  "498": "MD",
  "499": "ME",
  "504": "MA",
  "528": "NL",
  "578": "NO",
  "616": "PL",
  "620": "PT",
  "642": "RO",
  "643": "RU",
  "674": "SM",
  "688": "RS",
  "703": "SK",
  "705": "SI",
  "724": "ES",
  "752": "SE",
  "756": "CH",
  "760": "SY",
  "788": "TN",
  "792": "TR",
  "804": "UA",
  "807": "MK",
  "818": "EG",
  "826": "GB",
};

type Countries = Topology<{ countries: { type: "GeometryCollection"; geometries: GeometryObject[] } }>;
interface Loaded {
  topology: Countries;
  byState: Map<string, GeometryObject>;
}
let loaded: Loaded | undefined;

function data(): Loaded {
  if (!loaded) {
    // read, not required: require's cache would keep it for the life of the process
    const file = createRequire(import.meta.url).resolve("world-atlas/countries-10m.json");
    const topology = JSON.parse(readFileSync(file, "utf8")) as Countries;
    const byState = new Map<string, GeometryObject>();
    for (const g of topology.objects.countries.geometries) {
      const name = (g.properties as { name?: string } | undefined)?.name;
      const iso = g.id === undefined ? (name === "Kosovo" ? "XK" : undefined) : NUMERIC[String(g.id)];
      if (iso) byState.set(iso, g);
    }
    loaded = { topology, byState };
  }
  return loaded;
}

/** Whether the boundary data is held (it is read only when a NOTAM needs it). */
export function boundariesLoaded(): boolean {
  return loaded !== undefined;
}

/** Lets the boundary data go (~60 MiB of heap) once the NOTAMs are drawn; the next NOTAM that needs it reads it again. */
export function releaseBoundaries(): void {
  loaded = undefined;
}

/**
 * The ways along `b` from `from` to `to`: one along an open line (a border two states share), two around a closed one
 * (an outline, an island's coast, an FIR), each from the written point through the line's vertices to the other.
 */
export function boundaryPaths(b: Boundary, from: LatLon, to: LatLon): BoundaryPaths {
  const lines = linesOf(b);
  if (!lines.ok) return lines;
  let best: { line: Array<[number, number]>; a: Projection; z: Projection; worst: number } | undefined;
  for (const line of lines.lines) {
    if (line.length < 2) continue;
    const a = project(line, from);
    const z = project(line, to);
    const worst = Math.max(a.km, z.km);
    if (!best || worst < best.worst) best = { line, a, z, worst };
  }
  const tolerance =
    b.kind === "fir" ? ON_LINE_KM : b.kind === "coast" || b.states.length < 2 ? OFF_COAST_KM : ON_LINE_KM;
  if (!best) return { ok: false, why: `no ${describe(b)} in the boundary data` };
  if (best.worst > tolerance) {
    return {
      ok: false,
      why: `a point lies ${best.worst.toFixed(1)} km from the ${describe(b)} (at most ${tolerance})`,
    };
  }
  return { ok: true, paths: walks(best.line, best.a, best.z) };
}

function describe(b: Boundary): string {
  if (b.kind !== "fir" && b.states.length === 0) return b.kind === "coast" ? "nearest coast" : "nearest state border";
  return b.kind === "fir"
    ? `boundary of FIR ${b.fir}`
    : b.kind === "coast"
      ? `coast of ${b.states[0]}`
      : b.states.length > 1
        ? `${b.states.join("–")} border`
        : `border of ${b.states[0]}`;
}

function linesOf(b: Boundary): { ok: true; lines: Array<Array<[number, number]>> } | { ok: false; why: string } {
  if (b.kind === "fir") {
    const fir = b.fir ? bundledFirIndex().byIdent(b.fir) : undefined;
    if (!fir) return { ok: false, why: `FIR ${b.fir ?? "(none named)"} is not bundled` };
    return {
      ok: true,
      lines: fir.polygons.flatMap((p) => p.map((ring) => ring.map(([x, y]) => [x!, y!] as [number, number]))),
    };
  }
  const { topology, byState } = data();
  if (b.states.length === 0) {
    // no state known: every outline (or coast) the data has, the nearest wins
    const states = [...byState.keys()].sort();
    const all = states.map((s) => linesOf({ ...b, states: [s] }));
    return { ok: true, lines: all.flatMap((l) => (l.ok ? l.lines : [])) };
  }
  const [first, second] = b.states.map((s) => byState.get(s));
  if (!first || (b.states.length > 1 && !second)) return { ok: false, why: `no outline of ${b.states.join(", ")}` };
  const object = topology.objects.countries;
  const m =
    b.kind === "coast"
      ? mesh(topology, object, (x, y) => x === y && x === first)
      : second
        ? mesh(topology, object, (x, y) => (x === first && y === second) || (x === second && y === first))
        : undefined;
  if (m) {
    const lines = m.coordinates as Array<Array<[number, number]>>;
    return lines.length > 0
      ? { ok: true, lines }
      : { ok: false, why: `${b.states.join(" and ")} share no ${b.kind === "coast" ? "coast" : "border"}` };
  }
  const g = (feature(topology, first) as GeoJSON.Feature).geometry;
  const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  return { ok: true, lines: polygons.flatMap((rings) => rings as Array<Array<[number, number]>>) };
}

interface Projection {
  /** The segment (from vertex `index` to `index + 1`) and the point on it. */
  index: number;
  at: [number, number];
  km: number;
  /** Distance along the line to the point, km: orders two projections on one segment. */
  along: number;
}

function project(line: Array<[number, number]>, p: LatLon): Projection {
  const hit = nearestPointOnLine(lineString(line), point([p.lon, p.lat]), { units: "kilometers" });
  const { index = 0, dist = Number.POSITIVE_INFINITY, location = 0 } = hit.properties;
  const at = hit.geometry.coordinates as [number, number];
  return { index: Math.min(index, line.length - 2), at, km: dist, along: location };
}

/** The vertices from a's point to z's along the line: forward (or back) on an open line, both ways round a closed one. */
function walks(line: Array<[number, number]>, a: Projection, z: Projection): LatLon[][] {
  const first = line[0]!;
  const last = line[line.length - 1]!;
  const closed = first[0] === last[0] && first[1] === last[1];
  const ll = (c: [number, number]): LatLon => ({ lon: c[0], lat: c[1] });
  const forward = (p: Projection, q: Projection): LatLon[] => {
    const out = [ll(p.at)];
    if (q.along >= p.along) for (let i = p.index + 1; i <= q.index; i++) out.push(ll(line[i]!));
    else {
      // round a closed line past its first vertex
      for (let i = p.index + 1; i < line.length - 1; i++) out.push(ll(line[i]!));
      for (let i = 0; i <= q.index; i++) out.push(ll(line[i]!));
    }
    out.push(ll(q.at));
    return out;
  };
  if (!closed) return [a.along <= z.along ? forward(a, z) : forward(z, a).reverse()];
  return [forward(a, z), forward(z, a).reverse()];
}
