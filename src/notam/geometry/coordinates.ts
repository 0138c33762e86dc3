// Coordinates in NOTAM Item E, in every spelling the real data uses (docs/design.md §2):
//   513017N 0002642W   513017N0002642W   5130N 00027W   513017.5N 0002642.3W   513017,5N 0002642,3W
//   51 30 17N 000 26 42W   N513017 W0002642   N324841E350212   51°30'17"N 000°26'42"W   1.510220N0225525E (point 1)
//   410850.23 N 0010922.27 E   4638487N 1420211E (tenths of seconds, glued)   5103265N 01343169E
//   532823N01106⏎06E and 54⏎5000N0100000E (split by a line break)   43.837628N 18.297363E   49.26.18.00N, 007.31.50.90 E
// A number only counts with both hemisphere letters and fields in range, so frequencies, heights,
// dates and NOTAM ids never match.
import type { LatLon } from "../../geo/geodesy.js";

export interface ParsedCoordinate {
  lat: number;
  lon: number;
  /** Offset of the first character and one past the last, in the input text. */
  at: number;
  end: number;
  /** Read past a slip of the pen, checked against the Q-line circle (a letter or a digit too many). */
  repaired?: true;
}

const DEC = String.raw`(?:[.,]\d+)?\.?`; // `.5`, `,5`, and a stray `0061259.W`
const SYM_MIN = `['’′]`;
const SYM_SEC = `(?:"|''|”|″)`;
const symbols = (deg: string) => String.raw`\d{1,${deg}} ?° ?\d{1,2} ?${SYM_MIN} ?(?:\d{1,2}(?:[.,]\d+)? ?${SYM_SEC})?`;
/** Digits that a line break splits, `k` before it and `n - k` after, for each total `n`. */
const split = (...totals: number[]) =>
  totals
    .flatMap((n) => Array.from({ length: n - 1 }, (_, k) => String.raw`\d{${k + 1}}[ \t]*\r?\n[ \t]*\d{${n - k - 1}}`))
    .join("|");
// spaced groups: `51 30 17N 000 26 42W`, also a lone space `512555N 000 5913W`; glued digits with tenths or
// hundredths of seconds (`4638487N`); a line break inside ddmmss (`54⏎5000N`)
// decimal degrees (`43.837628N 18.297363E`) and dotted fields (`49.26.18.00N, 007.31.50.90 E`)
const lat = (dec: string, full: boolean) =>
  String.raw`\d{2} \d{2} ?\d{2}${dec}|\d{6,9}${dec}|\d{4}${dec}|${symbols("2")}` +
  (full ? String.raw`|\d{2}\.\d{2}\.\d{2}(?:\.\d+)?|${split(6)}` : "");
const lon = (dec: string, full: boolean) =>
  String.raw`\d{2,3} \d{2} ?\d{2}${dec}|\d{3} \d{4}${dec}|\d{4,10}${dec}|${symbols("3")}` +
  (full ? String.raw`|\d{2,3}\.\d{2}\.\d{2}(?:\.\d+)?|\d{5}\.\d{2}\.\d+|${split(7, 6)}` : "");
// hemisphere first: a full stop after the digits ends the sentence (`… N513200 W0002900.`)
const FIRST_DEC = String.raw`(?:[.,]\d+)?`;

// Hemisphere after (513017N 0002642W) or before (N513017 W0002642); the first alternative wins at a
// position, so `PSN 513017N …` never reads the N of PSN as a hemisphere (a letter may not precede it).
// Poland's numbered points glue the number to the coordinate (`1.510220N0225525E`): a list number alone before it counts
// as a blank, a decimal never does.
const coordinateRegex = (full: boolean) =>
  new RegExp(
    String.raw`(?:(?<![\d.,])|(?<=(?:^|[\s(])\d{1,2}\.))(${lat(DEC, full)}) ?([NS])[\s,]*(?:-\s*)?(${lon(DEC, full)}) ?([EW])(?![A-Z\d])` +
      String.raw`|(?<![A-Z\d])([NS]) ?(${lat(FIRST_DEC, full)})[\s,]*([EW]) ?(${lon(FIRST_DEC, full)})(?![\d.,]?\d)` +
      (full
        ? // decimal degrees, both of them (a numbered point `1.513017N0002642W` is none)
          String.raw`|(?<![\d.,])(\d{1,2}\.\d{4,8}) ?([NS])[\s,]*(\d{1,3}\.\d{4,8}) ?([EW])(?![A-Z\d])` +
          // a slip: the latitude's letter written E or W (`363959E0264012E`, LTAA A0238/26), read only beside a Q-line
          String.raw`|(?<![\d.,])(\d{6}(?:[.,]\d+)?)([EW])[\s,]*(\d{7}(?:[.,]\d+)?) ?([EW])(?![A-Z\d])`
        : ""),
    "gi",
  );
/**
 * The usual spellings, and all of them: the rarer ones (a line break inside digits, dotted fields, decimal degrees, a
 * hemisphere slip) cost a NOTAM without them a third of its reading, so only a text that may hold one (RARE) is
 * read with them.
 */
