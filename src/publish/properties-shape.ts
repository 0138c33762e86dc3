// Whether a feature's properties certainly conform to the contract's FeatureProperties (docs/contract.md §2.3), checked by hand.
// Kept by measurement: on the Europe benchmark's 48 402 published features zod's parse takes ~1.4 s, half of it in
// the positions of linked NOTAMs' own geometries; this check ~0.1 s. It only ever says yes when zod would: a no
// sends the properties to zod, which gives the verdict and its messages (test/publish/properties-shape.test.ts).
// String formats (instants, colours) are zod's own checks, each distinct string checked once.
import type { z } from "zod";
import {
  AupUupRecord,
  CssRgba,
  DynamicAirspaceMapping,
  DynamicStyle,
  FeatureProperties,
  Frequency,
  GeoJSONGeometry,
  Interval,
  IsoInstant,
  ItemDParsedSchedule,
  LinkedNotam,
  ScheduleRow,
  Vendor,
  VerticalLimit,
} from "../model/contract.js";
import { ACTIVATION_TYPES, IS_ACTIVE_VALUES, NOTAM_KINDS, PAINT_DIRECTIONS } from "../model/vocab.js";
import { areaGeometryIssue } from "./geometry-shape.js";

type Obj = Record<string, unknown>;

/** True only when `zod.parse(p)` succeeds; false means "ask zod". */
export function propertiesConform(p: unknown): boolean {
  if (!isObject(p) || !onlyKeys(p, PROPS)) return false;
  return (
    nonEmpty(p._id) &&
    nonEmpty(p.name) &&
    int(p.type, 0, 99) &&
    (p.featureCategory === "airspace" || p.featureCategory === "graphicalNotam") &&
    (p.icaoClass === undefined || int(p.icaoClass, 0, 8)) &&
    typeof p.country === "string" &&
    COUNTRY.test(p.country) &&
    limit(p.upperLimit) &&
    limit(p.lowerLimit) &&
    (p.frequencies === undefined || every(p.frequencies, frequency)) &&
    (p.remarks === undefined || typeof p.remarks === "string") &&
    vendor(p.vendor) &&
    facet(p.iscraneobstacle) &&
    facet(p.iswindturbineobstacle) &&
    facet(p.ismastortowerobstacle) &&
    facet(p.ispoleorpylonobstacle)
  );
}

const keysOf = (s: { shape: Record<string, unknown> }) => new Set(Object.keys(s.shape));
const PROPS = keysOf(FeatureProperties);
const VENDOR = keysOf(Vendor);
const MAPPING = keysOf(DynamicAirspaceMapping);
const STYLE = keysOf(DynamicStyle);
const LIMIT = keysOf(VerticalLimit);
const FREQUENCY = keysOf(Frequency);
const LINKED = keysOf(LinkedNotam);
const GEOMETRY = keysOf(GeoJSONGeometry);
const INTERVAL = keysOf(Interval);
const ROW = keysOf(ScheduleRow);
const COUNTRY = /^[A-Z]{2}$/;
const VENDOR_TYPE = /^\d{2}$/;
const FIR = /^[A-Z]{4}$/;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
function onlyKeys(o: Obj, keys: ReadonlySet<string>): boolean {
  for (const k in o) if (!keys.has(k)) return false;
  return true;
}
const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const int = (v: unknown, min: number, max: number) =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const unit = (v: unknown, lo: number, hi: number) => num(v) && v >= lo && v <= hi;
const nonEmpty = (v: unknown) => typeof v === "string" && v.length > 0;
const facet = (v: unknown) => v === undefined || v === 0 || v === 1;
function every(v: unknown, check: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!check(x)) return false;
  return true;
}

/** A string format as zod checks it, each distinct string once. */
function format(schema: z.ZodType<string>): (v: unknown) => boolean {
  const good = new Set<string>();
  return (v) => {
    if (typeof v !== "string") return false;
    if (good.has(v)) return true;
    if (!schema.safeParse(v).success) return false;
    good.add(v);
    return true;
  };
}
const instant = format(IsoInstant);
const rgba = format(CssRgba);

