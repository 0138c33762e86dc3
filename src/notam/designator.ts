// The designator grammar: how Europe writes the areas NOTAMs, AUP rows and airspace names name (docs/design.md §4), in one
// place with its alias table (aliases.json). Every spelling of one volume normalises to one string:
//   `ED-R 132B`, `EDR132B`, `ED R132B` → EDR132B      `LO R 7`, `LOR7 (LIZUM)` → LOR7      `LOD 25A` → LOD25A
//   `LF-R 34 A2`, `LF R175 A` → LFR34A2, LFR175A       `EG D098D` → EGD98D          `LFCBA-16B` → LFCBA16B
//   `EP TSA 5A`, `EPTSA5A` → EPTSA5A   `EPTR767A` → EPTR767A   `LI R 64/A` → LIR64A   `LF-R205/2` → LFR205.2
//   national forms take the ICAO prefix of their country: `TSA 2` in LK → TSA2 and LKTSA2; airspace names written
//   without it (Poland's `R 129`, `TR 501`, `TS 05F`) → EPR129, EPTR501, EPTS5F
// Lists name each member: `LF-R 368 A B C1 C2 E1 E2`, `LF-R201 B1 B2`, `LF-D596 A/B/C`, `LF-R 336 A ET B`,
// `LF-R 45 A TO D`, `LFR31 (A1, A2, H)`, `TRA 4/5/6`, `EGD701A, 701B AND 701C`, `LF-R65-R66 ET D67`.
// A prefix written apart from its kind (`LO R 7`, `LF D596`) counts only in the NOTAM's own country: French `ET D67`
// is "and D67", not a German area; `ENR 5` is the AIP chapter.
import { countryOfIcao } from "../geo/icao-prefixes.js";
import aliases from "./aliases.json" with { type: "json" };
import { isOwnKind } from "./states.js";

/** Upper case without spaces, `-`, `_`, `/`. */
export function normalizeDesignator(text: string): string {
  return text.toUpperCase().replace(/[\s\-_/]+/g, "");
}

export interface DesignatorMatch {
  /** Normalised: `LFR201B1`. */
  designator: string;
  /** Where the expression naming it (the whole list) starts and ends in the text. */
  at: number;
  end: number;
}

export interface GrammarContext {
  /** ICAO prefix of the NOTAM's (or airspace's) country: national forms take it, a spaced prefix must be it. */
  prefix?: string | undefined;
  /** Reading an airspace's name, not a NOTAM: bare national kinds (`R 129`, `TR 501`) count. */
  name?: boolean;
}

/**
 * Kinds a designator names after an ICAO prefix. Some count only glued to the prefix and to the number (`GLUED`), as
 * real text writes them: `TR`/`TS` (`EPTR767A`, `EGTR185`, `LDTS23`), the no-planning zones `NPZ` (`EPNPZ2`) and the
 * kinds of one state's making (states.ts), read only after that state's prefix: Croatia's `ATR` (`LDATR103`), the UK's
 * UAS restricted areas `RU` (`EGRU185`), the `T` areas of Norway, Switzerland, France and Ukraine (`ENT139Z`; AUP
 * `LST201`, `LFT10A`, `UKT723H`), this one with 2 to 4 digits.
 */
const KINDS = "TRA|TSA|CBA|MTA|LFA|HTA|NPZ|ATR|TR|TS|RU|R|D|P|T";
const GLUED = new Set(["TR", "TS", "NPZ", "ATR", "RU", "T"]);
const STATE_KINDS = new Set(["ATR", "RU", "T"]);
/** Kinds written without a prefix in NOTAM text: the national reserved and training areas the AUP activates. */
const NATIONAL = "TRA|TSA|CBA|MTA|LFA|HTA";
/** Two-letter words that follow a kind in prose (`TRA IS ACTIVE`), not sector letters (`TRA NA`, `TRA WC`). */
const WORDS = new Set("IS IN OF TO BY AT ON OR AN AS BE UP NO IF IT WI FM DE LE LA DU ET EN AU OU".split(" "));

