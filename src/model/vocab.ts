// Closed vocabularies of the contract (docs/contract.md §2) and of openAIP's airspace scheme (docs/design.md §2).

/** openAIP airspace type codes 0–36; 98 and 99 are our NOTAM-derived types (docs/contract.md §2.3). */
export const AirspaceType = {
  OTHER: 0,
  RESTRICTED: 1,
  DANGER: 2,
  PROHIBITED: 3,
  CTR: 4,
  TMZ: 5,
  RMZ: 6,
  TMA: 7,
  TRA: 8,
  TSA: 9,
  FIR: 10,
  UIR: 11,
  ADIZ: 12,
  ATZ: 13,
  MATZ: 14,
  AIRWAY: 15,
  MTR: 16,
  ALERT: 17,
  WARNING: 18,
  PROTECTED: 19,
  HTZ: 20,
  GLIDING_SECTOR: 21,
  TRP: 22,
  TIZ: 23,
  TIA: 24,
  MTA: 25,
  CTA: 26,
  ACC_SECTOR: 27,
  AERIAL_SPORTING: 28,
  OVERFLIGHT_RESTRICTION: 29,
  MRT: 30,
  TFR: 31,
  VFR_SECTOR: 32,
  FIS_SECTOR: 33,
  LTA: 34,
  UTA: 35,
  MCTR: 36,
  NOTAM_AIRSPACE: 98,
  GRAPHICAL_NOTAM: 99,
} as const;

/** What pilots call each type: the map page's filters and popups, never the raw code. */
export const AIRSPACE_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: "Other",
  1: "Restricted area",
  2: "Danger area",
  3: "Prohibited area",
  4: "CTR",
  5: "TMZ",
  6: "RMZ",
  7: "TMA",
  8: "TRA",
  9: "TSA",
  10: "FIR",
  11: "UIR",
  12: "ADIZ",
  13: "ATZ",
  14: "MATZ",
  15: "Airway",
  16: "Military training route",
  17: "Alert area",
  18: "Warning area",
  19: "Protected area",
  20: "Helicopter traffic zone",
  21: "Glider sector",
  22: "Transponder area (TRP)",
  23: "TIZ",
  24: "TIA",
  25: "Military training area",
  26: "CTA",
  27: "ACC sector",
  28: "Aerial sporting area",
  29: "Overflight restriction",
  30: "Military route",
  31: "TFR",
  32: "VFR sector",
  33: "FIS sector",
  34: "LTA",
  35: "UTA",
  36: "Military CTR",
  98: "Airspace NOTAM",
  99: "Graphical NOTAM",
};
export type AirspaceType = (typeof AirspaceType)[keyof typeof AirspaceType];

/** Highest openAIP airspace type code. */
export const MAX_OPENAIP_TYPE = 36;

/** openAIP icaoClass: 0–6 = A–G, 8 = unclassified (7 is the 2022 spelling of 8, docs/design.md §2). */
export const IcaoClass = { A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6, UNCLASSIFIED: 8 } as const;
export type IcaoClass = (typeof IcaoClass)[keyof typeof IcaoClass];

/** VerticalLimit.unit (docs/contract.md §2.4). */
export const LimitUnit = { METER: 0, FEET: 1, FLIGHT_LEVEL: 6 } as const;
export type LimitUnit = (typeof LimitUnit)[keyof typeof LimitUnit];

/** VerticalLimit.referenceDatum (docs/contract.md §2.4). */
export const ReferenceDatum = { GND: 0, MSL: 1, STD: 2 } as const;
export type ReferenceDatum = (typeof ReferenceDatum)[keyof typeof ReferenceDatum];

export const FeatureCategory = { AIRSPACE: "airspace", GRAPHICAL_NOTAM: "graphicalNotam" } as const;
export type FeatureCategory = (typeof FeatureCategory)[keyof typeof FeatureCategory];

export const IS_ACTIVE_VALUES = ["Yes", "No", "Unknown"] as const;
export type IsActive = (typeof IS_ACTIVE_VALUES)[number];

/** docs/contract.md §2.7, exactly one per feature. */
export const ACTIVATION_TYPES = [
  "isActive",
  "isNotActiveAirspace",
  "isActivatedByNOTAMAirspace",
  "isActivatedByAUPAirspace",
  "isActivatedByAUPAndNOTAMAirspace",
  "isActiveRestrictiveNOTAM",
  "isActiveActivityNOTAM",
  "isActiveAirspaceDeactivationNOTAM",
  "isActiveAirspaceNOTAM",
  "isOtherActiveAirspace",
] as const;
export type ActivationType = (typeof ACTIVATION_TYPES)[number];

/** docs/contract.md §2.9 NotamIsOfKind (null is the sixth value). */
export const NOTAM_KINDS = ["A", "D", "R", "V", "C"] as const;
export type NotamKind = (typeof NOTAM_KINDS)[number];

export const SCHEDULE_STATUSES = ["exact", "partial", "fallback", "unsupported"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Hatching hints of dynamicStyle.polygonPaintDirection (docs/contract.md §2.12). */
export const PAINT_DIRECTIONS = ["none", "forwardDiagonal", "backwardDiagonal", "inside"] as const;
export type PaintDirection = (typeof PAINT_DIRECTIONS)[number];

export const TIERS = ["dynamic", "static"] as const;
export type Tier = (typeof TIERS)[number];
