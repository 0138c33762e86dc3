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

const STAMP = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;

/** A `YYMMDDhhmm` stamp to epoch ms, or undefined when it is not a real instant. Years 80–99 are 19YY (the
 * ICAO Doc 8126 examples are of 1991), 00–79 are 20YY. */
export function parseStamp(text: string): number | undefined {
  const m = STAMP.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (h > 23 || mi > 59) return undefined;
  const ms = Date.UTC(y >= 80 ? 1900 + y : 2000 + y, mo - 1, d, h, mi);
  const back = new Date(ms);
  return back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : undefined;
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
  // an Item C written …2359 ends at the end of that day (DESIGN §3)
  if (stamp.endsWith("2359")) c += 60_000;
  if (c <= b) return { ok: false, reason: `Item C "${itemC}" is not after Item B "${itemB}"` };
  return { ok: true, value: { b, c, est } };
}