// `LF-R 368`, `EDR132B`, `LO R 7`, `EPTR767A`, `LFCBA-16B`, `LF-R-574`, `LI R 64/A`, `LF-R205/2`, `LF-R217/1.1`
const PREFIXED = new RegExp(
  String.raw`(?<![A-Z0-9])([A-Z]{2})(-|\s)?(${KINDS})(\s?-\s?|\s)?(\d{1,5})(?:\/(\d{1,2}(?:\.\d)?)(?!\d))?([A-Z]{1,3}\d{0,2}[A-Z]?(?:\.\d{1,2})?)?(?![A-Z0-9])(?!\.\d)`,
  "g",
);
/** The slash before a sector letter (`LI R308/A`, the Italian file's `R49/A`): a sector, as after a blank. */
export const SLASH_SECTOR = /(?<=\d)\/(?=[A-Z](?![A-Z0-9]))/g;
/** `EKTRAAA1`, `EKTRAJY3`: a prefix, TRA and a two-letter name with its number, glued. */
const LETTERED_TRA = /(?<![A-Z0-9])([A-Z]{2})TRA[A-Z]{2}\d{1,2}(?![A-Z0-9])/g;
// `TSA 2`, `TRA NA`, `TRA/TSA S1`, `CBA 16B`, `'TRA90NL'`
const BARE = new RegExp(
  String.raw`(?<![A-Z0-9])(${NATIONAL})(?:[ -]?(\d{1,4}[A-Z]{0,2}\d?)(?![A-Z0-9])|[ -]([A-Z]\d{1,2}|[A-Z]{1,2})(?![A-Z0-9'-]))`,
  "g",
);
// airspace names only: Poland's `R 129`, `TR 501Z`, `TS 05F`, `D 15`, `P 28 …`, GB's `D307 DONNA NOOK`
const BARE_NAME = /^(TR|TS|R|D|P)\s?(\d{1,4})([A-Z]{0,2}\d?)(?![A-Z0-9])/;

/** `ZONE R45A`, `ZONES R45 A B`, `AREA D15`: a zone word, then an area kind and number without prefix. */
const ZONE_AREA =
  /\b(?:ZONES?|AREAS?|R-AREA|D-AREA|P-AREA|STREFA|STREFY)\s+(([RDP])(\d{1,4})([A-Z]{1,3}\d{0,2}(?:\.\d{1,2})?)?)(?![A-Z0-9])(?!\.\d)/g;
/** One sector token after a number: `A`, `B1`, `C2`, `N1`. */
const SECTOR = /^[A-Z]\d{0,2}$/;
/** What joins the members of a list: `,`, `/`, `&`, `+`, `AND`, `ET`, `UND`, or a blank alone (sectors only). */
const JOIN = /^(?:\s*[,/&+]\s*|\s+(?:AND|ET|UND)\s+|\s*-\s*(?=[RDP]\d))/;

const ALIASES = aliases.names as Record<string, string>;

/** Candidate designators in a text, normalised, in order, without repeats. */
export function designatorsIn(text: string, prefix?: string): string[] {
  return [...new Set(designatorMatches(text, { prefix }).map((m) => m.designator))];
}

