// src/notam — NOTAM sources to Notams: ICAO text, JSON lines, EAD PIB XML; Q-line, kind, geometry, designators.
// One NOTAM from its header and item texts, as both readers find them: the checks and normalisation live here
// once, so ICAO text and JSON lines give the same Notam for the same NOTAM.
//   id A1234/26, type N|R|C, ref A1233/26;  A) `EGLL`, `EGTT EGPX`, `EGTT/EGPX`, `EISN PART 1 OF 2`
//   B) 2402080700   C) 2403052200, `2403052200 EST` → `2403052200EST`, PERM
import type { Diagnostic } from "../model/diagnostic.js";
import { NOTAM_TYPES, type Notam, type NotamType, type QLine } from "../model/notam.js";
import { parseStamp, parseValidity } from "../schedule/validity.js";
import { parseNotamLimit } from "./limits.js";
import { parseQLine } from "./qline.js";

/** Header and item texts as a source gives them; null and blank mean absent. */
export interface NotamFields {
  id?: string | null | undefined;
  type?: string | null | undefined;
  ref?: string | null | undefined;
  nof?: string | null | undefined;
  /** The Q-line text, without `Q)`. */
  q?: string | null | undefined;
  a?: string | null | undefined;
  b?: string | null | undefined;
  c?: string | null | undefined;
  d?: string | null | undefined;
  e?: string | null | undefined;
  f?: string | null | undefined;
  g?: string | null | undefined;
}

export type Origin = Notam["origin"];

export interface Built {
  /** Absent when the NOTAM is skipped; the diagnostics then hold exactly one `skipped`. */
  notam?: Notam;
  diagnostics: Diagnostic[];
}

/** Result of one reader: NOTAMs in source order, diagnostics in source order. */
export interface NotamReadResult {
  notams: Notam[];
  diagnostics: Diagnostic[];
}

const ID = /^([A-Z])(\d{4})\/(\d{2})$/;
const LOCATION = /^[A-Z]{4}$/;
const MULTIPART = /\bPART\s+(\d+)\s+OF\s+(\d+)\b/;

const text = (v: string | null | undefined): string | undefined => {
  const t = v?.trim();
  return t === undefined || t === "" ? undefined : t;
};

/** Item C as one word: `2403052200 EST` → `2403052200EST`; other text unchanged but for case and blanks. */
export function normaliseItemC(c: string): string {
  const t = c.trim().toUpperCase().replace(/\s+/g, " ");
  const m = /^(\d{10}) ?(EST)$/.exec(t);
  return m ? `${m[1]}${m[2]}` : t;
}

/** Where one NOTAM's diagnostics point, and those found so far: passed to each step, not closed over. */
interface Notes {
  at: { source: string; record: number; line?: number; id?: string };
  diagnostics: Diagnostic[];
}

function warn(notes: Notes, code: string, message: string, severity: "warning" | "repaired" = "warning"): void {
  notes.diagnostics.push({ code, severity, message, ...notes.at });
}

/** The one `skipped` diagnostic of a NOTAM that is not built. */
const skip = (notes: Notes, code: string, message: string): Built => ({
  diagnostics: [{ code, severity: "skipped", message, ...notes.at }],
});

/** Item A to location indicators; `PART n OF m` and anything not four letters is reported. */
function locations(a: string, notes: Notes): string[] {
  let rest = a.toUpperCase();
  const part = MULTIPART.exec(rest);
  if (part) {
    warn(
      notes,
      "notam.itemA.multipart",
      `Item A "${a}": part ${part[1]} of ${part[2]} of a multi-part NOTAM; E is this part's`,
    );
    rest = rest.replace(MULTIPART, " ");
  }
  const tokens = rest.split(/[\s,/;]+/).filter((t) => t !== "");
  const bad = tokens.filter((t) => !LOCATION.test(t));
  if (bad.length > 0) {
    warn(notes, "notam.itemA.invalid", `Item A "${a}": dropped ${bad.map((t) => `"${t}"`).join(", ")}`);
  }
  return [...new Set(tokens.filter((t) => LOCATION.test(t)))];
}

