// openAIP GeoJSON export (`<cc>_asp.geojson`) and GeoJSON in the same property scheme (the derived files
// of the data corpus's airspace/derived). The file's own `Feature.id` is sequential and not stable: ignored.
import type { ReadResult } from "../model/airspace.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { airspaceFromOpenAipItem } from "./openaip-item.js";
import { placeholderDiagnostics } from "./placeholder.js";

/** Reads an already-parsed GeoJSON document; never throws on bad input. */
export function readOpenAipGeoJson(doc: unknown, source: string): ReadResult {
  const fc = doc as { type?: unknown; features?: unknown };
  if (fc?.type !== "FeatureCollection" || !Array.isArray(fc.features)) {
    const message = "not a GeoJSON FeatureCollection with a features array";
    return { records: [], diagnostics: [{ code: "geojson.collection.invalid", severity: "skipped", message, source }] };
  }
  const records: ReadResult["records"] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [record, f] of (fc.features as unknown[]).entries()) {
    const feature = f as { type?: unknown; properties?: unknown; geometry?: unknown } | null;
    if (feature?.type !== "Feature") {
      diagnostics.push({
        code: "geojson.feature.invalid",
        severity: "skipped",
        message: "not a GeoJSON Feature",
        source,
        record,
      });
      continue;
    }
    const r = airspaceFromOpenAipItem(feature.properties, feature.geometry, { source, record });
    diagnostics.push(...r.diagnostics);
    if (r.record) records.push(r.record);
  }
  diagnostics.push(
    ...placeholderDiagnostics(
      (fc.features as Array<{ properties?: unknown } | null>).map((f) => f?.properties),
      source,
    ),
  );
  return { records, diagnostics };
}
