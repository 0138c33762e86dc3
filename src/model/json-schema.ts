// The contract's JSON Schema (draft 2020-12), generated from the zod schemas so the two cannot drift.
// docs/contract.schema.json is this output; `make schema` rewrites it and a test keeps it current.
import { z } from "zod";
import * as c from "./contract.js";

const NAMED = {
  FeatureCollection: c.FeatureCollection,
  Feature: c.Feature,
  FeatureProperties: c.FeatureProperties,
  Polygon: c.Polygon,
  MultiPolygon: c.MultiPolygon,
  VerticalLimit: c.VerticalLimit,
  Frequency: c.Frequency,
  Vendor: c.Vendor,
  DynamicAirspaceMapping: c.DynamicAirspaceMapping,
  Interval: c.Interval,
  ScheduleRow: c.ScheduleRow,
  LinkedNotam: c.LinkedNotam,
  ItemDParsedSchedule: c.ItemDParsedSchedule,
  CompactSchedule: c.CompactSchedule,
  AupUupRecord: c.AupUupRecord,
  DynamicStyle: c.DynamicStyle,
  Count: c.Count,
} as const;

export function contractJsonSchema(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });
  const schema = z.toJSONSchema(c.FeatureCollection, { metadata: registry, io: "output", unrepresentable: "any" });
  return {
    ...schema,
    $id: "https://example.invalid/airspace-publisher/v1/contract.schema.json",
    title: "Airspace and graphical NOTAM FeatureCollection (docs/contract.md §2)",
    description:
      "Generated from src/model/contract.ts. RFC 7946 rules (closed rings, exterior counter-clockwise) and the invariants of docs/design.md §4 are checked by `airspace-publisher validate` beyond this schema.",
  };
}
