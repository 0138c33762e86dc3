// NOTAM vertical limits: Items F and G, and the Q-line's flight levels, to a VerticalLimit (docs/contract.md §2.4).
// Spellings in the corpus (35 000 values of F/G): `SFC` `GND` `UNL` `1500FT AMSL` `FL660` `FL050` `500FT AGL`
// `6000 FT AMSL` `0FT AGL`; rarer: `12 200 m (40 000 ft) MSL.` (thousands grouped by a blank, a conversion aside).
import type { VerticalLimit } from "../model/contract.js";
import type { QLine } from "../model/notam.js";
import { LimitUnit, ReferenceDatum } from "../model/vocab.js";

const GROUND: VerticalLimit = { value: 0, unit: LimitUnit.FEET, referenceDatum: ReferenceDatum.GND };
const UNLIMITED: VerticalLimit = { value: 999, unit: LimitUnit.FLIGHT_LEVEL, referenceDatum: ReferenceDatum.STD };
const flightLevel = (value: number): VerticalLimit => ({
  value,
  unit: LimitUnit.FLIGHT_LEVEL,
  referenceDatum: ReferenceDatum.STD,
});

/** `12 200` → 12200: groups of three digits after a blank are thousands; `1050 FT` stays one number. */
const NUMBER = /^(\d{1,3}(?: \d{3})+|\d+(?:[.,]\d+)?)/;
const UNIT = /^(FT|F|FEET|M|METRES|METERS)\b/;
const DATUM = /^(AMSL|MSL|ALT|AGL|AAL|GND|SFC|ASFC|HGT)\b/;

/**
 * One NOTAM limit text to a VerticalLimit, or undefined when it is not a limit (`G`, `STD` alone, empty).
 * A number without unit is feet; without reference it is above mean sea level.
 */
export function parseNotamLimit(text: string): VerticalLimit | undefined {
  const t = text
    .toUpperCase()
    .replace(/\([^)]*\)/g, " ") // `12 200 m (40 000 ft) MSL`: the aside repeats the value in other units
    .replace(/[.\s]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (t === "") return undefined;
  if (/^(SFC|GND|GROUND|SURFACE)$/.test(t)) return { ...GROUND };
  if (/^(UNL|UNLTD|UNLIM|UNLIMITED)$/.test(t)) return { ...UNLIMITED };
  const fl = /^FL ?(\d{1,3})$/.exec(t);
  if (fl?.[1] !== undefined) return flightLevel(Number(fl[1]));
  const number = NUMBER.exec(t);
  if (number?.[1] === undefined) return undefined;
  const value = Number(number[1].replace(/ /g, "").replace(",", "."));
  let rest = t.slice(number[1].length).trim();
  const unit = UNIT.exec(rest);
  if (unit?.[1] !== undefined) rest = rest.slice(unit[1].length).trim();
  const datum = DATUM.exec(rest);
  if (datum?.[1] !== undefined) rest = rest.slice(datum[1].length).trim();
  if (rest !== "" || !Number.isFinite(value)) return undefined;
  const isGround = datum?.[1] !== undefined && /^(AGL|AAL|GND|SFC|ASFC|HGT)$/.test(datum[1]);
  return {
    value,
    unit: unit?.[1]?.startsWith("M") ? LimitUnit.METER : LimitUnit.FEET,
    referenceDatum: isGround ? ReferenceDatum.GND : ReferenceDatum.MSL,
  };
}

/** The Q-line's limits: `000` is the ground, `999` unlimited, anything else a flight level. */
export function qLimits(q: QLine): { lower: VerticalLimit | undefined; upper: VerticalLimit | undefined } {
  const level = (fl: number | undefined): VerticalLimit | undefined =>
    fl === undefined ? undefined : fl === 0 ? { ...GROUND } : fl >= 999 ? { ...UNLIMITED } : flightLevel(fl);
  return { lower: level(q.lower), upper: level(q.upper) };
}
