// src/normalize — AirspaceRecords to NormalizedAirspaces: repaired geometry, limits, FIR, country, no duplicates.
// Normalise: repair geometry, check limits, find the FIR and the home country, drop duplicate ids.
// Every record either comes out, or leaves a `skipped` diagnostic saying why.

import type { FirIndex } from "../geo/fir-index.js";
import { countryOfIcao } from "../geo/icao-prefixes.js";
import { repairPolygons } from "../geo/repair.js";
import { hoursFromName, hoursFromRemarks } from "../ingest/hours.js";
import type { AirspaceRecord } from "../model/airspace.js";
import type { AreaGeometry } from "../model/contract.js";
import type { Diagnostic, DiagnosticSink } from "../model/diagnostic.js";
import { comparableFeet } from "../model/limits.js";

export interface NormalizedAirspace extends Omit<AirspaceRecord, "geometry" | "country"> {
  geometry: AreaGeometry;
  country: string;
  /** Four-letter FIR identifier. */
  fir: string;
}

export interface NormalizeOptions {
  firs: FirIndex;
  /** Operator-named country per source name; wins over the record's own and the FIR's. */
  countryBySource?: ReadonlyMap<string, string>;
}

export function normalizeAirspaces(
  records: readonly AirspaceRecord[],
  options: NormalizeOptions,
  sink: DiagnosticSink,
): NormalizedAirspace[] {
  const out: NormalizedAirspace[] = [];
  const seen = new Map<string, string>();
  for (const r of records) {
    const at = where(r);
    const first = seen.get(r.id);
    if (first !== undefined) {
      sink.add({
        ...at,
        code: "airspace.id.duplicate",
        severity: "skipped",
        message: `id "${r.id}" already read from ${first}`,
      });
      continue;
    }
    const n = normalizeOne(r, options, at, sink);
    if (n) {
      seen.set(r.id, r.origin.source);
      out.push(n);
    }
  }
  return out;
}

function normalizeOne(
  r: AirspaceRecord,
  options: NormalizeOptions,
  at: Omit<Diagnostic, "code" | "severity" | "message">,
  sink: DiagnosticSink,
): NormalizedAirspace | undefined {
  const repaired = repairPolygons(r.geometry);
  if (!repaired.ok) {
    sink.add({ ...at, code: repaired.code, severity: "skipped", message: repaired.message });
    return undefined;
  }
  for (const code of repaired.repairs) {
    sink.add({ ...at, code, severity: "repaired", message: `${code.slice("geometry.".length)} in "${r.name}"` });
  }
  if (repaired.selfIntersects) {
    sink.add({
      ...at,
      code: "geometry.selfIntersection",
      severity: "warning",
      message: `a ring of "${r.name}" crosses itself`,
    });
  }
  const limitProblem = checkLimits(r);
  if (limitProblem) {
    sink.add({ ...at, code: limitProblem.code, severity: "skipped", message: limitProblem.message });
    return undefined;
  }
  let upperLimit = r.upperLimit;
  if (isGround(r.upperLimit)) {
    // GND–GND (2018 BE records): without a name too there is nothing left to show; with a name it is a
    // real area whose ceiling is unknown, published up to UNL so that no altitude filter hides it
    if (r.nameMissing) {
      sink.add({
        ...at,
        code: "airspace.record.empty",
        severity: "skipped",
        message: "no name and no vertical extent (GND to GND)",
      });
      return undefined;
    }
    upperLimit = UNLIMITED;
    sink.add({
      ...at,
      code: "airspace.limits.zeroThickness",
      severity: "repaired",
      message: `"${r.name}" reaches from GND to GND; upper limit published as UNL`,
    });
  }
  const geometry = repaired.geometry;
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  const hit = options.firs.locate(polygons);
  if (!hit) {
    sink.add({ ...at, code: "airspace.fir.none", severity: "skipped", message: `no FIR near "${r.name}"` });
    return undefined;
  }
  if (hit.how === "nearest") {
    sink.add({
      ...at,
      code: "airspace.fir.nearest",
      severity: "warning",
      message: `"${r.name}" lies outside every FIR; nearest is ${hit.fir.ident}`,
    });
  }
  const country = options.countryBySource?.get(r.origin.source) ?? r.country ?? countryOfIcao(hit.fir.ident);
  if (!country) {
    sink.add({
      ...at,
      code: "airspace.country.unknown",
      severity: "skipped",
      message: `no country for FIR ${hit.fir.ident}; name one for the source (CC=path)`,
    });
    return undefined;
  }
  const { geometry: _raw, country: _c, ...rest } = r;
  // its own hours: what the reader found, else the name's last words (DAeC convention), else the remarks
  const hours = r.hours ?? hoursFromName(r.name) ?? (r.remarks ? hoursFromRemarks(r.remarks) : undefined);
  return { ...rest, ...(hours ? { hours } : {}), upperLimit, geometry, country, fir: hit.fir.ident };
}

const UNLIMITED = { value: 999, unit: 6, referenceDatum: 2 } as const;
const isGround = (l: AirspaceRecord["upperLimit"]) => l.value === 0 && l.referenceDatum === 0;

/** Lower above upper, where the two can be compared, cannot be repaired. */
function checkLimits(r: AirspaceRecord): { code: string; message: string } | undefined {
  const lo = comparableFeet(r.lowerLimit);
  const up = comparableFeet(r.upperLimit);
  if (lo.family === up.family && lo.feet > up.feet) {
    return {
      code: "airspace.limits.inverted",
      message: `lower limit ${lo.feet} ft is above upper limit ${up.feet} ft in "${r.name}"`,
    };
  }
  return undefined;
}

function where(r: AirspaceRecord): Omit<Diagnostic, "code" | "severity" | "message"> {
  const at: Omit<Diagnostic, "code" | "severity" | "message"> = {
    source: r.origin.source,
    record: r.origin.record,
    id: r.id,
    name: r.name,
  };
  if (r.origin.line !== undefined) at.line = r.origin.line;
  return at;
}
