// A NOTAM as the readers produce it (ICAO text or JSON lines), before classification and geometry.
// Items keep their text; parsed forms (Q-line, limits, geometry, schedule) are added by src/notam/.

/** The Q-line: `EDGG/QRTCA/IV/BO/W/000/080/5003N00834E010`. */
export interface QLine {
  fir: string;
  /** Five letters starting with Q: subject = letters 2–3, condition = letters 4–5. */
  code: string;
  traffic?: string;
  purpose?: string;
  scope?: string;
  /** Lower and upper limits in flight levels (`000`, `999`). */
  lower?: number;
  upper?: number;
  /** Centre of the area of influence, degrees. */
  centre?: { lat: number; lon: number };
  /** Radius in NM. */
  radiusNm?: number;
  raw: string;
}

export const NOTAM_TYPES = ["N", "R", "C"] as const;
/** NOTAMN new, NOTAMR replaces `ref`, NOTAMC cancels `ref`. */
export type NotamType = (typeof NOTAM_TYPES)[number];

export interface Notam {
  /** Series, number and year as written: `A1234/26`. */
  id: string;
  series: string;
  number: number;
  /** Two-digit year of the id. */
  year: number;
  /** Issuing NOTAM office (`EGGN`), when the source says; else the Q-line FIR stands in. */
  nof?: string;
  type: NotamType;
  /** The NOTAM replaced (R) or cancelled (C). */
  ref?: string;
  q?: QLine;
  /** Item A: one or several ICAO location indicators. */
  itemA: string[];
  /** Item B `YYMMDDhhmm`. */
  itemB: string;
  /** Item C `YYMMDDhhmm`, with `EST`, or `PERM`; absent on NOTAMC. */
  itemC?: string;
  itemD?: string;
  itemE: string;
  itemF?: string;
  itemG?: string;
  origin: { source: string; record: number; line?: number };
}

/** A NOTAM's identity, `notam-<series><number>-<yy>-<nof>`: its id with the office that issued it (the Q-line FIR
 * standing in). Also its feature's `_id` (docs/design.md §4). */
export function notamKey(n: Notam): string {
  const nof = n.nof ?? n.q?.fir ?? "XXXX";
  return `notam-${n.series}${String(n.number).padStart(4, "0")}-${String(n.year).padStart(2, "0")}-${nof}`;
}