const COORDINATE = coordinateRegex(false);
const COORDINATE_ALL = coordinateRegex(true);
const RARE = /\d[ \t]*\r?\n[ \t]*\d{1,6}[NSEW]|\d\.\d\d\.\d|\d\.\d{4,8} ?[NS]|\d[EW][\s,]*\d{7}/;

/**
 * Every coordinate in the text, in order of appearance. Glued digits can be read two ways when the longitude has
 * six to eight (`1420211E`: 142°02'11" or 14°20'21.1"): the reading whose decimals match the latitude's comes first,
 * and stands unless it lies outside `near` (the Q-line circle, widened by 5 NM) and another reading inside.
 * (`0001300E` of LEAN D0123/26 reads 0°13' and not 0°01'30", though the second lies nearer the centre.)
 */
export function parseCoordinates(text: string, q?: Near): ParsedCoordinate[] {
  const out: ParsedCoordinate[] = [];
  const near = q?.centre ? { centre: q.centre, radiusNm: q.radiusNm ?? 0 } : undefined;
  for (const m of text.matchAll(RARE.test(text) ? COORDINATE_ALL : COORDINATE)) {
    // whichever alternative matched: hemisphere after (1–4), before (5–8), decimal degrees (9–12), a slip (13–16)
    const k = m[1] !== undefined ? 1 : m[6] !== undefined ? 5 : m[9] !== undefined ? 9 : 13;
    if (k === 13 && !near) continue;
    const latText = k === 5 ? m[6]! : m[k]!;
    const latHemi = k === 5 ? m[5]! : k === 13 ? (near!.centre.lat < 0 ? "S" : "N") : m[k + 1]!;
    const lonText = k === 5 ? m[8]! : m[k + 2]!;
    const lonHemi = k === 5 ? m[7]! : m[k + 3]!;
    // the usual `ddmmss` and `dddmmss` read at once; everything else through `angle`
    const plain = latText.length === 6 && lonText.length === 7 && allDigits(latText) && allDigits(lonText);
    const lat = plain ? glued(latText, 2) : angle(unsplit(latText), false)[0];
    if (lat === undefined || lat > 90) continue;
    const signedLat = latHemi === "S" || latHemi === "s" ? -lat : lat;
    const sign = lonHemi === "W" || lonHemi === "w" ? -1 : 1;
    const one = plain ? glued(lonText, 3) : undefined;
    const lons = plain ? (one === undefined ? NONE : [one]) : angle(unsplit(lonText), true, decimalsOf(latText));
    let lon = near && lons.length > 1 ? choose(lons, sign, signedLat, near) : lons[0];
    let repaired = k === 13;
    if (lon === undefined && near) {
      lon = oneDigitTooMany(lonText, sign, signedLat, near);
      repaired = lon !== undefined;
    }
    if (lon === undefined || (repaired && !inCircle(lon, sign, signedLat, near!))) continue;
    const at = m.index;
    const c: ParsedCoordinate = { lat: signedLat, lon: sign * lon, at, end: at + m[0].length };
    if (repaired) c.repaired = true;
    out.push(c);
  }
  return out;
}

/**
 * A longitude one digit too long (`00663101.4E`, LFFA P0049/26): the one reading left by dropping a digit that lies in
 * the Q-line circle, when every such reading agrees (within 0.001°); else none.
 */
function oneDigitTooMany(text: string, sign: number, lat: number, near: Circle): number | undefined {
  const [int = "", frac] = text.replace(",", ".").split(".");
  if (!allDigits(int) || int.length !== 8) return undefined;
  const found: number[] = [];
  for (let i = 0; i < int.length; i++) {
    const shorter = int.slice(0, i) + int.slice(i + 1);
    for (const v of angle(frac === undefined ? shorter : `${shorter}.${frac}`, true)) {
      if (v <= 180 && inCircle(v, sign, lat, near)) found.push(v);
    }
  }
  if (found.length === 0 || found.some((v) => Math.abs(v - found[0]!) > 0.001)) return undefined;
  return found[0];
}

const unsplit = (s: string) => (s.includes("\n") ? s.replace(/\s+/g, "") : s);

/** Decimal digits of glued seconds (`4638487` → 1), else 0. */
function decimalsOf(latText: string): number {
  const t = unsplit(latText);
  return allDigits(t) && t.length > 6 ? t.length - 6 : 0;
}

/** The Q-line circle, where a coordinate of the NOTAM should lie: a QLine itself (no copy per NOTAM). */
export interface Near {
  centre?: LatLon | undefined;
  radiusNm?: number | undefined;
}
interface Circle {
  centre: LatLon;
  radiusNm: number;
}

/** Inside the Q-line circle widened by 5 NM. */
function inCircle(lon: number, sign: number, lat: number, near: Circle): boolean {
  const cos = Math.cos((lat * Math.PI) / 180);
  return 60 * Math.hypot(lat - near.centre.lat, (sign * lon - near.centre.lon) * cos) <= near.radiusNm + 5;
}

function choose(lons: readonly number[], sign: number, lat: number, near: Circle): number {
  const inside = (lon: number) => inCircle(lon, sign, lat, near);
  if (inside(lons[0]!)) return lons[0]!;
  return lons.find(inside) ?? lons[0]!;
}

