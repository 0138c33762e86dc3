// A NOTAM source as bytes (a file, a download): gunzip when gzip, decode, then EAD PIB XML, SOFIA-Briefing text,
// the FAA NOTAM API's JSON, JSON lines or ICAO text, recognised by content. A PIB says when it was issued and which FIRs it briefs (its as-of
// time and coverage, docs/design.md §4); the other formats do not (a SOFIA route brief lists a corridor, not whole FIRs).
// The caller does the I/O; this stays pure.
import { createHash } from "node:crypto";
import { decodeText, encodingDiagnostic, gunzipped } from "../ingest/text.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { NotamReadResult } from "./build.js";
import { isFaaJson, readFaaJson } from "./faa-json.js";
import { readNotamJsonLines } from "./jsonl.js";
import { isPibXml, readPibXml } from "./pib-xml.js";
import { isSofiaText, readSofiaText } from "./sofia.js";
import { readNotamText } from "./text.js";

export type NotamFormat = "pib-xml" | "sofia" | "faa-json" | "jsonl" | "text";

export interface NotamSourceResult extends NotamReadResult {
  format: NotamFormat;
  /** SHA-256 of the source bytes as given (before gunzip), for the manifest. */
  sha256: string;
  /** When the content says it was issued (a PIB's `Issued`), epoch ms. */
  asOf?: number;
  /** The FIRs the content says it briefs (a PIB's header FIR list). */
  coverage?: string[];
}

/**
 * Reads one NOTAM source; never throws. JSON lines when the first non-blank character is `{`. `readAgain` false: no
 * memo of a feed's lines is kept for a next reading (notam/jsonl.ts).
 */
export function readNotamSource(bytes: Uint8Array, source: string, readAgain = true): NotamSourceResult {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const body = gunzipped(bytes);
  if (!body.ok) {
    return {
      notams: [],
      diagnostics: [{ code: "notam.source.gzip", severity: "skipped", message: `${source} ${body.reason}`, source }],
      format: "text",
      sha256,
    };
  }
  const decoded = decodeText(body.bytes);
  const diagnostics: Diagnostic[] = [];
  const encoding = encodingDiagnostic(source, decoded);
  if (encoding) diagnostics.push(encoding);
  if (isPibXml(decoded.text)) {
    const pib = readPibXml(decoded.text, source);
    return {
      notams: pib.notams,
      diagnostics: [...diagnostics, ...pib.diagnostics],
      format: "pib-xml",
      sha256,
      ...(pib.header.issued === undefined ? {} : { asOf: pib.header.issued }),
      ...(pib.header.firs.length > 0 ? { coverage: pib.header.firs } : {}),
    };
  }
  if (isSofiaText(decoded.text)) {
    const sofia = readSofiaText(decoded.text, source);
    return { notams: sofia.notams, diagnostics: [...diagnostics, ...sofia.diagnostics], format: "sofia", sha256 };
  }
  if (isFaaJson(decoded.text)) {
    const faa = readFaaJson(decoded.text, source);
    return { notams: faa.notams, diagnostics: [...diagnostics, ...faa.diagnostics], format: "faa-json", sha256 };
  }
  const format: NotamFormat = /^\s*\{/.test(decoded.text) ? "jsonl" : "text";
  const read =
    format === "jsonl" ? readNotamJsonLines(decoded.text, source, readAgain) : readNotamText(decoded.text, source);
  if (decoded.text.trim() === "") {
    diagnostics.push({ code: "notam.source.empty", severity: "warning", message: `${source} holds no text`, source });
  }
  return { notams: read.notams, diagnostics: [...diagnostics, ...read.diagnostics], format, sha256 };
}
