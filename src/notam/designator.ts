// Designators that name airspaces, in airspace names and in NOTAM text, normalised so that they meet (DESIGN §4):
//   `ED-R 116`, `EDR116`, `ED R116` → EDR116     `LF-R34 A2`, `LF-R 45 N1` → LFR34A2, LFR45N1     `EG D098D` → EGD98D
//   `TSA 2` in LK → TSA2, LKTSA2     `LF-CBA16B`, `EBTSA13A` → LFCBA16B, EBTSA13A     `TRA NA`, `TRA/TSA S1` → TRANA, TSAS1
//   lists: `TRA 4/5/6` → TRA4 TRA5 TRA6     `LF-R 45 A, B, C` → LFR45A LFR45B LFR45C     `EGD701A, 701B` → EGD701A EGD701B
// An alias table carries the names that cannot be derived (`TRA LAUTER 1 C` = EDR205C).
import { countryOfIcao } from "../geo/icao-prefixes.js";
import aliases from "./aliases.json" with { type: "json" };

/** Upper case without spaces, `-`, `_`, `/`. */
export function normalizeDesignator(text: string): string {
  return text.toUpperCase().replace(/[\s\-_/]+/g, "");
}

export interface DesignatorMatch {
  designator: string;
  /** Where the designator (or the list it belongs to) starts and ends in the text. */
  at: number;
  end: number;
}

/** A sector written apart from its number (`LF-R34 A2`, `LF-R 45 N1`, `LF R175 A`): one letter, maybe digits. */
const SPACED_SECTOR = String.raw`(?:[ -]([A-Z]\d{0,2})(?=[\s,./;:)]|$))?`;
// ICAO-prefixed areas: ED-R 116A, LF-R 20B3W, EGD113A, EBR08, LSR56, LKP1, ED-D 19A (not `AIP ENR 5.1`: a chapter)
const PREFIXED = new RegExp(
  String.raw`(?<!AIP )\b([A-Z]{2})[ -]?([RDP])[ -]?(\d{1,4}[A-Z]?\d?[A-Z]?)\b(?![.]\d)${SPACED_SECTOR}`,
  "g",
);
/** Two-letter words that follow a kind in prose (`TRA IS ACTIVE`), not sector letters (`TRA NA`, `TRA WC`). */
const WORDS = "(?:IS|IN|OF|TO|BY|AT|ON|OR|AN|AS|BE|UP|NO|IF|IT|WI|FM|DE|LE|LA|DU|ET|EN|AU|OU)";
/** National kinds of reserved and training areas that NOTAMs and the AUP activate. */
const KINDS = "TRA|TSA|CBA|MTA|LFA|HTA";
// with the ICAO prefix glued or hyphenated (`EBTSA13A`, `LF-CBA16B`), or without (`TSA 2`, `TRA NA`, `TRA/TSA S1`)
const NATIONAL = new RegExp(
  String.raw`\b(?:([A-Z]{2})-?)?(${KINDS})(?:[ -]?(\d{1,4}[A-Z]?\d?)\b|[ -](?!${WORDS}\b)([A-Z]\d{1,2}|[A-Z]{1,2})(?![A-Z0-9'-]))`,
  "g",
);
/** What may follow a designator to name more of the same family: `/5/6`, `, B, C`, ` AND 701B`. */
const LIST = /^(?:\s*(?:,|\/|&|\+|\bAND\b)\s*(\d{1,4}[A-Z]?\d?|[A-Z]\d{0,2})(?=[\s,./;:)]|$))+/;
const LIST_ITEM = /(?:,|\/|&|\+|\bAND\b)\s*(\d{1,4}[A-Z]?\d?|[A-Z]\d{0,2})/g;

const ALIASES = aliases.names as Record<string, string>;

/** Candidate designators in a text, normalised, in order, without repeats. */
export function designatorsIn(text: string, icaoPrefix?: string): string[] {
  return [...new Set(designatorMatches(text, icaoPrefix).map((m) => m.designator))];
}

/** Every designator occurrence with its position (for the words around it), lists expanded. */
export function designatorMatches(text: string, icaoPrefix?: string): DesignatorMatch[] {
  // `ED-R10C_2` is the second part of ED-R10C: the underscore must not hide the designator
  const upper = text.toUpperCase().replace(/_/g, " ");
  const out: DesignatorMatch[] = [];
  const push = (stem: string, body: string, at: number, end: number) => {
    out.push({ designator: `${stem}${number(body)}`, at, end });
    // a list after it names more areas of the same family
    const list = LIST.exec(upper.slice(end));
    if (!list) return;
    const [, num = "", letters = ""] = /^(\d+)([A-Z]*\d*[A-Z]?)$/.exec(number(body)) ?? [];
    for (const m of list[0].matchAll(LIST_ITEM)) {
      const item = m[1]!;
      // a number replaces the whole (`TRA 4/5`), a sector letter replaces the sector (`45 A, B`)
      const next = /^\d/.test(item) ? number(item) : letters || /^[A-Z]\d*$/.test(item) ? `${num}${item}` : "";
      if (next) out.push({ designator: `${stem}${next}`, at, end: end + list[0].length });
    }
  };
  for (const m of upper.matchAll(PREFIXED)) {
    // only real ICAO prefixes: `AND 1`, `SEP 1`, `WED 600` are words, not areas
    if (countryOfIcao(m[1]!) === undefined) continue;
    push(`${m[1]}${m[2]}`, `${m[3]}${m[4] ?? ""}`, m.index, m.index + m[0].length);
  }
  for (const m of upper.matchAll(NATIONAL)) {
    const prefix = m[1] && countryOfIcao(m[1]) !== undefined ? m[1] : undefined;
    if (m[1] && !prefix) continue;
    const body = m[3] ?? m[4]!;
    const end = m.index + m[0].length;
    if (prefix) push(`${prefix}${m[2]}`, body, m.index, end);
    else {
      push(m[2]!, body, m.index, end);
      if (icaoPrefix) push(`${icaoPrefix}${m[2]}`, body, m.index, end);
    }
  }
  for (const [name, designator] of Object.entries(ALIASES)) {
    const at = upper.indexOf(name);
    if (at >= 0) out.push({ designator, at, end: at + name.length });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A bare `D307`, `R10A` as an airspace's leading name token (GB names): the area with its country's prefix. */
export function bareAreaDesignator(token: string, icaoPrefix: string): string | undefined {
  const m = /^([RDP])(\d{1,4}[A-Z]?\d?[A-Z]?)$/.exec(token.toUpperCase());
  return m ? `${icaoPrefix}${m[1]}${number(m[2]!)}` : undefined;
}

/** The area a sectored designator belongs to: `LFR34A2` → LFR34, `EGD323F` → EGD323; none for `EGD323`. */
export function familyOf(designator: string): string | undefined {
  const m = /^(.*?\d+)[A-Z][A-Z0-9]*$/.exec(designator);
  return m?.[1];
}

/** `098D` and `98D` are the same area: leading zeros go. */
const number = (n: string) => n.replace(/^0+(?=\d)/, "");

/** A name as the alias table keys it: upper case, single spaces. */
export function normalizeName(name: string): string {
  return name.toUpperCase().replace(/\s+/g, " ").trim();
}
