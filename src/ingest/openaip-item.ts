// One openAIP airspace item to an AirspaceRecord: the API v2 item, the GeoJSON export's properties, and the
// legacy XML record once translated (openaip-xml.ts). Geometry is only read here; repair is a later stage.
import { z } from "zod";
import type { AirspaceRecord, RawPolygons, RawRing } from "../model/airspace.js";
import type { Frequency, VerticalLimit } from "../model/contract.js";
import { type Diagnostic, excerpt } from "../model/diagnostic.js";
import { IcaoClass, LimitUnit, MAX_OPENAIP_TYPE, ReferenceDatum } from "../model/vocab.js";
import { cleanLabel } from "./text.js";

const ItemLimit = z.looseObject({
  value: z.number(),
  unit: z.literal([LimitUnit.METER, LimitUnit.FEET, LimitUnit.FLIGHT_LEVEL]),
  referenceDatum: z.literal([ReferenceDatum.GND, ReferenceDatum.MSL, ReferenceDatum.STD]).nullish(),
});

const ItemFrequency = z.looseObject({
  value: z.string().nullish(),
  unit: z.number().int().nullish(),
  name: z.string().nullish(),
  primary: z.boolean().nullish(),
});

/** The keys of an openAIP airspace item that we read; any other key is allowed and ignored. */
export const OpenAipItem = z.looseObject({
  _id: z.string().min(1),
  name: z.string().nullish(),
  type: z.number().int().min(0).max(MAX_OPENAIP_TYPE),
  icaoClass: z.number().int().min(0).max(8),
  country: z.unknown(),
  upperLimit: ItemLimit,
  lowerLimit: ItemLimit,
  frequencies: z.array(ItemFrequency).nullish(),
  remarks: z.string().nullish(),
  byNotam: z.boolean().nullish(),
  onDemand: z.boolean().nullish(),
  onRequest: z.boolean().nullish(),
  activeFrom: z.string().nullish(),
  activeUntil: z.string().nullish(),
});
export type OpenAipItem = z.infer<typeof OpenAipItem>;

/** Open ends of a window that has only one bound. */
export const OPEN_START = "1970-01-01T00:00:00Z";
export const OPEN_END = "9999-12-31T23:59:59Z";

export interface ItemContext {
  source: string;
  /** 0-based record index in the source. */
  record: number;
  /** 1-based line, where the format has lines (JSON lines, XML). */
  line?: number;
}

export interface ItemResult {
  record?: AirspaceRecord;
  diagnostics: Diagnostic[];
}

/** JSON for a message, with C1 controls made visible (`"LCA \\u0096 FIR"`). */
const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
const quote = (v: unknown): string =>
  excerpt((JSON.stringify(v) ?? String(v)).replace(/[\u007f-\u009f]/g, visible), 60);