function limit(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, LIMIT)) return false;
  const { unit: u, referenceDatum: r } = v;
  return num(v.value) && (u === 0 || u === 1 || u === 6) && (r === 0 || r === 1 || r === 2);
}
const optionalLimit = (v: unknown) => v === undefined || limit(v);

function frequency(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, FREQUENCY)) return false;
  return (
    nonEmpty(v.value) &&
    Number.isSafeInteger(v.unit) &&
    (v.name === undefined || typeof v.name === "string") &&
    (v.primary === undefined || typeof v.primary === "boolean")
  );
}

function vendor(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, VENDOR)) return false;
  return (
    nonEmpty(v.formattedUpperLimit) &&
    nonEmpty(v.formattedLowerLimit) &&
    typeof v.VendorType === "string" &&
    VENDOR_TYPE.test(v.VendorType) &&
    typeof v.FIR_Ident === "string" &&
    FIR.test(v.FIR_Ident) &&
    mapping(v.dynamicAirspaceMapping)
  );
}

const within =
  <T>(values: readonly T[]) =>
  (v: unknown) =>
    values.includes(v as T);
const isActive = within(IS_ACTIVE_VALUES);
const activationType = within(ACTIVATION_TYPES);
const paint = within(PAINT_DIRECTIONS);
const kind = within(NOTAM_KINDS);

function mapping(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, MAPPING)) return false;
  return (
    isActive(v.isActive) &&
    activationType(v.activationType) &&
    every(v.airspaceActivationTimes, interval) &&
    every(v.dynamicScheduleAndVerticalLimits, scheduleRow) &&
    every(v.notams, linkedNotam) &&
    // few (a day's plan), zod's check as it is
    every(v.aupuups, (r) => AupUupRecord.safeParse(r).success) &&
    (v.dynamicStyle === undefined || style(v.dynamicStyle))
  );
}

function interval(v: unknown): boolean {
  return isObject(v) && onlyKeys(v, INTERVAL) && instant(v.start) && instant(v.end);
}

function scheduleRow(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, ROW)) return false;
  return instant(v.start) && instant(v.end) && optionalLimit(v.upperLimit) && optionalLimit(v.lowerLimit);
}

function style(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, STYLE)) return false;
  return (
    rgba(v.fillColor) &&
    unit(v.fillOpacity, 0, 1) &&
    rgba(v.lineColor) &&
    num(v.lineWidth) &&
    v.lineWidth >= 0 &&
    unit(v.lineOpacity, 0, 1) &&
    every(v.lineDasharray, (d) => num(d) && d >= 0) &&
    (v.complexStyle === null || typeof v.complexStyle === "string") &&
    int(v.priority, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) &&
    int(v.Priority, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) &&
    paint(v.polygonPaintDirection) &&
    paint(v.PolygonPaintDirection)
  );
}

function linkedNotam(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, LINKED)) return false;
  return (
    nonEmpty(v.NotamId) &&
    (v.NotamIsOfKind === null || kind(v.NotamIsOfKind)) &&
    (v.ItemD === undefined || typeof v.ItemD === "string") &&
    // small, and its grammar is zod's
    (v.ItemDParsedSchedule === undefined || ItemDParsedSchedule.safeParse(v.ItemDParsedSchedule).success) &&
    (v.ItemE === undefined || typeof v.ItemE === "string") &&
    optionalLimit(v.notamUpperLimit) &&
    optionalLimit(v.notamLowerLimit) &&
    (v.GeoJSONGeometry === undefined || ownGeometry(v.GeoJSONGeometry))
  );
}

/** A NOTAM's own geometry: an area by the published check, or a point. */
function ownGeometry(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, GEOMETRY)) return false;
  if (v.source !== "itemE" && v.source !== "qLine") return false;
  const g = v.geometry;
  if (isObject(g) && g.type === "Point") return onlyKeys(g, POINT) && position(g.coordinates);
  return areaGeometryIssue(g) === undefined;
}
const POINT = new Set(["type", "coordinates"]);
const position = (p: unknown) => Array.isArray(p) && p.length === 2 && unit(p[0], -180, 180) && unit(p[1], -90, 90);
