// One airspace source, bytes in: decode, recognise the format by content, read it.
// A source no reader recognises is unusable as a whole (a thrown SourceError), since publishing without
// it would silently drop a country; a bad record inside a recognised source is only a diagnostic.

import { createHash } from "node:crypto";
import type { ReadResult } from "../model/airspace.js";
import { tryJson } from "../model/json.js";
import { readOpenAipApi } from "./openaip-api.js";
import { readOpenAipGeoJson } from "./openaip-geojson.js";
import { readOpenAipXml } from "./openaip-xml.js";
import { readOpenAir } from "./openair.js";
import { decodeText, encodingDiagnostic, gunzipped } from "./text.js";
import { looksLikeYaixm, readYaixm } from "./yaixm.js";

export const AIRSPACE_FORMATS = ["openaip-geojson", "openaip-api", "openair", "openaip-xml", "yaixm"] as const;
export type AirspaceFormat = (typeof AIRSPACE_FORMATS)[number];

export interface SourceRead extends ReadResult {
  format: AirspaceFormat;
  /** SHA-256 of the source bytes. */
  sha256: string;
}

export class SourceError extends Error {
  override readonly name = "SourceError";
  constructor(
    readonly source: string,
    readonly code: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
  }
}

/** What a run keeps of a source once its records are normalised (the report's and the manifest's figures). */
export interface ReadSummary {
  format: AirspaceFormat;
  sha256: string;
  records: number;
  /** Records the reader left out (`skipped` diagnostics naming a record). */
  readerSkipped: number;
}

export function readSummary(r: SourceRead): ReadSummary {
  const readerSkipped = r.diagnostics.filter((d) => d.severity === "skipped" && d.record !== undefined).length;
  return { format: r.format, sha256: r.sha256, records: r.records.length, readerSkipped };
}

export function readAirspaceSource(bytes: Uint8Array, source: string): SourceRead {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const body = gunzipped(bytes);
  if (!body.ok) throw new SourceError(source, "source.gzip", body.reason);
  const decoded = decodeText(body.bytes);
  const text = decoded.text;
  const head = text.trimStart().slice(0, 512);
  let format: AirspaceFormat;
  let result: ReadResult;
  if (head.startsWith("<")) {
    format = "openaip-xml";
    result = readOpenAipXml(text, source);
  } else if (head.startsWith("{") || head.startsWith("[")) {
    const parsed = tryJson(text);
    const doc = parsed.ok ? parsed.value : undefined;
    if (!parsed.ok && !/\n\s*[{[]/.test(text.trim())) {
      // one JSON document that does not parse: a truncated or corrupt download, not JSON lines
      throw new SourceError(source, "source.json.invalid", `not valid JSON (${parsed.reason})`);
    }
    if (doc !== undefined && (doc as { type?: unknown })?.type === "FeatureCollection") {
      format = "openaip-geojson";
      result = readOpenAipGeoJson(doc, source);
    } else {
      format = "openaip-api";
      result = readOpenAipApi(text, source);
    }
  } else if (looksLikeYaixm(text)) {
    format = "yaixm";
    result = readYaixm(text, source);
  } else if (/^\s*AC\s/m.test(text)) {
    format = "openair";
    result = readOpenAir(text, source);
  } else {
    throw new SourceError(
      source,
      "source.format.unknown",
      "not an openAIP GeoJSON, openAIP API, OpenAir, openAIP XML or YAIXM file",
    );
  }
  const enc = encodingDiagnostic(source, decoded);
  const diagnostics = enc ? [enc, ...result.diagnostics] : result.diagnostics;
  // a truncated source is unusable: publishing the part before the cut would silently drop airspaces
  const cut = diagnostics.find((d) => d.code.endsWith(".truncated"));
  if (cut) throw new SourceError(source, cut.code, cut.message);
  // so is a source of which nothing could be read (an empty one is fine)
  const why = diagnostics.find((d) => d.severity === "skipped");
  if (result.records.length === 0 && !result.services?.length && why) {
    throw new SourceError(source, why.code, `no usable record; first problem: ${why.message}`);
  }
  return {
    format,
    sha256,
    records: result.records,
    diagnostics,
    ...(result.services ? { services: result.services } : {}),
  };
}
