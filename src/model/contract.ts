// The published payload (docs/contract.md §2) as zod schemas; every type of the contract is inferred from here.
// Geometry is described structurally; the RFC 7946 rules (closed, wound, in range) are in geo/rfc7946.ts.
import { z } from "zod";
import {
  ACTIVATION_TYPES,
  IS_ACTIVE_VALUES,
  NOTAM_KINDS,
  PAINT_DIRECTIONS,
  SCHEDULE_STATUSES,
  TIERS,
} from "./vocab.js";

/** ISO 8601 UTC instant with seconds, as we write it: `2026-09-14T08:00:00Z` (milliseconds allowed on read). */
export const IsoInstant = z.iso.datetime({ offset: false });

export const Position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
export const LinearRing = z.array(Position).min(4);
export const Polygon = z.strictObject({ type: z.literal("Polygon"), coordinates: z.array(LinearRing).min(1) });
export type Polygon = z.infer<typeof Polygon>;
export const MultiPolygon = z.strictObject({
  type: z.literal("MultiPolygon"),
  coordinates: z.array(z.array(LinearRing).min(1)).min(1),
});
export type MultiPolygon = z.infer<typeof MultiPolygon>;
export const AreaGeometry = z.discriminatedUnion("type", [Polygon, MultiPolygon]);
export type AreaGeometry = z.infer<typeof AreaGeometry>;
export const Point = z.strictObject({ type: z.literal("Point"), coordinates: Position });

/** docs/contract.md §2.4 */
export const VerticalLimit = z.strictObject({
  value: z.number().finite(),
  unit: z.union([z.literal(0), z.literal(1), z.literal(6)]),
  referenceDatum: z.union([z.literal(0), z.literal(1), z.literal(2)]),
});
export type VerticalLimit = z.infer<typeof VerticalLimit>;

/** Radio frequency record (docs/contract.md §2.3 leaves the fields open; these are openAIP's). */
export const Frequency = z.strictObject({
  value: z.string().min(1),
  unit: z.number().int(),
  name: z.string().optional(),
  primary: z.boolean().optional(),
});
export type Frequency = z.infer<typeof Frequency>;

export const Interval = z.strictObject({ start: IsoInstant, end: IsoInstant });
export type Interval = z.infer<typeof Interval>;

/** docs/contract.md §2.8 */
export const ScheduleRow = z.strictObject({
  start: IsoInstant,
  end: IsoInstant,
  upperLimit: VerticalLimit.optional(),
  lowerLimit: VerticalLimit.optional(),
});
export type ScheduleRow = z.infer<typeof ScheduleRow>;

const ScheduleTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00|S[RS]([+-]\d{1,3})?)$/);
const DaySelection = z.strictObject({
  weekdays: z.array(z.enum(["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"])).optional(),
  dates: z.array(z.iso.date()).optional(),
});

/** The resolved Item D schedule (docs/item-d-schedule.md). */
export const CompactSchedule = z.strictObject({
  groups: z.array(
    z.strictObject({
      days: z.union([z.literal("every"), DaySelection]),
      times: z.array(z.tuple([ScheduleTime, ScheduleTime])),
      except: DaySelection.optional(),
      continuous: z.array(z.tuple([z.iso.datetime(), z.iso.datetime()])).optional(),
      weekly: z.array(z.tuple([z.string(), z.string()])).optional(),
    }),
  ),
});
export type CompactSchedule = z.infer<typeof CompactSchedule>;

/** docs/contract.md §2.9: compact parsed schedule; `schedule` is null when the text was not understood. */
export const ItemDParsedSchedule = z.strictObject({
  status: z.enum(SCHEDULE_STATUSES),
  schedule: CompactSchedule.nullable(),
  parserVersion: z.string().min(1),
});
export type ItemDParsedSchedule = z.infer<typeof ItemDParsedSchedule>;

/** Wrapper around a NOTAM's own geometry; `source` says where it came from (Item E or the coarse Q-line circle). */
export const GeoJSONGeometry = z.strictObject({
  source: z.enum(["itemE", "qLine"]),
  geometry: z.discriminatedUnion("type", [Polygon, MultiPolygon, Point]),
});

/** docs/contract.md §2.9 */
export const LinkedNotam = z.strictObject({
  NotamId: z.string().min(1),
  NotamIsOfKind: z.enum(NOTAM_KINDS).nullable(),
  ItemD: z.string().optional(),
  ItemDParsedSchedule: ItemDParsedSchedule.optional(),
  ItemE: z.string().optional(),
  notamUpperLimit: VerticalLimit.optional(),
  notamLowerLimit: VerticalLimit.optional(),
  GeoJSONGeometry: GeoJSONGeometry.optional(),
});
export type LinkedNotam = z.infer<typeof LinkedNotam>;