/**
 * Degrees from one spelled angle, every reading in order of preference (none when a field is out of range).
 * Compact digits split by length: latitude 6 = ddmmss, 4 = ddmm, 7–9 = ddmmss and tenths to thousandths; longitude
 * 7 = dddmmss, 5 = dddmm, 6 = ddmmss (a dropped leading zero: `002647E`, `E350212`) or dddmms (a digit short),
 * 4 = ddmm, 8–10 = dddmmss and decimals, 7–8 also ddmmss and decimals. A decimal belongs to the last field.
 */
function angle(text: string, isLon: boolean, latDecimals = 0): number[] {
  if (allDigits(text)) return compactAngles(text, isLon, latDecimals);
  // spaces only group digits: `000 26 42` and `000 2642` read as `0002642`
  const clean = text
    .replace(",", ".")
    .replace(/\.$/, "")
    .replace(/ (?=\d)/g, "");
  let fields: string[];
  const dots = clean.split(".");
  if (dots.length === 3 && dots[0]!.length === 5) {
    // a stray full stop: `00626.37.0431W` (EISN B0182/24) is 0062637.0431
    return angle(`${dots[0]}${dots[1]}.${dots[2]}`, isLon);
  }
  if (dots.length >= 3) {
    // `49.26.18.00`: degrees, minutes, seconds and their decimals
    fields = [dots[0]!, dots[1]!, dots.slice(2).join(".")];
  } else if (dots.length === 2 && dots[0]!.length <= 3 && dots[1]!.length >= 4) {
    const deg = Number(clean);
    return Number.isFinite(deg) ? [deg] : [];
  } else if (/[°'’′"”″]/.test(clean)) {
    fields = clean.split(/[°'’′"”″ ]+/).filter((f) => f !== "");
  } else {
    const [int = "", frac] = clean.split(".");
    const dec = frac === undefined ? "" : `.${frac}`;
    const degDigits = isLon && (int.length === 7 || int.length === 5) ? 3 : 2;
    fields = [int.slice(0, degDigits)];
    for (let i = degDigits; i < int.length; i += 2) fields.push(int.slice(i, i + 2));
    fields[fields.length - 1] += dec;
    if (!(int.length === 4 || int.length === 6 || (isLon && (int.length === 5 || int.length === 7)))) return [];
  }
  const [deg, min = 0, sec = 0] = fields.map(Number);
  if (deg === undefined || fields.length > 3 || ![deg, min, sec].every(Number.isFinite)) return [];
  // seconds written as 60 are carried (docs/design.md §2, seen in OpenAir); anything larger is not an angle
  if (min >= 60 || sec > 60) return [];
  const v = deg + min / 60 + sec / 3600;
  return v <= 180 ? [v] : [];
}

/**
 * `angle` of digits only, the usual spelling, without its string edits (they were a twentieth of the NOTAM
 * benchmark): the same fields, the same sum. Readings of glued decimals follow the plain ones; the one with as many
 * decimals as the latitude's comes first.
 */
function compactAngles(digits: string, isLon: boolean, latDecimals: number): number[] {
  const n = digits.length;
  const out: number[] = [];
  if (!isLon) {
    if (n === 4 || n === 6) read(digits, 2, 0, out);
    else if (n >= 7 && n <= 9) read(digits, 2, n - 6, out);
    return out;
  }
  // glued decimals with a dropped leading zero only beside a latitude with decimals (`4638487N 1420211E`), first
  const dropped = (n === 7 || n === 8) && latDecimals > 0;
  if (dropped && n - 6 === latDecimals) read(digits, 2, n - 6, out);
  if (n === 4 || n === 6) read(digits, 2, 0, out);
  if (n === 5 || n === 7) read(digits, 3, 0, out);
  // a digit short: `543200N010000E` (ETCZ M2732/25) is 010°00'0", taken only when the Q-line centre says so
  if (n === 6) read(digits, 3, 0, out);
  if (n >= 8 && n <= 10) read(digits, 3, n - 7, out);
  if (dropped && n - 6 !== latDecimals) read(digits, 2, n - 6, out);
  return out;
}

const NONE: number[] = [];

/** One reading of glued digits, `degDigits` of degrees and `decimals` of the seconds, or undefined out of range. */
function glued(digits: string, degDigits: number, decimals = 0): number | undefined {
  const deg = Number(digits.slice(0, degDigits));
  const min = Number(digits.slice(degDigits, degDigits + 2));
  const rest = digits.length > degDigits + 2 ? Number(digits.slice(degDigits + 2)) : 0;
  const sec = decimals > 0 ? rest / 10 ** decimals : rest;
  if (min >= 60 || sec > 60) return undefined;
  const v = deg + min / 60 + sec / 3600;
  return v <= 180 ? v : undefined;
}

/** `glued`'s reading added to `out`, when there is one. */
function read(digits: string, degDigits: number, decimals: number, out: number[]): void {
  const v = glued(digits, degDigits, decimals);
  if (v !== undefined) out.push(v);
}

function allDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return text.length > 0;
}
