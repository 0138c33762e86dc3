// NOTAMs as JSON lines, one object a line, in the three shapes of the data corpus's NOTAM collections (docs/benchmarks.md):
//   UK PIB      {id, nof, type, ref, qcode, fir, traffic, purpose, scope, lower, upper, coordinates, radius, itemA…itemG}
//   raw text    {id, type, ref, itemQ, itemA…itemG, raw}
//   xctools PIB {id, itemQ, itemA, itemB_pib: "18/09/12 12:30", itemC_pib: "PERM" | "18/09/28 09:00 EST", itemD…itemG}
// The split fields win; a record with only `raw` is read as ICAO text. xctools states no type: NOTAMN is assumed
// (a PIB lists the NOTAMs in force, so nothing is left to replace or cancel).

import { z } from "zod";
import type { Diagnostic } from "../model/diagnostic.js";
import { excerpt } from "../model/diagnostic.js";
import { isRecord, tryJson } from "../model/json.js";
import type { Notam } from "../model/notam.js";
import { buildNotam, type NotamFields, type NotamReadResult, type Origin } from "./build.js";
import { formatQLine } from "./qline.js";
import { readNotamText } from "./text.js";

const Str = z.string().nullish();
const StrOrNumber = z.union([z.string(), z.number()]).nullish();

/** One record; unknown keys (`pibSection`, `first_seen`, `src_file`, …) pass, and nothing reads them. */
export const NotamLine = z.object({
  id: Str,
  nof: Str,
  type: Str,
  ref: Str,
  qcode: Str,
  fir: Str,
  traffic: Str,
  purpose: Str,
  scope: Str,
  lower: StrOrNumber,
  upper: StrOrNumber,
  coordinates: Str,
  radius: StrOrNumber,
  itemQ: Str,
  itemA: Str,
  itemB: Str,
  itemB_pib: Str,
  itemC: Str,
  itemC_pib: Str,
  itemD: Str,
  itemE: Str,
  itemF: Str,
  itemG: Str,
  raw: Str,
});
export type NotamLine = z.infer<typeof NotamLine>;

/** The schema's keys, and whether each also takes a number; read once from the schema itself. */
const KEYS = Object.entries(NotamLine.shape).map(([key, schema]) => [key, schema.safeParse(0).success] as const);

/**
 * A record the schema accepts, taken as it is: each known key absent, null, a string (or a number where the schema
 * takes one). The schema's parse copies every record into a new object of 24 keys: that copy was a third of what
 * reading the corpus allocates. A record this refuses goes through the schema, whose issue names the fault.
 */
function asNotamLine(value: unknown): NotamLine | undefined {
  if (!isRecord(value)) return undefined;
  for (const [key, numeric] of KEYS) {
    const v = value[key];
    if (v !== undefined && v !== null && typeof v !== "string" && !(numeric && typeof v === "number")) return undefined;
  }
  return value as NotamLine;
}

/** PIB print `18/09/12 12:30` (`… EST`) to `1809121230` (`…EST`); `PERM` and anything else unchanged. */
export function fromPibStamp(text: string): string {
  const m = /^\s*(\d{2})\/(\d{2})\/(\d{2})\s+(\d{2}):(\d{2})\s*(EST)?\s*$/i.exec(text);
  return m ? `${m[1]}${m[2]}${m[3]}${m[4]}${m[5]}${m[6] ? "EST" : ""}` : text;
}

const present = (v: string | null | undefined): v is string => v !== undefined && v !== null && v.trim() !== "";

/** The Q-line of a record: `itemQ` as written, else rebuilt from the UK PIB's split fields. */
function qText(r: NotamLine): string | undefined {
  if (present(r.itemQ)) return r.itemQ;
  if (!present(r.qcode) || !present(r.fir)) return undefined;
  const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
  return formatQLine({
    fir: r.fir,
    code: r.qcode,
    traffic: opt(r.traffic),
    purpose: opt(r.purpose),
    scope: opt(r.scope),
    lower: opt(r.lower),
    upper: opt(r.upper),
    coordinates: opt(r.coordinates),
    radius: opt(r.radius),
  });
}

function fieldsOf(r: NotamLine): NotamFields {
  return {
    id: r.id,
    type: r.type,
    ref: r.ref,
    nof: r.nof,
    q: qText(r),
    a: r.itemA,
    b: present(r.itemB) ? r.itemB : present(r.itemB_pib) ? fromPibStamp(r.itemB_pib) : undefined,
    c: present(r.itemC) ? r.itemC : present(r.itemC_pib) ? fromPibStamp(r.itemC_pib) : undefined,
    d: r.itemD,
    e: r.itemE,
    f: r.itemF,
    g: r.itemG,
  };
}

