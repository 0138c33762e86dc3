// src/model — the types every layer shares (records, contract, manifest, NOTAMs, plans, time); no behaviour.
// The normalised airspace every ingest format produces, before geometry repair and resolution.
import type { Frequency, VerticalLimit } from "./contract.js";
import type { AipHours } from "./hours.js";

/** A ring as read: [lon, lat] pairs in degrees, any winding, maybe unclosed or with repeats. */
export type RawRing = Array<[number, number]>;

/** Raw area geometry: polygons, each an exterior ring followed by holes. */
export type RawPolygons = RawRing[][];

export interface AirspaceRecord {
  /** Stable identifier: openAIP `_id`, `v1-<ID>` for legacy XML, a content-derived id for OpenAir. */
  id: string;
  name: string;
  /** The source gave no name; `name` is a placeholder the reader made up. */
  nameMissing?: true;
  /** openAIP type code 0–36. */
  type: number;
  /** openAIP icaoClass 0–6 or 8 (7 already mapped to 8 by the reader that met it). */
  icaoClass: number;
  /** ISO 3166-1 alpha-2; absent when the format carries none (OpenAir): then taken from the FIR. */
  country?: string;
  upperLimit: VerticalLimit;
  lowerLimit: VerticalLimit;
  frequencies: Frequency[];
  remarks?: string;
  /** Activity flags of the openAIP schema: conditional airspaces (docs/design.md §4). */
  byNotam: boolean;
  onDemand: boolean;
  onRequest: boolean;
  /** Its own published hours (a name's `MON-FRI+`, remarks, YAIXM rules, a RAT's dates), when the source states them. */
  hours?: AipHours;
  /** Validity windows (openAIP activeFrom/activeUntil, OpenAir AA); empty = no window. ISO instants. */
  activeTimes: Array<{ start: string; end: string }>;
  geometry: RawPolygons;
  /** Ids the source's own cross-references use (YAIXM feature and volume ids, joined by the service file). */
  refs?: string[];
  /** Where it came from, for diagnostics. */
  origin: { source: string; record: number; line?: number };
}

/** What every airspace reader returns: the good records and a diagnostic for everything else. */
export interface ReadResult {
  records: AirspaceRecord[];
  diagnostics: import("./diagnostic.js").Diagnostic[];
  /** Radio services a source lists for other sources' airspaces (YAIXM service file), by their `refs`. */
  services?: Array<{ callsign: string; frequency: number; controls: string[] }>;
}
