// OpenAir attribute values: AC/AY to openAIP (type, icaoClass), AA activation windows.
import { IcaoClass as C, AirspaceType as T } from "../../model/vocab.js";

/** v2 `AY` (Naviter spec) to openAIP type. */
export const AY_TYPES = {
  NONE: T.OTHER,
  R: T.RESTRICTED,
  Q: T.DANGER,
  P: T.PROHIBITED,
  CTR: T.CTR,
  TMZ: T.TMZ,
  RMZ: T.RMZ,
  TMA: T.TMA,
  TRA: T.TRA,
  TSA: T.TSA,
  FIR: T.FIR,
  UIR: T.UIR,
  ADIZ: T.ADIZ,
  ATZ: T.ATZ,
  MATZ: T.MATZ,
  AWY: T.AIRWAY,
  MTR: T.MTR,
  ALERT: T.ALERT,
  WARNING: T.WARNING,
  PROTECTED: T.PROTECTED,
  HTZ: T.HTZ,
  GSEC: T.GLIDING_SECTOR,
  TRP: T.TRP,
  TIZ: T.TIZ,
  TIA: T.TIA,
  MTA: T.MTA,
  CTA: T.CTA,
  ACCSEC: T.ACC_SECTOR,
  ASRA: T.AERIAL_SPORTING,
  OFR: T.OVERFLIGHT_RESTRICTION,
  MRT: T.MRT,
  TRAFR: T.TFR,
  VFRSEC: T.VFR_SECTOR,
  FIS: T.FIS_SECTOR,
  LTA: T.LTA,
  UTA: T.UTA,
  MCTR: T.MCTR,
} as const;

/** ICAO class letters, as v2 `AC` writes them (and v1 `AC` for classed airspace). */
export const AC_CLASSES = {
  A: C.A,
  B: C.B,
  C: C.C,
  D: C.D,
  E: C.E,
  F: C.F,
  G: C.G,
  UNC: C.UNCLASSIFIED,
  UNCLASSIFIED: C.UNCLASSIFIED,
} as const;

/** v1 `AC` values that name a type instead of a class (class then unclassified): the v2 names, and more. */
export const AC_V1_TYPES = {
  ...AY_TYPES,
  // W = wave window, the glider sectors of the German file.
  W: T.GLIDING_SECTOR,
  // GP = glider prohibited: not forbidden to all traffic, so not P; openAIP's nearest is an overflight restriction.
  GP: T.OVERFLIGHT_RESTRICTION,
  GLIDING_SECTOR: T.GLIDING_SECTOR,
  SUA: T.OTHER,
} as const;

export interface ClassType {
  type: number;
  icaoClass: number;
  /** Which value was not recognised, if any (the record keeps type 0 / class 8 for it). */
  unknown?: { code: "openair.class.unknown" | "openair.type.unknown"; value: string };
}

function lookup<V>(table: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** v2 (an `AY` present): AC is the class, AY the type. v1: AC is a class letter or a type. */
export function classAndType(ac: string, ay: string | undefined): ClassType {
  const acKey = ac.trim().toUpperCase();
  const cls = lookup<number>(AC_CLASSES, acKey);
  if (ay !== undefined) {
    const ayKey = ay.trim().toUpperCase();
    const type = lookup<number>(AY_TYPES, ayKey);
    const out: ClassType = { type: type ?? T.OTHER, icaoClass: cls ?? C.UNCLASSIFIED };
    if (cls === undefined) out.unknown = { code: "openair.class.unknown", value: ac.trim() };
    else if (type === undefined) out.unknown = { code: "openair.type.unknown", value: ay.trim() };
    return out;
  }
  if (cls !== undefined) return { type: T.OTHER, icaoClass: cls };
  const type = lookup<number>(AC_V1_TYPES, acKey);
  if (type !== undefined) return { type, icaoClass: C.UNCLASSIFIED };
  return {
    type: T.OTHER,
    icaoClass: C.UNCLASSIFIED,
    unknown: { code: "openair.class.unknown", value: ac.trim() },
  };
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?Z$/i;

/** `2023-05-28T12:00Z` or `…T12:00:00Z` to `2023-05-28T12:00:00Z`; `T24:00Z` is the next midnight. */
export function normaliseInstant(text: string): string | undefined {
  const m = INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((v) => Number(v ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || mi > 59 || s > 59 || h > 24 || (h === 24 && (mi > 0 || s > 0))) {
    return undefined;
  }
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls 31 April over to 1 May: refuse instead.
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return undefined;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export type Activation =
  | { kind: "none" }
  | { kind: "interval"; start: string; end: string }
  | { kind: "invalid"; code: "openair.activation.unparsable" | "openair.activation.openEnded"; reason: string };

/** One `AA` value: `NONE`, `start/end`, or an open end (`start/NONE`, `NONE/end`) we cannot represent. */
export function parseActivation(text: string): Activation {
  const t = text.trim();
  if (/^NONE$/i.test(t)) return { kind: "none" };
  const parts = t.split("/").map((p) => p.trim());
  if (parts.length !== 2) return { kind: "invalid", code: "openair.activation.unparsable", reason: "not start/end" };
  const [a, b] = parts as [string, string];
  if (/^NONE$/i.test(a) || /^NONE$/i.test(b)) {
    return { kind: "invalid", code: "openair.activation.openEnded", reason: "open-ended window" };
  }
  const start = normaliseInstant(a);
  const end = normaliseInstant(b);
  if (!start || !end) return { kind: "invalid", code: "openair.activation.unparsable", reason: "not ISO 8601 UTC" };
  if (end <= start) return { kind: "invalid", code: "openair.activation.unparsable", reason: "end not after start" };
  return { kind: "interval", start, end };
}
