// The top of an obstacle as its NOTAM's Item E states it (docs/contract.md §2.4), for a feature whose F and G say
// nothing: the highest figure above mean sea level, else the highest above ground. Spellings of the SOFIA briefs:
//   MAX HGT 230FT AGL, 330FT AMSL        ELEV: 893M/2930FT AMSL MAX HGT: 37M/122FT AGL        HGT 591FT AGL ELEV 1083FT AMSL
//   HAUTEUR : 296FT - ALTITUDE AU SOMMET : 414FT        ELEV 2006FT/722FT AGL        150.4M / 493.5FT AGL, 2935.7M / 9631.6FT AMSL
//   HEIGHT 213FT GND / 422FT AMSL        MAX HGT 191M/ELEV 794M        OBSTACLE HEIGHT 40M AGL, … ELEVATION ON TOP 533M AMSL
// A figure counts with its datum (AMSL, MSL; AGL, GND, SFC), or after a word that names one (ELEV, ALTITUDE, ALT AU SOMMET:
// above sea level; HGT, HEIGHT, HAUTEUR: above ground), or before `/ figure datum`; distances, radii and lengths never.
// A figure with no datum at all (`OPERATING UP TO 656 FT`) is taken above ground: the safe side for a band filter.
import type { VerticalLimit } from "../model/contract.js";
import { LimitUnit, ReferenceDatum } from "../model/vocab.js";

type Datum = "AMSL" | "AGL";
interface Figure {
  value: number;
  unit: "FT" | "M";
  datum: Datum | undefined;
  at: number;
  end: number;
}

const FIGURE =
  /(?<![\d.,])(\d{1,5}(?:[.,]\d{1,3})?)\s?(FT|FEET|F|M|METRES?|METERS?)(?![A-Z])\s*(AMSL|MSL|AGL|AAL|GND|SFC|ASFC)?\b/g;
// `ELEV AMSL CHG: 1384FT`, `ALTITUDE SOMMITALE MAXIMALE : 3412FT`
const SEA_WORD =
  /\b(?:ELEV(?:ATION)?(?:\s+(?:ON\s+)?TOP)?|TOP\s+ELEV|ALT(?:ITUDE)?(?:\s+(?:AU|ON)\s+(?:SOMMET|TOP)|\s+SOMMITALE(?:\s+MAXIMALE)?)?|TOP)\s*(?:AMSL|MSL)?\s*(?:CHG)?\s*[:=]?\s*$/;
const GROUND_WORD = /\b(?:MAX\s+)?(?:HGT|HEIGHT|HAUTEUR(?:\s+SOL)?)\s*(?:AGL)?\s*(?:CHG)?\s*[:=]?\s*$/;
// `ITEM 1 VERTICAL OBSTACLES (HIGHER THAN 80FT AGL)` is a class of obstacles, not this one
const NOT_HEIGHT =
  /\b(?:RADIUS|RADIUS OF|WI|WITHIN|DIST(?:ANCE)?|LENGTH|LENGHT|WIDTH|JIB|RANGE|DIAMETER|RAYON|HIGHER THAN|LOWER THAN)\s*[:=]?\s*$/;

/** The obstacle's top from Item E, or undefined when it states none. */
export function obstacleTop(itemE: string): VerticalLimit | undefined {
  const text = itemE.toUpperCase().replace(/\s+/g, " ");
  const figures: Figure[] = [];
  for (const m of text.matchAll(FIGURE)) {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    if (NOT_HEIGHT.test(before)) continue;
    const datum = m[3]
      ? /MSL/.test(m[3])
        ? "AMSL"
        : "AGL"
      : SEA_WORD.test(before)
        ? "AMSL"
        : GROUND_WORD.test(before)
          ? "AGL"
          : undefined;
    const value = Number(m[1]!.replace(",", "."));
    if (!(value > 0)) continue;
    figures.push({ value, unit: m[2]!.startsWith("F") ? "FT" : "M", datum, at: m.index, end: m.index + m[0].length });
  }
  // `150.4M / 493.5FT AGL`: a figure before a slash takes the datum of the figure after it
  for (let i = figures.length - 2; i >= 0; i--) {
    const f = figures[i]!;
    const next = figures[i + 1]!;
    if (f.datum === undefined && /^\s*\/\s*$/.test(text.slice(f.end, next.at))) f.datum = next.datum;
  }
  const stated = figures.filter((f) => f.datum !== undefined || /\bUP TO\s*$/.test(text.slice(0, f.at)));
  const pick = (d: Datum) => highest(stated.filter((f) => (f.datum ?? "AGL") === d));
  const top = pick("AMSL") ?? pick("AGL");
  if (!top) return undefined;
  return {
    value: top.value,
    unit: top.unit === "FT" ? LimitUnit.FEET : LimitUnit.METER,
    referenceDatum: (top.datum ?? "AGL") === "AMSL" ? ReferenceDatum.MSL : ReferenceDatum.GND,
  };
}

function highest(fs: readonly Figure[]): Figure | undefined {
  const metres = (f: Figure) => (f.unit === "FT" ? f.value * 0.3048 : f.value);
  return fs.reduce<Figure | undefined>((best, f) => (!best || metres(f) > metres(best) ? f : best), undefined);
}