/** docs/contract.md §2.11 */
export const AupUupRecord = z.strictObject({
  Designator: z.string().min(1),
  Status: z.string().min(1),
  StartDT: IsoInstant,
  EndDT: IsoInstant,
  UpperAlt: z.string(),
  LowerAlt: z.string(),
  aupuupUpperLimit: VerticalLimit.optional(),
  aupuupLowerLimit: VerticalLimit.optional(),
});
export type AupUupRecord = z.infer<typeof AupUupRecord>;

export const CssRgba = z.string().regex(/^rgba\(\d{1,3}, ?\d{1,3}, ?\d{1,3}, ?(0|1|0?\.\d+)\)$/);

/** docs/contract.md §2.12; both spellings of the legacy aliases carry the same value (checked in validate). */
export const DynamicStyle = z.strictObject({
  fillColor: CssRgba,
  fillOpacity: z.number().min(0).max(1),
  lineColor: CssRgba,
  lineWidth: z.number().min(0),
  lineOpacity: z.number().min(0).max(1),
  lineDasharray: z.array(z.number().min(0)),
  complexStyle: z.string().nullable(),
  priority: z.number().int(),
  Priority: z.number().int(),
  polygonPaintDirection: z.enum(PAINT_DIRECTIONS),
  PolygonPaintDirection: z.enum(PAINT_DIRECTIONS),
});
export type DynamicStyle = z.infer<typeof DynamicStyle>;

/** docs/contract.md §2.6 */
export const DynamicAirspaceMapping = z.strictObject({
  isActive: z.enum(IS_ACTIVE_VALUES),
  activationType: z.enum(ACTIVATION_TYPES),
  airspaceActivationTimes: z.array(Interval),
  dynamicScheduleAndVerticalLimits: z.array(ScheduleRow),
  notams: z.array(LinkedNotam),
  aupuups: z.array(AupUupRecord),
  dynamicStyle: DynamicStyle.optional(),
});
export type DynamicAirspaceMapping = z.infer<typeof DynamicAirspaceMapping>;

/** docs/contract.md §2.5 */
export const Vendor = z.strictObject({
  formattedUpperLimit: z.string().min(1),
  formattedLowerLimit: z.string().min(1),
  VendorType: z.string().regex(/^\d{2}$/),
  FIR_Ident: z.string().regex(/^[A-Z]{4}$/),
  dynamicAirspaceMapping: DynamicAirspaceMapping,
});
export type Vendor = z.infer<typeof Vendor>;

const Facet = z.union([z.literal(0), z.literal(1)]);

/** docs/contract.md §2.3 */
export const FeatureProperties = z.strictObject({
  _id: z.string().min(1),
  name: z.string().min(1),
  type: z.number().int().min(0).max(99),
  featureCategory: z.enum(["airspace", "graphicalNotam"]),
  icaoClass: z.number().int().min(0).max(8).optional(),
  country: z.string().regex(/^[A-Z]{2}$/),
  upperLimit: VerticalLimit,
  lowerLimit: VerticalLimit,
  frequencies: z.array(Frequency).optional(),
  remarks: z.string().optional(),
  vendor: Vendor,
  iscraneobstacle: Facet.optional(),
  iswindturbineobstacle: Facet.optional(),
  ismastortowerobstacle: Facet.optional(),
  ispoleorpylonobstacle: Facet.optional(),
});
export type FeatureProperties = z.infer<typeof FeatureProperties>;

/** docs/contract.md §2.2 */
export const Feature = z.strictObject({
  type: z.literal("Feature"),
  geometry: AreaGeometry,
  properties: FeatureProperties,
});
export type Feature = z.infer<typeof Feature>;

export const Count = z.strictObject({
  airspaces: z.number().int().min(0),
  airspaceNotams: z.number().int().min(0),
  graphicalNotams: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type Count = z.infer<typeof Count>;

/** docs/contract.md §2.1 */
export const FeatureCollection = z.strictObject({
  type: z.literal("FeatureCollection"),
  features: z.array(Feature),
  meta: z.strictObject({ count: Count, tier: z.enum(TIERS) }),
});
export type FeatureCollection = z.infer<typeof FeatureCollection>;
