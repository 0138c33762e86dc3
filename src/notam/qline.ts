// The NOTAM Q-line, field by field:
//   EDGG/QRTCA/IV/BO/W/000/080/5003N00834E010
//   FIR / Q-code / traffic / purpose / scope / lower FL / upper FL / centre ddmmN dddmmE + radius NM
// Real lines pad short fields with blanks (`EISN/QWUXX/IV/NBO/W /000/005/…`, `…/M  /AE/…`), leave out the radius
// (`5003N00834E`) or the whole last field (`LFFF/QWELW/IV/BO/W/000/065`).
import type { QLine } from "../model/notam.js";

export type QLineParse = { ok: true; value: QLine } | { ok: false; reason: string };

const FIR = /^[A-Z]{4}$/;
const CODE = /^Q[A-Z]{4}$/;
/** traffic I, V, IV, K; purpose N B O M K; scope A E W K: letters only, at most four. */
const LETTERS = /^[A-Z]{1,4}$/;
const LEVEL = /^\d{3}$/;
const CENTRE = /^(\d{2})(\d{2})([NS])(\d{3})(\d{2})([EW])(\d{1,3})?$/;

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** Parses the centre field `5003N00834E010` (radius optional) to degrees and NM. */
function parseCentre(field: string): { centre: { lat: number; lon: number }; radiusNm?: number } | string {
  const m = CENTRE.exec(field);
  if (!m) return `centre "${field}" is not ddmmN dddmmE[rrr]`;
  const [latD, latM, ns, lonD, lonM, ew, radius] = m.slice(1) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (Number(latM) > 59 || Number(lonM) > 59) return `centre "${field}" has minutes above 59`;
  const lat = Number(latD) + Number(latM) / 60;
  const lon = Number(lonD) + Number(lonM) / 60;
  if (lat > 90 || lon > 180) return `centre "${field}" is out of range`;
  const centre = { lat: round6(ns === "S" ? -lat : lat), lon: round6(ew === "W" ? -lon : lon) };
  return radius === undefined ? { centre } : { centre, radiusNm: Number(radius) };
}

/** Parses a Q-line (without the `Q)` label); the reason quotes the field that is wrong. */
export function parseQLine(text: string): QLineParse {
  const trimmed = text.trim();
  const raw = trimmed.endsWith("/") ? trimmed.replace(/\/+$/, "") : trimmed;
  // a wrapped line may break anywhere: blanks only pad fields, so they carry no meaning
  const upperCase = raw.toUpperCase();
  const fields = (/\s/.test(upperCase) ? upperCase.replace(/\s+/g, "") : upperCase).split("/");
  if (fields.length < 2 || fields.length > 8) {
    return { ok: false, reason: `Q-line "${raw}" has ${fields.length} fields, expected 2 to 8` };
  }
  const [fir = "", code = "", traffic, purpose, scope, lower, upper, centre] = fields;
  if (!FIR.test(fir)) return { ok: false, reason: `Q-line FIR "${fir}" is not four letters` };
  if (!CODE.test(code)) return { ok: false, reason: `Q-code "${code}" is not Q and four letters` };
  const fault =
    lettersFault("traffic", traffic) ??
    lettersFault("purpose", purpose) ??
    lettersFault("scope", scope) ??
    levelFault("lower", lower) ??
    levelFault("upper", upper);
  if (fault) return { ok: false, reason: fault };
  // built in place with named stores, `raw` last (copying it into a new object was a third of the parse)
  const value = { fir, code } as QLine;
  if (traffic) value.traffic = traffic;
  if (purpose) value.purpose = purpose;
  if (scope) value.scope = scope;
  if (lower) value.lower = Number(lower);
  if (upper) value.upper = Number(upper);
  if (value.lower !== undefined && value.upper !== undefined && value.lower > value.upper) {
    return { ok: false, reason: `Q-line lower limit ${lower} is above the upper limit ${upper}` };
  }
  if (centre !== undefined && centre !== "") {
    const parsed = parseCentre(centre);
    if (typeof parsed === "string") return { ok: false, reason: `Q-line ${parsed}` };
    value.centre = parsed.centre;
    if (parsed.radiusNm !== undefined) value.radiusNm = parsed.radiusNm;
  }
  value.raw = raw;
  return { ok: true, value };
}

/** Traffic, purpose and scope are letters only, one to four; absent or blank is no fault. */
const lettersFault = (name: string, field: string | undefined): string | undefined =>
  field && !LETTERS.test(field) ? `Q-line ${name} "${field}" is not one to four letters` : undefined;

/** Flight levels are three digits; absent or blank is no fault. */
const levelFault = (name: string, field: string | undefined): string | undefined =>
  field && !LEVEL.test(field) ? `Q-line ${name} limit "${field}" is not three digits` : undefined;

/** Rebuilds a Q-line from split fields (the UK PIB records), padding the numbers as the Q-line writes them. */
export function formatQLine(parts: {
  fir: string;
  code: string;
  traffic?: string | undefined;
  purpose?: string | undefined;
  scope?: string | undefined;
  lower?: string | number | undefined;
  upper?: string | number | undefined;
  coordinates?: string | undefined;
  radius?: string | number | undefined;
}): string {
  const pad = (v: string | number | undefined): string => {
    const s = String(v ?? "").trim();
    return /^\d{1,3}$/.test(s) ? s.padStart(3, "0") : s;
  };
  const centre = `${(parts.coordinates ?? "").trim()}${pad(parts.radius)}`;
  const fields = [parts.fir, parts.code, parts.traffic, parts.purpose, parts.scope, pad(parts.lower), pad(parts.upper)];
  return [...fields.map((f) => (f ?? "").trim()), centre].join("/").replace(/\/+$/, "");
}
