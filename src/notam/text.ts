// ICAO NOTAM text: one or many NOTAMs, with or without the enclosing parentheses, AFTN line wrapping.
//   (A1235/26 NOTAMR A1234/26
//   Q) EGTT/QRTCA/IV/BO/W/000/030/5415N00429W007
//   A) EGLL B) 2402080700 C) 2403052200 EST
//   D) MON-FRI 0800-1600
//   E) RESTRICTED AREA … (text wraps over lines)
//   F) SFC G) 3000FT AMSL)
//   CREATED: 08 Feb 2024 07:01:00 SOURCE: EUECYIYN       ← footer, not part of E or G
// A NOTAM starts at its header line (`A1234/26 NOTAMN`, also a broken one) or, after a blank line, at a `Q)` line
// whose header is missing; it runs to the next start. Items are found by their labels in the order Q A B C D E F G:
// a label counts only after the previous one, so inside E only `F)` and `G)` (at a line start or after a blank) end
// the text, as the ICAO format has it. Linear in the text length.
import type { Diagnostic } from "../model/diagnostic.js";
import { excerpt } from "../model/diagnostic.js";
import { buildNotam, type NotamFields, type NotamReadResult } from "./build.js";

/** Any line that looks like a header, valid or not: it starts a NOTAM. */
const HEADER_LIKE = /^\s*\(?\s*[A-Z]?\d{1,5}\s*\/\s*\d{2}\s*-?\s*NOTAM/;
const HEADER = /^\s*(\()?\s*([A-Z]\d{4}\/\d{2})\s*-?\s*NOTAM([A-Z])(?![A-Z])(?:[ \t]+([A-Z]?\d{1,5}\s*\/\s*\d{2}))?/;
/** A Q-line at a line start after a blank line: a NOTAM whose header is missing. */
const Q_START = /^\s*\(?\s*Q\)\s*[A-Z]{4}\s*\//;
/** Trailing lines of a briefing export that belong to no item. */
const FOOTER = /^\s*(?:(?:CREATED|SOURCE)\s*:.*|NNNN\s*)$/i;
const LABEL = /(^|\s)([QA-G])\)/g;
const CLOSE = /\)[ \t]*(?=\n|$)/g;
const ORDER = "QABCDEFG";
const FIELD: Record<string, keyof NotamFields> = { Q: "q", A: "a", B: "b", C: "c", D: "d", E: "e", F: "f", G: "g" };

interface Block {
  /** 0-based index of the first line. */
  start: number;
  lines: string[];
}

/** Cuts the text into NOTAM blocks; lines before the first one are returned apart. */
function splitBlocks(lines: readonly string[]): { preamble: Block; blocks: Block[] } {
  const preamble: Block = { start: -1, lines: [] };
  const blocks: Block[] = [];
  let current: Block | undefined;
  let afterBlank = true;
  for (const [i, line] of lines.entries()) {
    const blank = line.trim() === "";
    if (HEADER_LIKE.test(line) || (afterBlank && Q_START.test(line))) {
      current = { start: i, lines: [line] };
      blocks.push(current);
    } else if (current) {
      current.lines.push(line);
    } else if (!blank) {
      if (preamble.start < 0) preamble.start = i;
      preamble.lines.push(line);
    }
    afterBlank = blank;
  }
  return { preamble, blocks };
}

/** Drops trailing blank and footer lines (`CREATED: …`, `SOURCE: …`, `NNNN`). */
function stripFooter(body: string): string {
  const lines = body.split("\n");
  while (lines.length > 0) {
    const last = lines[lines.length - 1] ?? "";
    if (last.trim() !== "" && !FOOTER.test(last)) break;
    lines.pop();
  }
  return lines.join("\n");
}

/** The `)` closing a NOTAM: the last one ending a line that is not an item label (`E)`), or -1. */
function closingParen(body: string): number {
  let close = -1;
  for (const m of body.matchAll(CLOSE)) {
    const at = m.index ?? 0;
    const label = /[QA-G]/.test(body[at - 1] ?? "") && /^\s?$/.test(body[at - 2] ?? "");
    if (!label) close = at;
  }
  return close;
}

/** Splits the text after the header into items; returns the text before the first label apart. */
function scanItems(body: string): { fields: NotamFields; before: string } {
  const fields: NotamFields = {};
  let state = -1;
  let open: keyof NotamFields | undefined;
  let from = 0;
  let before = "";
  for (const m of body.matchAll(LABEL)) {
    const label = m[2] ?? "";
    const rank = ORDER.indexOf(label);
    if (rank <= state) continue;
    const at = (m.index ?? 0) + (m[1] ?? "").length;
    if (open === undefined) before = body.slice(0, at);
    else fields[open] = body.slice(from, at);
    open = FIELD[label];
    from = at + 2;
    state = rank;
  }
  if (open === undefined) before = body;
  else fields[open] = body.slice(from);
  return { fields, before };
}

/** Reads every NOTAM of an ICAO text; never throws. */
export function readNotamText(text: string, source: string): NotamReadResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const { preamble, blocks } = splitBlocks(lines);
  const notams: NotamReadResult["notams"] = [];
  const diagnostics: Diagnostic[] = [];
  if (preamble.lines.length > 0) {
    diagnostics.push({
      code: "notam.text.ignored",
      severity: "warning",
      message: `text before the first NOTAM header ignored: "${excerpt(preamble.lines.join(" "), 60)}"`,
      source,
      line: preamble.start + 1,
    });
  }
  for (const [record, block] of blocks.entries()) {
    const line = block.start + 1;
    const whole = block.lines.join("\n");
    const header = HEADER.exec(whole);
    if (!header) {
      const first = block.lines[0] ?? "";
      diagnostics.push({
        code: "notam.header.invalid",
        severity: "skipped",
        message: `NOTAM header "${excerpt(first, 60)}" is not A1234/26 NOTAMN|R|C [ref]`,
        source,
        line,
        record,
        excerpt: excerpt(whole),
      });
      continue;
    }
    const [, paren, id, type, ref] = header;
    const warn = (code: string, message: string): void => {
      diagnostics.push({ code, severity: "warning", message, source, line, record, ...(id ? { id } : {}) });
    };
    let body = stripFooter(whole.slice(header[0].length));
    if (paren) {
      const close = closingParen(body);
      const tail = close < 0 ? "" : body.slice(close + 1);
      if (close < 0) warn("notam.text.unclosed", `NOTAM ${id} opens with "(" and has no closing ")"`);
      else if (tail.trim() !== "") warn("notam.text.ignored", `text after NOTAM ${id} ignored: "${excerpt(tail, 60)}"`);
      if (close >= 0) body = body.slice(0, close);
    }
    const { fields, before } = scanItems(body);
    if (before.trim() !== "")
      warn("notam.text.ignored", `text before Item Q/A of ${id} ignored: "${excerpt(before, 60)}"`);
    const built = buildNotam({ ...fields, id, type, ref }, { source, record, line });
    diagnostics.push(...built.diagnostics);
    if (built.notam) notams.push(built.notam);
  }
  return { notams, diagnostics };
}
