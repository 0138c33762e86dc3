// YAIXM `type` and `localtype` (yaixm_schema.yaml) to openAIP type codes (docs/design.md §2).
import { AirspaceType as T } from "../model/vocab.js";

const TYPES: Record<string, number> = {
  ATZ: T.ATZ,
  AWY: T.AIRWAY,
  CTA: T.CTA,
  CTR: T.CTR,
  D: T.DANGER,
  P: T.PROHIBITED,
  R: T.RESTRICTED,
  TMA: T.TMA,
};

/** OTHER and D_OTHER take their meaning from `localtype`; the hazards without a code of their own stay OTHER. */
const LOCAL_TYPES: Record<string, number> = {
  GLIDER: T.GLIDING_SECTOR,
  MATZ: T.MATZ,
  RMZ: T.RMZ,
  TMZ: T.TMZ,
  DZ: T.AERIAL_SPORTING,
  RAT: T.RESTRICTED,
};

export function typeOf(type: string, localtype: string | undefined): number {
  if (type === "OTHER" || type === "D_OTHER") return LOCAL_TYPES[localtype ?? ""] ?? T.OTHER;
  return TYPES[type] ?? T.OTHER;
}