/**
 * Whether Item F or G reads as a vertical limit, by text: a briefing repeats a few dozen spellings (`SFC`, `1050FT
 * AMSL`), and parsing each again was a twentieth of reading the corpus. Bounded: cleared when full.
 */
const limitTexts = new Map<string, boolean>();
function isLimit(text: string): boolean {
  let known = limitTexts.get(text);
  if (known === undefined) {
    known = parseNotamLimit(text) !== undefined;
    if (limitTexts.size >= 10_000) limitTexts.clear();
    limitTexts.set(text, known);
  }
  return known;
}

/** Builds one NOTAM; never throws. Fatal defects give one `skipped` diagnostic and no NOTAM. */
export function buildNotam(fields: NotamFields, origin: Origin): Built {
  const id = text(fields.id)?.toUpperCase();
  const notes: Notes = { at: placeOf(origin, id), diagnostics: [] };
  const idMatch = id === undefined ? null : ID.exec(id);
  if (!idMatch || id === undefined)
    return skip(notes, "notam.header.invalid", `NOTAM id "${fields.id ?? ""}" is not A1234/26`);
  const type = readType(fields.type, id, notes);
  if (typeof type === "object") return type;
  const ref = readRef(fields.ref, type, id, notes);
  if (typeof ref === "object") return ref;

  const b = text(fields.b);
  const e = text(fields.e);
  const cRaw = text(fields.c);
  if (b === undefined || e === undefined || (cRaw === undefined && type !== "C")) {
    const missing = [b === undefined ? "B" : "", cRaw === undefined && type !== "C" ? "C" : "", e ? "" : "E"];
    return skip(notes, "notam.item.missing", `NOTAM ${id} lacks Item ${missing.filter((m) => m !== "").join(", ")}`);
  }
  const c = readValidity(b, cRaw, id, notes);
  if (typeof c === "object") return c;
  const q = readQ(fields.q, id, notes);
  const itemA = readItemA(fields.a, q, id, notes);
  if (!Array.isArray(itemA)) return itemA;

  const d = text(fields.d);
  const f = text(fields.f);
  const g = text(fields.g);
  checkLimit("F", f, id, notes);
  checkLimit("G", g, id, notes);
  const nof = text(fields.nof)?.toUpperCase();
  const [, series = "", number = "", year = ""] = idMatch;
  // keys in the order of Notam, each optional one only when present (the order is the stage cache's JSON)
  const notam = { id, series, number: Number(number), year: Number(year) } as Notam;
  if (nof !== undefined) notam.nof = nof;
  notam.type = type;
  if (ref !== undefined) notam.ref = ref;
  if (q !== undefined) notam.q = q;
  notam.itemA = itemA;
  notam.itemB = b;
  if (c !== undefined) notam.itemC = c;
  if (d !== undefined) notam.itemD = d;
  notam.itemE = e;
  if (f !== undefined) notam.itemF = f;
  if (g !== undefined) notam.itemG = g;
  notam.origin = origin;
  return { notam, diagnostics: notes.diagnostics };
}

/**
 * Where the diagnostics point. Optional keys assigned, not spread from conditional literals (each spread makes and
 * copies an object: the change made reading the corpus 5–7 % faster).
 */
function placeOf(origin: Origin, id: string | undefined): Notes["at"] {
  const at: Notes["at"] = { source: origin.source, record: origin.record };
  if (origin.line !== undefined) at.line = origin.line;
  if (id !== undefined) at.id = id;
  return at;
}

/** The type, N when none is stated; a `Built` when it is none of N, R, C. */
function readType(raw: string | null | undefined, id: string, notes: Notes): NotamType | Built {
  const typeText = text(raw)
    ?.toUpperCase()
    .replace(/^NOTAM/, "");
  if (typeText === undefined) {
    warn(notes, "notam.type.assumed", `NOTAM ${id} states no type (N, R, C); read as NOTAMN`);
    return "N";
  }
  if ((NOTAM_TYPES as readonly string[]).includes(typeText)) return typeText as NotamType;
  return skip(notes, "notam.header.invalid", `NOTAM ${id} type "${raw}" is not N, R or C`);
}

