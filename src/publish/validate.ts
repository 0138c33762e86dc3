// The contract check: docs/contract.md §2 zod schemas for properties and structure (the geometry's shape by hand, measured in
// geometry-shape.ts), RFC 7946 for geometry, and the invariants of docs/design.md §4 that a schema cannot say. Nothing is
// published that fails it.

import { checkAreaGeometry } from "../geo/rfc7946.js";
import { type AreaGeometry, type Feature, FeatureCollection, FeatureProperties } from "../model/contract.js";
import { jsonPath } from "../model/json.js";
import { DAY_MS } from "../model/time.js";
import { areaGeometryIssue } from "./geometry-shape.js";
import { propertiesConform } from "./properties-shape.js";

export interface Violation {
  /** Index of the feature in the collection, when the violation is about one. */
  feature?: number;
  id?: string;
  code: string;
  /** JSON path inside the feature or collection. */
  path: string;
  message: string;
}

/** Violations of one feature (empty when it conforms). */
export function validateFeature(feature: unknown, index?: number): Violation[] {
  const out: Violation[] = [];
  const at = (v: Omit<Violation, "feature" | "id">, id?: string): Violation => ({
    ...(index === undefined ? {} : { feature: index }),
    ...(id === undefined ? {} : { id }),
    ...v,
  });
  if (typeof feature !== "object" || feature === null || (feature as { type?: unknown }).type !== "Feature") {
    return [at({ code: "contract.feature", path: "", message: "not a GeoJSON Feature" })];
  }
  const f = feature as { properties?: unknown; geometry?: unknown };
  // zod parses only what the hand check does not pass: its verdict and messages
  const props = propertiesConform(f.properties)
    ? { success: true as const, data: f.properties as FeatureProperties }
    : FeatureProperties.safeParse(f.properties);
  const id =
    typeof (f.properties as { _id?: unknown })?._id === "string" ? (f.properties as { _id: string })._id : undefined;
  if (!props.success) {
    for (const issue of props.error.issues) {
      out.push(at({ code: "contract.schema", path: jsonPath(issue.path, "properties"), message: issue.message }, id));
    }
  }
  const shape = areaGeometryIssue(f.geometry);
  if (shape) {
    out.push(at({ code: "contract.geometry", path: jsonPath(shape.path, "geometry"), message: shape.message }, id));
  } else {
    for (const v of checkAreaGeometry(f.geometry as AreaGeometry))
      out.push(at({ code: v.code, path: "geometry", message: v.message }, id));
  }
  if (props.success) for (const v of invariants(props.data)) out.push(at(v, id));
  return out;
}

function invariants(p: FeatureProperties): Array<Omit<Violation, "feature" | "id">> {
  const out: Array<Omit<Violation, "feature" | "id">> = [];
  if ((p.featureCategory === "graphicalNotam") !== (p.type === 99)) {
    out.push({
      code: "contract.category",
      path: "properties.type",
      message: `featureCategory "${p.featureCategory}" with type ${p.type}`,
    });
  }
  if (p.vendor.VendorType !== String(p.type).padStart(2, "0")) {
    out.push({
      code: "contract.vendorType",
      path: "properties.vendor.VendorType",
      message: `"${p.vendor.VendorType}" for type ${p.type}`,
    });
  }
  const facets = [p.iscraneobstacle, p.iswindturbineobstacle, p.ismastortowerobstacle, p.ispoleorpylonobstacle];
  if (p.type < 98 && facets.some((x) => x !== undefined)) {
    out.push({ code: "contract.facets", path: "properties", message: `obstacle facets on type ${p.type}` });
  }
  const m = p.vendor.dynamicAirspaceMapping;
  const s = m.dynamicStyle;
  if (s && (s.priority !== s.Priority || s.polygonPaintDirection !== s.PolygonPaintDirection)) {
    out.push({
      code: "contract.styleAlias",
      path: "properties.vendor.dynamicAirspaceMapping.dynamicStyle",
      message: "alias spellings differ",
    });
  }
  const lists = [
    ["airspaceActivationTimes", m.airspaceActivationTimes],
    ["dynamicScheduleAndVerticalLimits", m.dynamicScheduleAndVerticalLimits],
  ] as const;
  for (const [name, list] of lists) {
    for (const [i, iv] of list.entries()) {
      const s0 = Date.parse(iv.start);
      const e0 = Date.parse(iv.end);
      if (!(s0 < e0) || e0 - s0 > DAY_MS) {
        out.push({
          code: "contract.interval",
          path: `properties.vendor.dynamicAirspaceMapping.${name}.${i}`,
          message: `${iv.start} → ${iv.end} is not a non-empty interval within one day`,
        });
      }
    }
  }
  if (m.isActive === "Yes" && m.airspaceActivationTimes.length === 0) {
    out.push({
      code: "contract.activeWithoutInterval",
      path: "properties.vendor.dynamicAirspaceMapping",
      message: "isActive Yes without an activation interval",
    });
  }
  return out;
}

/** Violations of a whole FeatureCollection: structure, every feature, counts, one UTC day, unique ids. */
export function validateCollection(input: unknown): Violation[] {
  if (typeof input !== "object" || input === null)
    return [{ code: "contract.collection", path: "", message: "not a JSON object" }];
  const fc = input as { type?: unknown; features?: unknown; meta?: unknown };
  const out: Violation[] = [];
  const shell = FeatureCollection.omit({ features: true }).safeParse({ type: fc.type, meta: fc.meta });
  if (!shell.success) {
    for (const issue of shell.error.issues)
      out.push({ code: "contract.collection", path: jsonPath(issue.path), message: issue.message });
  }
  if (!Array.isArray(fc.features))
    return [...out, { code: "contract.collection", path: "features", message: "features is not an array" }];
  const ids = new Set<string>();
  const days = new Set<string>();
  const count = { airspaces: 0, graphicalNotams: 0, total: fc.features.length };
  for (const [i, f] of fc.features.entries()) {
    const vs = validateFeature(f, i);
    out.push(...vs);
    const p = (f as Feature).properties;
    if (!p) continue;
    if (ids.has(p._id))
      out.push({
        feature: i,
        id: p._id,
        code: "contract.duplicateId",
        path: "properties._id",
        message: `id "${p._id}" repeats`,
      });
    ids.add(p._id);
    if (p.featureCategory === "graphicalNotam") count.graphicalNotams++;
    else count.airspaces++;
    for (const iv of p.vendor?.dynamicAirspaceMapping?.airspaceActivationTimes ?? []) {
      days.add(iv.start.slice(0, 10));
    }
  }
  if (days.size > 1) {
    out.push({
      code: "contract.day",
      path: "features",
      message: `activation intervals start on ${days.size} different UTC days: ${[...days].sort().join(", ")}`,
    });
  }
  const meta = (fc.meta as { count?: Record<string, unknown> } | undefined)?.count;
  if (meta && shell.success) {
    for (const k of ["airspaces", "graphicalNotams", "total"] as const) {
      if (meta[k] !== count[k])
        out.push({
          code: "contract.count",
          path: `meta.count.${k}`,
          message: `says ${String(meta[k])}, features hold ${count[k]}`,
        });
    }
  }
  return out;
}