/** Maps one item; a skipped item has no record and exactly one `skipped` diagnostic. */
export function airspaceFromOpenAipItem(props: unknown, geometry: unknown, ctx: ItemContext): ItemResult {
  const diagnostics: Diagnostic[] = [];
  const at = { source: ctx.source, record: ctx.record, ...(ctx.line === undefined ? {} : { line: ctx.line }) };
  const { _id, name: rawName } = (typeof props === "object" && props !== null ? props : {}) as Record<string, unknown>;
  const known = { ...(typeof _id === "string" && _id ? { id: _id } : {}) } as { id?: string; name?: string };
  if (typeof rawName === "string" && rawName) known.name = rawName;
  const note = (code: string, severity: Diagnostic["severity"], message: string): void => {
    diagnostics.push({ code, severity, message, ...at, ...known });
  };
  const skip = (code: string, message: string): ItemResult => {
    note(code, "skipped", message);
    return { diagnostics };
  };

  if (typeof props !== "object" || props === null || Array.isArray(props)) {
    return skip("airspace.item.invalid", `item is not an object: ${quote(props)}`);
  }
  const parsed = OpenAipItem.safeParse(props);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const key = String(first?.path[0] ?? "item");
    const value = (props as Record<string, unknown>)[key];
    const where = first?.path.join(".") ?? key;
    const more = parsed.error.issues.length > 1 ? ` (+${parsed.error.issues.length - 1} more issues)` : "";
    const message = `${where}: ${first?.message}; ${key} = ${quote(value)}${more}`;
    // `_id` → airspace.id.missing, either limit → airspace.limit.invalid, any other key → airspace.<key>.invalid
    const code = key === "_id" ? "id.missing" : key.endsWith("Limit") ? "limit.invalid" : `${key}.invalid`;
    return skip(`airspace.${code}`, message);
  }
  const item = parsed.data;
  const id = item._id;
  const geo = readGeometry(geometry);
  if ("code" in geo) return skip(geo.code, geo.message);

  const cleaned = cleanLabel(item.name ?? "");
  let name = cleaned.text;
  if (name !== "") known.name = name;
  if (cleaned.repaired)
    note("airspace.name.controlCharacter", "repaired", `control character in name ${quote(item.name)} → "${name}"`);
  if (name === "") {
    name = `(unnamed ${id})`;
    note("airspace.name.missing", "repaired", `empty name ${quote(item.name ?? null)}; using "${name}"`);
  }

  const icaoClass = item.icaoClass === 7 ? IcaoClass.UNCLASSIFIED : item.icaoClass;
  if (item.icaoClass === 7) note("airspace.icaoClass.seven", "repaired", "icaoClass 7 (2022 unclassified) read as 8");

  const upperLimit = limit(item.upperLimit, "upperLimit", note);
  const lowerLimit = limit(item.lowerLimit, "lowerLimit", note);

  const upper = typeof item.country === "string" ? item.country.trim().toUpperCase() : "";
  const country = /^[A-Z]{2}$/.test(upper) ? upper : undefined;
  if (!country)
    note("airspace.country.invalid", "warning", `country ${quote(item.country)} is not 2 letters; left unset`);

  const remarks = item.remarks?.trim();
  const record: AirspaceRecord = {
    id,
    name,
    ...(cleaned.text === "" ? { nameMissing: true as const } : {}),
    type: item.type,
    icaoClass,
    ...(country === undefined ? {} : { country }),
    upperLimit,
    lowerLimit,
    frequencies: frequencyList(item.frequencies, note),
    ...(remarks ? { remarks } : {}),
    byNotam: item.byNotam ?? false,
    onDemand: item.onDemand ?? false,
    onRequest: item.onRequest ?? false,
    activeTimes: activeWindow(item.activeFrom, item.activeUntil, note),
    geometry: geo.polygons,
    origin: at,
  };
  return { record, diagnostics };
}

type Note = (code: string, severity: Diagnostic["severity"], message: string) => void;

/** Frequencies as `{value, unit, name?, primary?}`; one without a value is no frequency and dropped silently. */
function frequencyList(list: OpenAipItem["frequencies"], note: Note): Frequency[] {
  const out: Frequency[] = [];
  for (const f of list ?? []) {
    const value = f.value?.trim();
    if (!value) continue;
    if (typeof f.unit !== "number") {
      note("airspace.frequency.invalid", "warning", `frequency ${quote(f.value)} has no unit; dropped`);
      continue;
    }
    const name = typeof f.name === "string" ? cleanLabel(f.name).text : "";
    out.push({
      value,
      unit: f.unit,
      ...(name ? { name } : {}),
      ...(typeof f.primary === "boolean" ? { primary: f.primary } : {}),
    });
  }
  return out;
}