/** Every designator occurrence with the place of its expression (for the words around it), lists expanded. */
export function designatorMatches(text: string, ctx: GrammarContext = {}): DesignatorMatch[] {
  // `ED-R10C_2` is the second part of ED-R10C: the underscore must not hide the designator
  // `LI R308/A`, Italy's file's `R21/B`: a sector after a slash, as after a blank (the same length: offsets hold)
  const upper = text.toUpperCase().replace(/_/g, " ").replace(SLASH_SECTOR, " ");
  const out: DesignatorMatch[] = [];
  const taken: Array<[number, number]> = [];
  const free = (at: number) => !taken.some(([s, e]) => at >= s && at < e);
  for (const m of upper.matchAll(PREFIXED)) {
    const at = m.index;
    if (!free(at)) continue;
    const [, pp = "", sep, kind = "", apart, num = "", sub, glued] = m;
    if (!prefixOk(upper, at, pp, sep, kind, num, ctx)) continue;
    if ((GLUED.has(kind) || num.length === 5) && (sep !== undefined || apart !== undefined)) continue;
    if (STATE_KINDS.has(kind) && !isOwnKind(pp, kind)) continue;
    if (kind === "T" && (num.length < 2 || num.length > 4)) continue;
    const stem = `${pp}${kind}`;
    const head = `${number(num)}${sub ? `.${sub}` : ""}`;
    const { members, end } = sectorsOf(upper, head, glued, at + m[0].length, !sub);
    const more = memberList(upper, end, kind);
    for (const item of more.items) members.push(item.kind === kind ? item.body : `${pp}${item.kind}${item.body}`);
    const stop = more.end;
    taken.push([at, stop]);
    for (const body of members)
      out.push({ designator: /^[A-Z]{2}[A-Z]/.test(body) ? body : `${stem}${body}`, at, end: stop });
  }
  // Denmark's training areas, letters before the number and glued (`EKTRAHA1`, the EKDK file's NOTAM keys)
  for (const m of upper.matchAll(LETTERED_TRA)) {
    if (!free(m.index) || countryOfIcao(m[1]!) === undefined) continue;
    taken.push([m.index, m.index + m[0].length]);
    out.push({ designator: m[0], at: m.index, end: m.index + m[0].length });
  }
  for (const m of upper.matchAll(BARE)) {
    const at = m.index;
    if (!free(at)) continue;
    const body = m[2] ?? m[3] ?? "";
    if (m[3] && WORDS.has(m[3])) continue;
    const end = at + m[0].length;
    const stem = m[1]!;
    const members = [number(body)];
    const more = memberList(upper, end, stem);
    for (const item of more.items) if (item.kind === stem) members.push(item.body);
    taken.push([at, more.end]);
    for (const b of members) {
      out.push({ designator: `${stem}${b}`, at, end: more.end });
      if (ctx.prefix) out.push({ designator: `${ctx.prefix}${stem}${b}`, at, end: more.end });
    }
  }
  // `ZONE R45A BOURGOGNE`, `R-AREA R7`: an area of the NOTAM's own country written without its prefix
  if (!ctx.name && ctx.prefix) {
    for (const m of upper.matchAll(ZONE_AREA)) {
      const at = m.index + m[0].length - m[1]!.length;
      if (!free(at)) continue;
      const [, , kind = "", num = "", glued] = m;
      const { members, end: stop } = sectorsOf(upper, number(num), glued, at + m[1]!.length);
      taken.push([at, stop]);
      for (const b of members) out.push({ designator: `${ctx.prefix}${kind}${b}`, at, end: stop });
    }
  }
  if (ctx.name && ctx.prefix) {
    const lead = BARE_NAME.exec(upper.trimStart());
    if (lead) {
      const at = upper.length - upper.trimStart().length;
      out.push({ designator: `${ctx.prefix}${lead[1]}${number(lead[2]!)}${lead[3]}`, at, end: at + lead[0].length });
    }
  }
  for (const [name, designator] of Object.entries(ALIASES)) {
    const at = upper.indexOf(name);
    if (at >= 0) out.push({ designator, at, end: at + name.length });
  }
  return out.sort((a, b) => a.at - b.at);
}

/**
 * A prefix glued or hyphenated to its kind is a designator wherever it is a real ICAO prefix. Written apart
 * (`LO R 7`) only in its own country or an airspace name: `ET D67` is French for "and D67", `EN R102` is Norway's.
 * `ENR 5` and `AIP ENR 5.1` are the AIP's en-route part.
 */
function prefixOk(
  upper: string,
  at: number,
  pp: string,
  sep: string | undefined,
  kind: string,
  num: string,
  ctx: GrammarContext,
): boolean {
  // `EU CBA10`, `EUCBA10`: the cross-border areas over Finland and Sweden (the EFIN file's NOTAM keys)
  if (pp === "EU") return kind === "CBA";
  if (countryOfIcao(pp) === undefined) return false;
  if (pp === "EN" && kind === "R" && sep === undefined && upper[at + 3] === " " && num.length === 1) return false;
  if (/AIP\s+$/.test(upper.slice(Math.max(0, at - 5), at))) return false;
  if (sep === undefined || sep === "-") return true;
  if (ctx.name === true || pp === ctx.prefix) return true;
  // of unknown country (an AUP row, a test), a spaced prefix counts unless it is also a word
  return ctx.prefix === undefined && !SPACED_WORDS.has(pp);
}

/** ICAO prefixes that are also words of NOTAM prose before `R`, `D` or `P`: French `ET`, `EN`, `LE`, `LA`. */
const SPACED_WORDS = new Set(["ET", "EN", "LE", "LA", "LO", "LI", "EL"]);

