// Designators that name airspaces, in airspace names and in NOTAM text, normalised so that they meet:
//   `ED-R 116`, `EDR116`, `ED R116` → EDR116      `EGD113A` → EGD113A      `TSA 2` in LK → LKTSA2
// (DESIGN §4). An alias table carries the names that cannot be derived (`TRA LAUTER 1 C` = EDR205C).
import { countryOfIcao } from "../geo/icao-prefixes.js";
import aliases from "./aliases.json" with { type: "json" };

/** Upper case without spaces, `-`, `_`, `/`. */
export function normalizeDesignator(text: string): string {
  return text.toUpperCase().replace(/[\s\-_/]+/g, "");
}

// ICAO-prefixed areas: ED-R 116A, LF-R 20B3W, EGD113A, EBR08, LSR56, LKP1, ED-D 19A
// (not `AIP ENR 5.1`: a chapter, not an area)
const PREFIXED = /(?<!AIP )\b([A-Z]{2})[ -]?([RDP])[ -]?(\d{1,4}[A-Z]?\d?[A-Z]?)\b(?![.]\d)/g;
// national kinds with the ICAO prefix glued on: EBTSA13A, LKTSA2
const PREFIXED_NATIONAL = /\b([A-Z]{2})(TRA|TSA|CBA|MTA)[ -]?(\d{1,4}[A-Z]?)\b/g;
// national forms without the prefix, for the area kinds that NOTAMs and the AUP activate
const NATIONAL = /\b(TRA|TSA|CBA|MTA)[ -]?(\d{1,4}[A-Z]?)\b/g;

const ALIASES = aliases.names as Record<string, string>;

/** Candidate designators in a text, normalised, in order, without repeats. */
export function designatorsIn(text: string, icaoPrefix?: string): string[] {
  return [...new Set(designatorMatches(text, icaoPrefix).map((m) => m.designator))];
}

/** Every designator occurrence with its position (for the words around it). */
export function designatorMatches(text: string, icaoPrefix?: string): Array<{ designator: string; at: number }> {
  // `ED-R10C_2` is the second part of ED-R10C: the underscore must not hide the designator
  const upper = text.toUpperCase().replace(/_/g, " ");
  const out: Array<{ designator: string; at: number }> = [];
  for (const m of upper.matchAll(PREFIXED)) {
    // only real ICAO prefixes: `AND 1`, `SEP 1`, `WED 600` are words, not areas
    if (countryOfIcao(m[1]!) !== undefined) out.push({ designator: `${m[1]}${m[2]}${number(m[3]!)}`, at: m.index });
  }
  for (const m of upper.matchAll(PREFIXED_NATIONAL)) {
    if (countryOfIcao(m[1]!) !== undefined) out.push({ designator: `${m[1]}${m[2]}${number(m[3]!)}`, at: m.index });
  }
  for (const m of upper.matchAll(NATIONAL)) {
    out.push({ designator: `${m[1]}${number(m[2]!)}`, at: m.index });
    if (icaoPrefix) out.push({ designator: `${icaoPrefix}${m[1]}${number(m[2]!)}`, at: m.index });
  }
  for (const [name, designator] of Object.entries(ALIASES)) {
    const at = upper.indexOf(name);
    if (at >= 0) out.push({ designator, at });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A bare `D307`, `R10A` as an airspace's leading name token (2018 GB names): the area with its country's prefix. */
export function bareAreaDesignator(token: string, icaoPrefix: string): string | undefined {
  const m = /^([RDP])(\d{1,4}[A-Z]?\d?[A-Z]?)$/.exec(token.toUpperCase());
  return m ? `${icaoPrefix}${m[1]}${number(m[2]!)}` : undefined;
}

/** `098D` and `98D` are the same area: leading zeros go. */
const number = (n: string) => n.replace(/^0+(?=\d)/, "");

/** A name as the alias table keys it: upper case, single spaces. */
export function normalizeName(name: string): string {
  return name.toUpperCase().replace(/\s+/g, " ").trim();
}
