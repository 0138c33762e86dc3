// Items B and C: the validity window [B, C) that Item D narrows.
//   B  2609010800          C  2609302359 (→ 2026-10-01T00:00Z: 2359 ends the day)  2609302359EST  PERM

export interface Validity {
  /** Start, epoch ms. */
  b: number;
  /** End, epoch ms (exclusive); undefined for PERM. */
  c: number | undefined;
  /** C is an estimate (`EST`): the NOTAM may last longer. */
  est: boolean;
}

export type ValidityParse = { ok: true; value: Validity } | { ok: false; reason: string };

/** A `YYMMDDhhmm` stamp to epoch ms, or undefined when it is not a real instant. Years 80–99 are 19YY (the
 * ICAO Doc 8126 examples are of 1991), 00–79 are 20YY. Read by character codes: the expression and `Date` it
 * replaced were a tenth of the NOTAM benchmark's reading time (same answers on every stamp of the corpus). */
export function parseStamp(text: string): number | undefined {
  const s = text.length === 10 ? text : text.trim();
  if (s.length !== 10) return undefined;
  const y = pair(s, 0);
  const mo = pair(s, 2);
  const d = pair(s, 4);
  const h = pair(s, 6);
  const mi = pair(s, 8);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59) return undefined;
  const year = y >= 80 ? 1900 + y : 2000 + y;
  const month = Date.UTC(year, mo - 1, 1);
  if (d > (Date.UTC(year, mo, 1) - month) / 86_400_000) return undefined;
  return month + (d - 1) * 86_400_000 + h * 3_600_000 + mi * 60_000;
}

/** The two ASCII digits at `i` as a number, or -1. */
function pair(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

export function parseValidity(itemB: string, itemC: string): ValidityParse {
  const b = parseStamp(itemB);
  if (b === undefined) return { ok: false, reason: `Item B "${itemB}" is not YYMMDDhhmm` };
  const cText = itemC.trim().toUpperCase();
  if (cText === "PERM") return { ok: true, value: { b, c: undefined, est: false } };
  const est = cText.endsWith("EST");
  const stamp = est ? cText.slice(0, -3).trim() : cText;
  let c = parseStamp(stamp);
  if (c === undefined) return { ok: false, reason: `Item C "${itemC}" is not YYMMDDhhmm[EST] or PERM` };
  // an Item C written …2359 ends at the end of that day (docs/design.md §3)
  if (stamp.endsWith("2359")) c += 60_000;
  if (c <= b) return { ok: false, reason: `Item C "${itemC}" is not after Item B "${itemB}"` };
  return { ok: true, value: { b, c, est } };
}