/**
 * What a number names with what follows it, up to `end`: itself with its glued sector (`45A`), else the sectors
 * listed after it (`45 A, B`) when `open`, else itself alone.
 */
function sectorsOf(
  upper: string,
  head: string,
  glued: string | undefined,
  end: number,
  open = true,
): { members: string[]; end: number } {
  if (glued) {
    // `ESR28A, B AND C`: more sectors of the same shape after a glued one, each after a list's joint
    const more = /^[A-Z]\d{0,2}$/.test(glued) ? gluedSiblings(upper, end, glued) : { items: [], end };
    return { members: [`${head}${glued}`, ...more.items.map((t) => `${head}${t}`)], end: more.end };
  }
  const sectors = open ? sectorList(upper, end) : undefined;
  return sectors ? { members: sectors.items.map((s) => `${head}${s}`), end: sectors.end } : { members: [head], end };
}

/** `, B AND C` after `ESR28A`: later sectors shaped like the glued one (a letter, or a letter and as many digits). */
function gluedSiblings(upper: string, from: number, glued: string): { items: string[]; end: number } {
  const shape = new RegExp(`^[A-Z]\\d{${glued.length - 1}}(?![A-Z0-9])`);
  const items: string[] = [];
  let at = from;
  for (;;) {
    const rest = upper.slice(at, at + 20);
    const sep = JOIN.exec(rest);
    const token = sep ? shape.exec(rest.slice(sep[0].length)) : null;
    // in the order of the alphabet, as lists are written: `EDR132B, A PARACHUTE …` names no A
    if (!sep || !token || token[0] <= (items.at(-1) ?? glued)) break;
    items.push(token[0]);
    at += sep[0].length + token[0].length;
  }
  return { items, end: at };
}

