// NotamIsOfKind from the Q-code (letters 2–3 subject, 4–5 condition), refined by Item E (docs/design.md §4).
// R/V NOTAMs that name an existing airspace become A when linking finds that airspace (link.ts).
import type { QLine } from "../model/notam.js";
import type { NotamKind } from "../model/vocab.js";

const RESTRICTIVE_SUBJECTS = new Set(["RA", "RD", "RM", "RO", "RP", "RR", "RT"]);
const RESTRICTIVE_CONDITIONS = new Set(["CA", "CS", "LW", "LT", "LP", "CH"]);
const AIRSPACE_SUBJECTS = new Set(["AC", "AE", "AT", "AZ", "AF", "AU", "AD", "AO"]);
/** Activated, installed, hours or changes; (issue 15) prohibited / prohibited to: `BEAUVECHAIN CTR PROHIBITED …`;
 * (issue 42) closed: `SYLT CTR MAY BE CLSD UP TO 30MIN` (a closed CTR is no less there). */
const AIRSPACE_CONDITIONS = new Set(["CA", "CS", "AH", "CH", "LP", "LT", "LC"]);

export interface QCode {
  subject: string;
  condition: string;
}

/** `QRTCA` → {subject: "RT", condition: "CA"}; undefined when it is not a Q-code. */
export function qCode(q: QLine | undefined): QCode | undefined {
  const m = /^Q([A-Z]{2})([A-Z]{2})$/.exec(q?.code.trim().toUpperCase() ?? "");
  return m ? { subject: m[1]!, condition: m[2]! } : undefined;
}

const TRIGGER = /^\s*TRIGGER NOTAM\b/;

export function notamKind(q: QLine | undefined, itemE: string): NotamKind | null {
  const code = qCode(q);
  if (TRIGGER.test(itemE.toUpperCase()) || code?.condition === "TT") return "C";
  if (!code) return null;
  const { subject, condition } = code;
  const airspaceSubject = RESTRICTIVE_SUBJECTS.has(subject) || AIRSPACE_SUBJECTS.has(subject);
  if (airspaceSubject && condition === "CD") return "D";
  if (RESTRICTIVE_SUBJECTS.has(subject) && RESTRICTIVE_CONDITIONS.has(condition)) return "R";
  if (subject.startsWith("W") && condition === "LW") return "V";
  if (AIRSPACE_SUBJECTS.has(subject) && AIRSPACE_CONDITIONS.has(condition)) return "A";
  return null;
}

/**
 * A plain-language NOTAM (condition XX) about an airspace subject (`QRDXX EGD510C SPADEADAM NO DANGER AREA CROSSING
 * SERVICE AVAILABLE`, `QATXX … IN THE SCOTTISH TMA`): of no kind of its own (docs/design.md §4), but it may inform about, or
 * change, an airspace it names, so it is linked; unlinked it is left out.
 */
export function isPlainAirspaceNotam(q: QLine | undefined): boolean {
  const code = qCode(q);
  if (code?.condition !== "XX") return false;
  return RESTRICTIVE_SUBJECTS.has(code.subject) || AIRSPACE_SUBJECTS.has(code.subject);
}

/** Obstacles (OB) and obstacle lights (OL): published with their own geometry although of kind null. */
export function isObstacle(q: QLine | undefined): boolean {
  const s = qCode(q)?.subject;
  return s === "OB" || s === "OL";
}