/** A record with `raw` but neither Item B nor Item E is read from its text. */
const rawOnly = (r: NotamLine): boolean =>
  present(r.raw) && !present(r.itemB) && !present(r.itemB_pib) && !present(r.itemE);

/**
 * Reads NOTAM JSON lines; never throws. `record` counts the non-blank lines from 0. A line read from the same source,
 * at the same place and with the same text as in this process's last reading of it gives the same NOTAM objects
 * (`watch` reads a feed of 40 000 again for one changed line; the stages after it memoise by NOTAM, resolve/notams.ts).
 * `readAgain` false (a one-shot publish): this reading is not kept, and the source's last one is let go.
 */
export function readNotamJsonLines(text: string, source: string, readAgain = true): NotamReadResult {
  const notams: Notam[] = [];
  const diagnostics: Diagnostic[] = [];
  const before = lastRead.get(source);
  const body = text.replace(/^\uFEFF/, "");
  const now: LineRead[] = [];
  let record = 0;
  let start = 0;
  // split at "\n" and the "\r" cut after: a split by /\r?\n/ took a sixth of the time JSON.parse takes
  for (const [index, line] of body.split("\n").entries()) {
    const at = start;
    start += line.length + 1;
    const raw = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (raw.trim() === "") continue;
    const was = before?.lines[record];
    const same = was?.line === index + 1 && was.length === raw.length && before!.text.startsWith(raw, was.at);
    const read = same ? was.read : readLine(raw, source, record, index + 1);
    record++;
    now.push({ line: index + 1, at, length: raw.length, read });
    notams.push(...read.notams);
    diagnostics.push(...read.diagnostics);
  }
  if (readAgain) lastRead.set(source, { text: body, lines: now });
  else lastRead.delete(source);
  return { notams, diagnostics };
}

/**
 * One non-blank line as read: where it stood (its line number, its offset and length in the text), what it gave.
 * Not its text: a line's text is a slice of the whole, and would keep that text alive as long as the line is unchanged.
 */
interface LineRead {
  line: number;
  at: number;
  length: number;
  read: NotamReadResult;
}

/** Per source name, its last text and lines as this process read them (one generation: a reading replaces the one before). */
const lastRead = new Map<string, { text: string; lines: readonly LineRead[] }>();

/** As a new process starts: the next reading builds every NOTAM again. */
export function forgetNotamLines(): void {
  lastRead.clear();
}

function readLine(raw: string, source: string, record: number, line: number): NotamReadResult {
  const notams: Notam[] = [];
  const diagnostics: Diagnostic[] = [];
  const origin: Origin = { source, record, line };
  const at = { source, record, line };
  const out = { notams, diagnostics };
  const json = tryJson(raw);
  let r = json.ok ? asNotamLine(json.value) : undefined;
  let issue: z.core.$ZodIssue | undefined;
  if (json.ok && r === undefined) {
    const parsed = NotamLine.safeParse(json.value);
    if (parsed.success) r = parsed.data;
    else issue = parsed.error.issues[0];
  }
  if (r === undefined) {
    const reason = !json.ok ? `not JSON (${json.reason})` : `${issue?.path.join(".") || "(root)"}: ${issue?.message}`;
    const message = `line ${line} is not a NOTAM record: ${reason}`;
    diagnostics.push({ code: "notam.line.malformed", severity: "skipped", message, ...at, excerpt: excerpt(raw) });
    return out;
  }
  if (rawOnly(r) && present(r.raw)) {
    const fromText = readNotamText(r.raw, source);
    const moved = <T extends { line?: number; record?: number }>(x: T): T => ({ ...x, ...at });
    notams.push(...fromText.notams.map((n) => ({ ...n, origin: { ...origin } })));
    diagnostics.push(...fromText.diagnostics.map(moved));
    if (fromText.notams.length + fromText.diagnostics.filter((d) => d.severity === "skipped").length === 0) {
      const message = `record ${r.id ?? "?"} holds no NOTAM in its raw text "${excerpt(r.raw, 60)}"`;
      diagnostics.push({ code: "notam.item.missing", severity: "skipped", message, ...at });
    }
    return out;
  }
  const built = buildNotam(fieldsOf(r), origin);
  diagnostics.push(...built.diagnostics);
  if (built.notam) notams.push(built.notam);
  return out;
}