/** A limit whose datum is missing: FL → STD, 0 → GND, else MSL (the 2018 BE records, docs/design.md §2). */
function limit(l: z.infer<typeof ItemLimit>, key: string, note: Note): VerticalLimit {
  const { value, unit } = l;
  if (l.referenceDatum !== null && l.referenceDatum !== undefined)
    return { value, unit, referenceDatum: l.referenceDatum };
  const referenceDatum =
    unit === LimitUnit.FLIGHT_LEVEL ? ReferenceDatum.STD : value === 0 ? ReferenceDatum.GND : ReferenceDatum.MSL;
  const shown = quote({ value, unit, referenceDatum: l.referenceDatum ?? null });
  const message = `${key} ${shown} has no reference datum; using ${["GND", "MSL", "STD"][referenceDatum]}`;
  note("airspace.limit.referenceMissing", "repaired", message);
  return { value, unit, referenceDatum };
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 instant with a zone, normalised to `YYYY-MM-DDTHH:MM:SSZ`; undefined when not a real instant. */
export function normaliseInstant(text: string): string | undefined {
  const m = ISO.exec(text.trim());
  const ms = Date.parse(text.trim());
  if (!m || Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2025-02-30 over to March: refuse a day that does not exist.
  const day = new Date(0);
  day.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (day.getUTCDate() !== Number(m[3])) return undefined;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** activeFrom/activeUntil → one window; a single bound gives a window open on the other side (warned). */
function activeWindow(from: string | null | undefined, until: string | null | undefined, note: Note) {
  const read = (raw: string | null | undefined, key: string): string | undefined => {
    const iso = raw?.trim() ? normaliseInstant(raw) : undefined;
    if (raw?.trim() && iso === undefined)
      note("airspace.activeWindow.invalid", "warning", `${key} ${quote(raw)} ignored`);
    return iso;
  };
  const start = read(from, "activeFrom");
  const end = read(until, "activeUntil");
  if (start !== undefined && end !== undefined) {
    if (start < end) return [{ start, end }];
    note("airspace.activeWindow.invalid", "warning", `activeFrom ${start} is not before activeUntil ${end}; no window`);
    return [];
  }
  if (start === undefined && end === undefined) return [];
  const window = { start: start ?? OPEN_START, end: end ?? OPEN_END };
  const message = `only ${start ? `activeFrom ${start}` : `activeUntil ${end}`}; window ${window.start}/${window.end}`;
  note("airspace.activeWindow.partial", "warning", message);
  return [window];
}

type GeometryRead = { polygons: RawPolygons } | { code: string; message: string };

const inRange = (v: unknown, max: number): v is number =>
  typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= max;

/** Polygon or MultiPolygon with numeric, finite, in-range positions; winding and closure left as found. */
function readGeometry(g: unknown): GeometryRead {
  if (g === null || g === undefined) return { code: "airspace.geometry.missing", message: "no geometry" };
  const { type, coordinates } = (typeof g === "object" ? g : {}) as { type?: unknown; coordinates?: unknown };
  if (type !== "Polygon" && type !== "MultiPolygon") {
    return { code: "airspace.geometry.unsupported", message: `geometry type ${quote(type)} is not (Multi)Polygon` };
  }
  const malformed = { code: "airspace.geometry.malformed", message: `${type} coordinates are not arrays of rings` };
  const polys = type === "Polygon" ? [coordinates] : coordinates;
  const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;
  if (!nonEmpty(polys)) return malformed;
  const polygons: RawPolygons = [];
  for (const poly of polys) {
    if (!nonEmpty(poly)) return malformed;
    const rings: RawRing[] = [];
    for (const ring of poly) {
      if (!nonEmpty(ring)) return malformed;
      const out: RawRing = [];
      for (const p of ring) {
        const [lon, lat] = Array.isArray(p) ? (p as unknown[]) : [];
        if (!inRange(lon, 180) || !inRange(lat, 90)) {
          const message = `position ${quote(p)} is not a finite [lon, lat] in range`;
          return { code: "airspace.geometry.invalidCoordinate", message };
        }
        out.push([lon, lat]);
      }
      rings.push(out);
    }
    polygons.push(rings);
  }
  return { polygons };
}
