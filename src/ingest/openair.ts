// OpenAir (v1, and Naviter v2 with AY/AA) to AirspaceRecords. Pure: text in, records and diagnostics out.
//   AC D / AY TMA / AN DOLSKO 1 TMA / AF 118.480 / AG Ljubljana Info / AL FL135 / AH FL195 / DP … / V X=… / DC 2.0
import { createHash } from "node:crypto";
import type { AirspaceRecord, ReadResult } from "../model/airspace.js";
import type { Frequency, VerticalLimit } from "../model/contract.js";
import { type Diagnostic, excerpt } from "../model/diagnostic.js";
import { parseAltitudeText } from "./limits.js";
import { type ClassType, classAndType, parseActivation } from "./openair/fields.js";
import { RingBuilder } from "./openair/geometry.js";
import { cleanLabel } from "./text.js";

export interface OpenAirOptions {
  /** Prefix of the content-derived ids. @default "openair" */
  idPrefix?: string;
}

interface Line {
  no: number;
  key: string;
  arg: string;
  raw: string;
}

interface Block {
  index: number;
  ac: Line;
  lines: Line[];
}

/** Frequency unit MHz in openAIP's frequency records. */
const MHZ = 2;
/** Commands that change nothing we publish: styling (SP, SB), label positions (AT), transponder (AX), AI ids. */
const IGNORED = new Set(["SP", "SB", "AT", "AX", "AI"]);
const GEOMETRY = new Set(["DP", "DA", "DB", "DC", "V"]);
/** Drawing style: pen and brush. */
const STYLE = new Set(["SP", "SB"]);
const KEYED = /^([A-Za-z]{1,2})(?:\s+(.*))?$/;

/** Splits text into AC blocks; text before the first AC is header. Comments and blank lines are dropped. */
function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const rows = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < rows.length; i++) {
    const raw = (rows[i] ?? "").trim();
    if (raw === "" || raw.startsWith("*")) continue;
    const m = KEYED.exec(raw);
    const key = (m?.[1] ?? raw.split(/\s/)[0] ?? "").toUpperCase();
    let arg = m ? (m[2] ?? "") : "";
    // A trailing comment after content (`DP 51:29:59 N 014:50:04 E  *coordinate modified`); names keep their `*`.
    if (key !== "AN" && key !== "AG") arg = arg.replace(/\s+\*.*$/, "");
    const line: Line = { no: i + 1, key: m ? key : `?${key.slice(0, 12)}`, arg: arg.trim(), raw };
    if (line.key === "AC") blocks.push({ index: blocks.length, ac: line, lines: [] });
    else blocks.at(-1)?.lines.push(line);
  }
  return blocks;
}

interface Context {
  source: string;
  prefix: string;
  seenIds: Map<string, number>;
  unknownKinds: Set<string>;
  diagnostics: Diagnostic[];
}

type Note = Omit<Diagnostic, "source" | "record" | "name">;

function note(code: string, severity: Diagnostic["severity"], message: string, line?: Line): Note {
  return line ? { code, severity, message, line: line.no, excerpt: excerpt(line.raw) } : { code, severity, message };
}

function limitOf(line: Line | undefined, which: "AL" | "AH"): VerticalLimit | Note {
  if (!line) return note("openair.limit.missing", "skipped", `no ${which} line`);
  const p = parseAltitudeText(line.arg);
  return p.ok ? p.value : note("openair.limit.unparsable", "skipped", `${which} "${line.arg}": ${p.reason}`, line);
}

/** A block's lines by what they say: the last of each single-valued key, the repeated ones in order, the shape. */
interface Parts {
  last: Map<string, Line>;
  freqs: Line[];
  stations: Line[];
  windows: Line[];
  geometry: RingBuilder;
}

type BlockResult = { record?: Omit<AirspaceRecord, "id">; notes: Note[] };

/** Skipping keeps the notes so far: only unknown-line warnings come before the checks that skip. */
const skipped = (notes: Note[], n: Note): BlockResult => ({ notes: [...notes, n] });