/** The NOTAM replaced or cancelled, when the type has one; a `Built` when a NOTAMC names none. */
function readRef(
  raw: string | null | undefined,
  type: NotamType,
  id: string,
  notes: Notes,
): string | undefined | Built {
  let ref = text(raw)?.toUpperCase();
  if (ref !== undefined && !ID.test(ref)) {
    if (type === "C") return skip(notes, "notam.header.invalid", `NOTAMC ${id} cancels "${ref}", not an id`);
    warn(notes, "notam.ref.invalid", `NOTAM${type} ${id} names "${ref}", not an id; ignored`);
    ref = undefined;
  }
  if (type === "C" && ref === undefined)
    return skip(notes, "notam.header.invalid", `NOTAMC ${id} names no NOTAM to cancel`);
  if (type === "R" && text(raw) === undefined)
    warn(notes, "notam.ref.missing", `NOTAMR ${id} names no NOTAM it replaces`);
  if (type === "N" && ref !== undefined) {
    warn(notes, "notam.ref.unexpected", `NOTAMN ${id} names "${ref}"; a new NOTAM replaces nothing, ignored`);
    ref = undefined;
  }
  return ref;
}

/** Checks Item B and C; Item C normalised (absent for a NOTAMC without one), or a `Built` when either is invalid. */
function readValidity(b: string, cRaw: string | undefined, id: string, notes: Notes): string | undefined | Built {
  if (!/^\d{10}$/.test(b) || parseStamp(b) === undefined) {
    return skip(notes, "notam.itemB.invalid", `NOTAM ${id} Item B "${b}" is not YYMMDDhhmm`);
  }
  const c = cRaw === undefined ? undefined : normaliseItemC(cRaw);
  if (c !== undefined) {
    const validity = parseValidity(b, c);
    if (!validity.ok || !/^(\d{10}(EST)?|PERM)$/.test(c)) {
      const reason = validity.ok ? `Item C "${cRaw}" is not YYMMDDhhmm[EST] or PERM` : validity.reason;
      return skip(notes, "notam.itemC.invalid", `NOTAM ${id}: ${reason}`);
    }
  }
  return c;
}

/** The Q-line; a missing or unreadable one is reported and dropped. */
function readQ(raw: string | null | undefined, id: string, notes: Notes): QLine | undefined {
  const qText = text(raw);
  if (qText === undefined) {
    warn(notes, "notam.qline.missing", `NOTAM ${id} has no Q-line`);
    return undefined;
  }
  const parsed = parseQLine(qText);
  if (parsed.ok) return parsed.value;
  warn(notes, "notam.qline.invalid", `NOTAM ${id}: ${parsed.reason}; Q-line dropped`);
  return undefined;
}

/** Item A's locations, else the Q-line's FIR; a `Built` when there is neither. */
function readItemA(raw: string | null | undefined, q: QLine | undefined, id: string, notes: Notes): string[] | Built {
  const aText = text(raw);
  const itemA = aText === undefined ? [] : locations(aText, notes);
  if (itemA.length > 0) return itemA;
  if (q === undefined)
    return skip(notes, "notam.item.missing", `NOTAM ${id} has no location in Item A "${aText ?? ""}"`);
  warn(
    notes,
    "notam.itemA.fromFir",
    `NOTAM ${id} Item A "${aText ?? ""}" names no location; Q-line FIR ${q.fir} stands in`,
    "repaired",
  );
  return [q.fir];
}

/** Item F or G that does not read as a vertical limit is reported, and kept as text. */
function checkLimit(name: "F" | "G", limit: string | undefined, id: string, notes: Notes): void {
  if (limit !== undefined && !isLimit(limit)) {
    warn(
      notes,
      `notam.item${name}.invalid`,
      `NOTAM ${id} Item ${name} "${limit}" is not a vertical limit; kept as text`,
    );
  }
}
