// Distances in Item E and the phrases that make one a radius or a corridor width:
//   WI 2NM RADIUS OF …   RADIUS 2NM CENTRED ON …   WI 500M OF PSN …   WI 20NM: …   … (PLACE) RADIUS 0.1NM
//   WI 2NM EITHER SIDE OF TRACK …
import { METERS_PER_NM } from "../../geo/geodesy.js";

export interface Distance {
  metres: number;
  at: number;
  end: number;
}

const UNITS: Record<string, number> = { NM: METERS_PER_NM, KM: 1000, M: 1, FT: 0.3048 };
// `MN` and a bare `N` before OF/RADIUS are NM typos (`0.05MN RADIUS`, `WI 0.25N OF PSN`); a number
// straight before RADIUS with no unit is NM too (`WI 0.5 RADIUS OF PSN`, `0.27 RADIUS CENTRED ON`).
const UNIT = String.raw`NM|MN|N(?=\s+(?:OF|RADIUS)\b)|NAUTICAL MILES?|KM|KILOMETRES?|KILOMETERS?|M|MTRS?|METRES?|METERS?|FT|FEET|(?=\s+RADIUS\b)`;
const DIST_RE = new RegExp(String.raw`(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?) ?(${UNIT})(?![A-Z])`, "gi");

/** Every distance with a unit, in order. `1,150FT` is a thousands separator, `0,5NM` a decimal comma. */
export function distances(text: string): Distance[] {
  const out: Distance[] = [];
  for (const m of text.matchAll(DIST_RE)) {
    const raw = m[1]!;
    const value = /^\d{1,3}(,\d{3})+$/.test(raw) ? Number(raw.replace(/,/g, "")) : Number(raw.replace(",", "."));
    const unit = m[2]!.toUpperCase();
    const factor =
      unit === "" || unit.startsWith("N") || unit === "MN"
        ? UNITS.NM!
        : unit.startsWith("K")
          ? UNITS.KM!
          : unit.startsWith("F")
            ? UNITS.FT!
            : UNITS.M!;
    if (value > 0 && (unit !== "" || value <= 50))
      out.push({ metres: value * factor, at: m.index, end: m.index + m[0].length });
  }
  return out;
}

const WIDTH_AFTER =
  /^\s*(?:(?:ON\s+)?(?:EITHER|EACH|BOTH)\s+SIDES?|OF\s+(?:THE\s+)?(?:ROUTE|TRACK|CENTRE\s*LINE|CENTERLINE))\b/i;
const NOT_RADIUS_AFTER =
  /^\s*(?:AGL|AMSL|MSL|HGT|HEIGHT|ALT|DOWNWIND|UPWIND|[NSEW]{1,3}\s+OF|NORTH|SOUTH|EAST|WEST)\b/i;
// `1NM AROUND WIESKIRCHE PSN: p`, French `1NM DE RAYON AUTOUR DE p`, `RAYON 500M`, Slovene `RADIJ: 50M`, Polish
// `W KOLE O PROMIENIU 1NM`, Italian `RAGGIO 2KM`, `MAX DISTANCE 6000M FROM ARP p` (ETCZ)
export const RADIUS_WORD = "RADIUS|RAD|RAYON|RADIJ|PROMIENIU|PROMIEN|RAGGIO";
const RADIUS_AFTER = new RegExp(String.raw`^\s*(?:${RADIUS_WORD}|AROUND|DE\s+RAYON)\b`, "i");
const RADIUS_BEFORE = new RegExp(
  String.raw`(?:\b(?:${RADIUS_WORD})|MAX(?:IMUM)?\s+DIST(?:ANCE)?)\s*(?:OF\s*|DE\s*)?:?\s*$`,
  "i",
);
const DATUM_AFTER = /^\s*(?:AGL|AMSL|MSL)\b/i;
const WITHIN_BEFORE = /(?:\bWI|\bWITHIN|\bW\.I\.?)\s+(?:A\s+)?$/i;
const OF_AFTER = /^\s*(?:OF|AROUND|FROM|FM|CENTRED|CENTERED|:)/i;

/** Distances worded as a radius: `RADIUS 2NM`, `2NM RADIUS`, `WI 2NM (OF)`; FT only with RADIUS or OF. */
export function radii(text: string): Distance[] {
  return distances(text).filter((d) => {
    const before = text.slice(Math.max(0, d.at - 16), d.at);
    const after = text.slice(d.end, d.end + 24);
    if (WIDTH_AFTER.test(after) || WIDE_AFTER.test(after)) return false;
    // `RADIUS: 41M⏎HEIGHT: 31.7M AGL` (LJLA): the word before settles it
    if (RADIUS_BEFORE.test(before) && !DATUM_AFTER.test(after)) return true;
    if (NOT_RADIUS_AFTER.test(after)) return false;
    if (RADIUS_AFTER.test(after)) return true;
    if (!WITHIN_BEFORE.test(before)) return false;
    return !text.slice(d.at, d.end).toUpperCase().endsWith("FT") || OF_AFTER.test(after);
  });
}

/** A whole width: `750M WIDE`, `WIDTH 10KM`, `WIDTH: 2 NM`. */
const WIDE_AFTER = /^\s*(?:WIDE|IN\s+WIDTH)\b/i;
const WIDTH_BEFORE = /\bWIDTH(?:\s+OF)?\s*:?\s*$/i;

/** Corridor half-widths: `WI 2NM EITHER SIDE OF TRACK`, `WI 5NM OF ROUTE`; half of `750M WIDE`, `WIDTH 10KM`. */
export function widths(text: string): Distance[] {
  const out: Distance[] = [];
  const wide = text.includes("WID") || text.includes("wid");
  for (const d of distances(text)) {
    const after = text.slice(d.end, d.end + 24);
    if (WIDTH_AFTER.test(after)) out.push(d);
    else if (wide && (WIDE_AFTER.test(after) || WIDTH_BEFORE.test(text.slice(Math.max(0, d.at - 16), d.at)))) {
      out.push({ ...d, metres: d.metres / 2 });
    }
  }
  return out;
}
