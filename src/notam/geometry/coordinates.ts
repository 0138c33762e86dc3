// Coordinates in NOTAM Item E, in every spelling the real data uses (docs/design.md §2):
//   513017N 0002642W   513017N0002642W   5130N 00027W   513017.5N 0002642.3W   513017,5N 0002642,3W
//   51 30 17N 000 26 42W   N513017 W0002642   N324841E350212   51°30'17"N 000°26'42"W   1.510220N0225525E (point 1)
// A number only counts with both hemisphere letters and fields in range, so frequencies, heights,
// dates and NOTAM ids never match.

export interface ParsedCoordinate {
  lat: number;
  lon: number;
  /** Offset of the first character and one past the last, in the input text. */
  at: number;
  end: number;
}

const DEC = String.raw`(?:[.,]\d+)?\.?`; // `.5`, `,5`, and a stray `0061259.W`
const SYM_MIN = `['’′]`;
const SYM_SEC = `(?:"|''|”|″)`;
const symbols = (deg: string) => String.raw`\d{1,${deg}} ?° ?\d{1,2} ?${SYM_MIN} ?(?:\d{1,2}(?:[.,]\d+)? ?${SYM_SEC})?`;
// spaced groups: `51 30 17N 000 26 42W`, also a lone space `512555N 000 5913W`
const lat = (dec: string) => String.raw`\d{2} \d{2} ?\d{2}${dec}|\d{4}(?:\d{2})?${dec}|${symbols("2")}`;
const lon = (dec: string) => String.raw`\d{2,3} \d{2} ?\d{2}${dec}|\d{3} \d{4}${dec}|\d{4,7}${dec}|${symbols("3")}`;
const [LAT, LON] = [lat(DEC), lon(DEC)];
// hemisphere first: a full stop after the digits ends the sentence (`… N513200 W0002900.`)
const [LAT_FIRST, LON_FIRST] = [lat(String.raw`(?:[.,]\d+)?`), lon(String.raw`(?:[.,]\d+)?`)];

// Hemisphere after (513017N 0002642W) or before (N513017 W0002642); the first alternative wins at a
// position, so `PSN 513017N …` never reads the N of PSN as a hemisphere (a letter may not precede it).
// Poland's numbered points glue the number to the coordinate (`1.510220N0225525E`): a list number alone before it counts
// as a blank, a decimal never does.
const COORDINATE = new RegExp(
  String.raw`(?:(?<![\d.,])|(?<=(?:^|[\s(])\d{1,2}\.))(${LAT}) ?([NS])[\s,]*(?:-\s*)?(${LON}) ?([EW])(?![A-Z\d])` +
    String.raw`|(?<![A-Z\d])([NS]) ?(${LAT_FIRST})[\s,]*([EW]) ?(${LON_FIRST})(?![\d.,]?\d)`,
  "gi",
);

/** Every coordinate in the text, in order of appearance. */
export function parseCoordinates(text: string): ParsedCoordinate[] {
  const out: ParsedCoordinate[] = [];
  for (const m of text.matchAll(COORDINATE)) {
    const after = m[1] !== undefined;
    const latText = after ? m[1]! : m[6]!;
    const latHemi = after ? m[2]! : m[5]!;
    const lonText = after ? m[3]! : m[8]!;
    const lonHemi = after ? m[4]! : m[7]!;
    const lat = angle(latText, false);
    const lon = angle(lonText, true);
    if (lat === undefined || lon === undefined || lat > 90 || lon > 180) continue;
    const at = m.index;
    out.push({
      lat: /s/i.test(latHemi) ? -lat : lat,
      lon: /w/i.test(lonHemi) ? -lon : lon,
      at,
      end: at + m[0].length,
    });
  }
  return out;
}

/**
 * Degrees from one spelled angle, or undefined when a field is out of range. Compact digits split by
 * length: latitude 6 = ddmmss, 4 = ddmm; longitude 7 = dddmmss, 5 = dddmm, 6 = ddmmss (a dropped
 * leading zero: `002647E`, `E350212`), 4 = ddmm. A decimal belongs to the last field.
 */
function angle(text: string, isLon: boolean): number | undefined {
  if (allDigits(text)) return compactAngle(text, isLon);
  // spaces only group digits: `000 26 42` and `000 2642` read as `0002642`
  const clean = text
    .replace(",", ".")
    .replace(/\.$/, "")
    .replace(/ (?=\d)/g, "");
  let fields: string[];
  if (/[°'’′"”″]/.test(clean)) {
    fields = clean.split(/[°'’′"”″ ]+/).filter((f) => f !== "");
  } else {
    const [int = "", frac] = clean.split(".");
    const dec = frac === undefined ? "" : `.${frac}`;
    const degDigits = isLon && (int.length === 7 || int.length === 5) ? 3 : 2;
    fields = [int.slice(0, degDigits)];
    for (let i = degDigits; i < int.length; i += 2) fields.push(int.slice(i, i + 2));
    fields[fields.length - 1] += dec;
    if (!(int.length === 4 || int.length === 6 || (isLon && (int.length === 5 || int.length === 7)))) return undefined;
  }
  const [deg, min = 0, sec = 0] = fields.map(Number);
  if (deg === undefined || fields.length > 3 || ![deg, min, sec].every(Number.isFinite)) return undefined;
  // seconds written as 60 are carried (docs/design.md §2, seen in OpenAir); anything larger is not an angle
  if (min >= 60 || sec > 60) return undefined;
  return deg + min / 60 + sec / 3600;
}

/**
 * `angle` of digits only, the usual spelling, without its string edits (they were a twentieth of the NOTAM
 * benchmark): the same fields, the same sum.
 */
function compactAngle(digits: string, isLon: boolean): number | undefined {
  const n = digits.length;
  if (!(n === 4 || n === 6 || (isLon && (n === 5 || n === 7)))) return undefined;
  const degDigits = isLon && (n === 7 || n === 5) ? 3 : 2;
  const deg = Number(digits.slice(0, degDigits));
  const min = Number(digits.slice(degDigits, degDigits + 2));
  const sec = n - degDigits === 4 ? Number(digits.slice(degDigits + 2)) : 0;
  if (min >= 60 || sec > 60) return undefined;
  return deg + min / 60 + sec / 3600;
}

function allDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return text.length > 0;
}