/** `A B C1 C2`, `A/B/C`, `A, B ET C`, `A TO D`, `(A1, A2, H)`, `/A` right after a number: its sectors. */
function sectorList(upper: string, from: number): { items: string[]; end: number } | undefined {
  let rest = upper.slice(from, from + 80);
  let offset = 0;
  const paren = /^\s*\(/.exec(rest);
  if (paren) {
    const close = rest.indexOf(")");
    if (close < 0) return undefined;
    const inner = rest
      .slice(paren[0].length, close)
      .split(/\s*,\s*|\s+/)
      .filter((t) => t !== "");
    if (inner.length === 0 || !inner.every((t) => SECTOR.test(t))) return undefined;
    return { items: inner, end: from + close + 1 };
  }
  const items: string[] = [];
  for (;;) {
    // the first after a blank, or a slash (Italy's `LI R308/A`)
    const sep = items.length === 0 ? /^[ /]/.exec(rest) : (JOIN.exec(rest) ?? /^[ ]/.exec(rest));
    if (!sep) break;
    const token = /^([A-Z]\d{0,2})(?![A-Z0-9])/.exec(rest.slice(sep[0].length));
    if (!token) break;
    const t = token[1]!;
    // `A TO D`: the letters between
    const range = /^\s+TO\s+([A-Z])(?![A-Z0-9])/.exec(rest.slice(sep[0].length + t.length));
    if (range && /^[A-Z]$/.test(t) && range[1]! > t) {
      for (let c = t.charCodeAt(0); c <= range[1]!.charCodeAt(0); c++) items.push(String.fromCharCode(c));
      const used = sep[0].length + t.length + range[0].length;
      rest = rest.slice(used);
      offset += used;
      continue;
    }
    items.push(t);
    const used = sep[0].length + t.length;
    rest = rest.slice(used);
    offset += used;
  }
  return items.length > 0 ? { items, end: from + offset } : undefined;
}

/** `, 701B`, `/5/6`, ` AND 132C`, `-R66`, ` ET D67` after a designator: more areas of the same prefix. */
function memberList(
  upper: string,
  from: number,
  kind: string,
): { items: Array<{ kind: string; body: string }>; end: number } {
  const items: Array<{ kind: string; body: string }> = [];
  let at = from;
  for (;;) {
    const rest = upper.slice(at, at + 40);
    const sep = JOIN.exec(rest);
    if (!sep) break;
    const m = /^([RDP])?(\d{1,4})([A-Z]\d?[A-Z]?)?(?![A-Z0-9])(?!\.\d)/.exec(rest.slice(sep[0].length));
    if (!m) break;
    // a kind letter names another area kind of the same prefix (`LF-R65-R66 ET D67`), only after R, D, P areas
    if (m[1] && !/^[RDP]$/.test(kind)) break;
    items.push({ kind: m[1] ?? kind, body: `${number(m[2]!)}${m[3] ?? ""}` });
    at += sep[0].length + m[0].length;
  }
  return { items, end: at };
}

/** `098D` and `98D` are the same area: leading zeros go. */
const number = (n: string) => n.replace(/^0+(?=\d)/, "");

/** The area a sectored designator belongs to: `LFR34A2` → LFR34, `EGD323F` → EGD323; none for `EGD323`. */
export function familyOf(designator: string): string | undefined {
  const m = /^([A-Z]{2,}?\d+(?:\.\d+)*)[A-Z][A-Z0-9]*$/.exec(designator);
  return m?.[1];
}

/**
 * A buffer zone's designator: a `Z` after the area's number and sector (`EPTR501Z`, `EGD323AZ`, `EDD19AZ`, `LSR11Z`;
 * the AUP/UUP of 17 states use them), or before a part number (`EGD701BZ1`, `LFT200AZ1`, `LER63Z1`). A name of letters
 * only (`LFBANEZ`, `EKDRAMCZ`) is one where `exists` knows it without its Z (`LFBANE`). A no-planning zone (`EPNPZ2`)
 * is none. A buffer is an area of its own around the one it buffers, never a sector of it.
 */
export function isBuffer(designator: string, exists?: (designator: string) => boolean): boolean {
  if (/^[A-Z]{2}NPZ\d*$/.test(designator)) return false;
  if (/^[A-Z]{2,}?\d+(?:\.\d+)*[A-Z]{0,2}\d?Z\d?$/.test(designator)) return true;
  return /^[A-Z]{4,}Z$/.test(designator) && exists?.(designator.slice(0, -1)) === true;
}

/** The volume a numbered sub-volume belongs to: `LFR201B1` → LFR201B, `LFR368C2` → LFR368C; none for `LFR201B`. */
export function parentOf(designator: string): string | undefined {
  const m = /^([A-Z]{2,}?\d+[A-Z]+)\d+$/.exec(designator);
  return m?.[1];
}

/**
 * The volumes a combined volume of the source holds: `LFR203ABC` → LFR203A, LFR203B, LFR203C; `LFR170AB`. Only runs
 * of consecutive letters: `LFR45NS`, `LFR55AE` are sectors of their own names, not pairs.
 */
export function combinedParts(designator: string): string[] {
  const m = /^([A-Z]{2,}?\d+)([A-Z]{2,4})$/.exec(designator);
  if (!m) return [];
  const letters = m[2]!;
  for (let i = 1; i < letters.length; i++) if (letters.charCodeAt(i) !== letters.charCodeAt(i - 1) + 1) return [];
  return [...letters].map((c) => `${m[1]}${c}`);
}

/**
 * A bare `D307`, `R10A` as an airspace's leading name token (GB names, Italy's `R7`, Sweden's `R816`, Portugal's
 * `R69BE`): the area with its country's prefix. So are the national kinds the files of Finland (`TSAH01`, `TRAV27`:
 * the plans' EFTSAH01, EFTRAV27), Norway (`T116`: ENT116) and Portugal (`TRA13`) write bare, digits kept as written.
 */
export function bareAreaDesignator(token: string, icaoPrefix: string): string | undefined {
  const t = token.toUpperCase();
  const m = /^([RDP])(\d{1,4}[A-Z]?\d?[A-Z]?)$/.exec(t);
  if (m) return `${icaoPrefix}${m[1]}${number(m[2]!)}`;
  const k = /^(?:TSA|TRA|T)[A-Z]?\d{1,3}[A-Z]?$/.exec(t);
  return k ? `${icaoPrefix}${t}` : undefined;
}

/** A name as the alias table keys it: upper case, single spaces. */
export function normalizeName(name: string): string {
  return name.toUpperCase().replace(/\s+/g, " ").trim();
}