/** One AC block to a record, or the one `skipped` note that explains why not. */
function readBlock(block: Block, ctx: Context): BlockResult {
  const notes: Note[] = [];
  if (block.lines.length === 0)
    return skipped(notes, note("openair.block.empty", "skipped", "AC with no content", block.ac));
  // `AC Q / SP 0,2,127,0,127 / SB -1,-1,-1`: a class's drawing style for the programs that read the file (the Czech
  // aeroklub file sets one for each class it uses), not an airspace; no record is lost
  if (block.lines.every((l) => STYLE.has(l.key))) {
    return {
      notes: [
        note("openair.block.style", "warning", `style of class "${block.ac.arg}" only; not an airspace`, block.ac),
      ],
    };
  }
  const parts: Parts = { last: new Map(), freqs: [], stations: [], windows: [], geometry: new RingBuilder() };
  const bad = sortLines(block.lines, parts, notes, ctx);
  if (bad) return skipped(notes, bad);
  const lower = limitOf(parts.last.get("AL"), "AL");
  if ("code" in lower) return skipped(notes, lower);
  const upper = limitOf(parts.last.get("AH"), "AH");
  if ("code" in upper) return skipped(notes, upper);
  const shape = parts.geometry.ring();
  if (shape.distinct < 3) {
    return skipped(
      notes,
      note("openair.geometry.tooFewPoints", "skipped", `${shape.distinct} distinct points`, block.ac),
    );
  }
  circleNotes(shape, block.ac, notes);

  const ay = parts.last.get("AY");
  const ct = classOf(block.ac, ay, notes);
  const an = parts.last.get("AN");
  const label = cleanLabel(an?.arg ?? "");
  const name = nameOf(label, block.ac, ay, an, notes);
  const frequencies = frequenciesOf(parts.freqs, parts.stations, notes);
  const activeTimes: AirspaceRecord["activeTimes"] = [];
  const byNotam = readWindows(parts.windows, block.ac, activeTimes, notes);

  const origin = { source: ctx.source, record: block.index, line: block.ac.no };
  const record = {
    name,
    ...(label.text === "" ? { nameMissing: true as const } : {}),
    type: ct.type,
    icaoClass: ct.icaoClass,
    upperLimit: upper,
    lowerLimit: lower,
    frequencies,
    byNotam,
    onDemand: false,
    onRequest: false,
    activeTimes,
    geometry: [[shape.ring]],
    origin,
  };
  return { record, notes };
}

/** Sorts a block's lines into `parts`, drawing the shape as it goes; a line that breaks the shape is returned. */
function sortLines(lines: Line[], parts: Parts, notes: Note[], ctx: Context): Note | undefined {
  for (const line of lines) {
    if (GEOMETRY.has(line.key)) {
      const r = parts.geometry.apply(line.key as "DP" | "DA" | "DB" | "DC" | "V", line.arg);
      if (r === "unknown") unknownLine(line, `V ${line.arg.split("=")[0]?.trim()}`, notes, ctx);
      else if (r && r !== "ignored") return note(r.code, "skipped", r.message, line);
    } else if (line.key === "AF") parts.freqs.push(line);
    else if (line.key === "AG") parts.stations.push(line);
    else if (line.key === "AA") parts.windows.push(line);
    else if (["AN", "AY", "AL", "AH"].includes(line.key)) parts.last.set(line.key, line);
    else if (!IGNORED.has(line.key)) unknownLine(line, line.key, notes, ctx);
  }
  return undefined;
}

/** Warns of DC circles the ring leaves out. */
function circleNotes(shape: { mixed: boolean; extraCircles: number }, ac: Line, notes: Note[]): void {
  if (shape.mixed)
    notes.push(note("openair.geometry.mixedCircle", "warning", "DC circle beside other points: circle dropped", ac));
  if (shape.extraCircles > 0) {
    notes.push(note("openair.geometry.mixedCircle", "warning", `${shape.extraCircles + 1} DC circles: first kept`, ac));
  }
}

/** Class and type from AC and AY; an unknown value is reported and read as type 0, class 8. */
function classOf(ac: Line, ay: Line | undefined, notes: Note[]): ClassType {
  const ct = classAndType(ac.arg, ay?.arg);
  if (ct.unknown) {
    const l = ct.unknown.code === "openair.type.unknown" ? ay : ac;
    notes.push(note(ct.unknown.code, "warning", `unknown value "${ct.unknown.value}": type 0, class 8`, l));
  }
  return ct;
}

/** The AN name, or one made from the type or class when there is none. */
function nameOf(
  label: { text: string; repaired: boolean },
  ac: Line,
  ay: Line | undefined,
  an: Line | undefined,
  notes: Note[],
): string {
  if (label.text === "") {
    const name = `${(ay?.arg ?? ac.arg).trim()} (unnamed)`;
    notes.push(note("openair.name.missing", "repaired", `no name: called "${name}"`, an ?? ac));
    return name;
  }
  if (label.repaired) {
    notes.push(note("openair.name.controlCharacter", "repaired", `control character in name "${label.text}"`, an));
  }
  return label.text;
}

/** AF lines with the AG station at the same position; the first kept is primary. */
function frequenciesOf(freqs: Line[], stations: Line[], notes: Note[]): Frequency[] {
  const frequencies: Frequency[] = [];
  for (const [i, f] of freqs.entries()) {
    if (!/^\d{2,3}\.\d{1,3}$/.test(f.arg)) {
      notes.push(note("openair.frequency.unparsable", "warning", `AF "${f.arg}" dropped`, f));
      continue;
    }
    const station = cleanLabel(stations[i]?.arg ?? "").text;
    const freq: Frequency = { value: f.arg, unit: MHZ };
    if (station !== "") freq.name = station;
    freq.primary = frequencies.length === 0;
    frequencies.push(freq);
  }
  return frequencies;
}

/**
 * AA lines into `activeTimes`; true when the airspace is activated by NOTAM only (`AA NONE`; names like
 * `ED-R45 MELPITZ NOTAM` are read by ingest/hours.ts).
 */
function readWindows(windows: Line[], ac: Line, activeTimes: AirspaceRecord["activeTimes"], notes: Note[]): boolean {
  let none = false;
  for (const w of windows) {
    const a = parseActivation(w.arg);
    if (a.kind === "none") none = true;
    else if (a.kind === "interval") activeTimes.push({ start: a.start, end: a.end });
    else notes.push(note(a.code, "warning", `AA "${w.arg}" dropped: ${a.reason}`, w));
  }
  if (none && activeTimes.length > 0) {
    notes.push(note("openair.activation.conflict", "warning", "AA NONE beside windows: windows dropped", ac));
    activeTimes.length = 0;
  }
  return none;
}

/** `openair.line.unknown` once per kind per file. */
function unknownLine(line: Line, kind: string, notes: Note[], ctx: Context): void {
  if (ctx.unknownKinds.has(kind)) return;
  ctx.unknownKinds.add(kind);
  notes.push(note("openair.line.unknown", "warning", `unknown line "${excerpt(line.raw, 40)}" ignored`, line));
}

/** A note with its place, keys in the order of `Diagnostic`. */
function toDiagnostic(n: Note, source: string, record: number, id?: string, name?: string): Diagnostic {
  const d: Diagnostic = { code: n.code, severity: n.severity, message: n.message, source };
  if (n.line !== undefined) d.line = n.line;
  d.record = record;
  if (id) d.id = id;
  if (name) d.name = name;
  if (n.excerpt !== undefined) d.excerpt = n.excerpt;
  return d;
}

function contentId(rec: Omit<AirspaceRecord, "id">, block: Block, ay: string, ctx: Context): string {
  const [al, ah] = ["AL", "AH"].map((k) => block.lines.findLast((l) => l.key === k)?.arg ?? "");
  const key = [rec.name, block.ac.arg, ay, al, ah].join("|");
  const base = `${ctx.prefix}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
  const n = (ctx.seenIds.get(base) ?? 0) + 1;
  ctx.seenIds.set(base, n);
  return n === 1 ? base : `${base}-${n}`;
}

export function readOpenAir(text: string, source: string, options: OpenAirOptions = {}): ReadResult {
  const ctx: Context = {
    source,
    prefix: options.idPrefix ?? "openair",
    seenIds: new Map(),
    unknownKinds: new Set(),
    diagnostics: [],
  };
  const records: AirspaceRecord[] = [];
  for (const block of splitBlocks(text)) {
    let result: BlockResult;
    try {
      result = readBlock(block, ctx);
    } catch (cause) {
      // A reader bug must cost one record, not the file (docs/design.md §2: never a crash).
      const n = note("openair.record.failed", "skipped", `reader error: ${String(cause)}`, block.ac);
      result = { notes: [n] };
    }
    const name = result.record?.name ?? cleanLabel(block.lines.findLast((l) => l.key === "AN")?.arg ?? "").text;
    let id: string | undefined;
    if (result.record) {
      const ay = block.lines.findLast((l) => l.key === "AY")?.arg ?? "";
      id = contentId(result.record, block, ay, ctx);
      records.push({ id, ...result.record });
    }
    for (const n of result.notes) ctx.diagnostics.push(toDiagnostic(n, source, block.index, id, name));
  }
  return { records, diagnostics: ctx.diagnostics };
}
