// Bytes to text (gunzipped first when gzip): UTF-8 (with or without BOM), else Windows-1252 (a superset of Latin-1 for printable text).
// Real files: the DAeC OpenAir file is Latin-1, flyland's has a BOM, a 2018 XML name holds a stray U+0096.
import { gunzipSync } from "node:zlib";
import type { Diagnostic } from "../model/diagnostic.js";

export interface DecodedText {
  text: string;
  encoding: "utf-8" | "windows-1252";
  bom: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const cp1252 = new TextDecoder("windows-1252");

// Node ≥ 20.18.3 decodes "windows-1252" as Latin-1 (nodejs/node#60888), leaving 0x80–0x9F as C1 controls:
// map them ourselves (WHATWG index-windows-1252; 0x81 0x8D 0x8F 0x90 0x9D stay C1 and are blanked by cleanLabel).
const CP1252_C1 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";
const C1_ALL = /[\u0080-\u009f]/g;
const fromC1 = (text: string): string => text.replace(C1_ALL, (c) => CP1252_C1[c.charCodeAt(0) - 0x80] ?? c);

export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(body), encoding: "utf-8", bom };
  } catch {
    return { text: fromC1(cp1252.decode(body)), encoding: "windows-1252", bom };
  }
}

/**
 * Cleans a display string: C1 control characters (a cp1252 byte read as Latin-1, `LCA \u0096 FIR`) become
 * their cp1252 character, other control characters and repeated blanks collapse to one space.
 * Returns the text and whether anything was repaired.
 */
export function cleanLabel(raw: string): { text: string; repaired: boolean } {
  const fixed = undoDoubleUtf8(raw);
  const hasC1 = /[\u0080-\u009f]/.test(fixed);
  let text = hasC1 ? fromC1(fixed) : fixed;
  text = text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { text, repaired: hasC1 || fixed !== raw };
}

/**
 * UTF-8 that was decoded as Latin-1 once too often (`CORRENÃ\u0087ON` for `CORRENÇON`, seen in the 2025 FR
 * OpenAir export): re-encode as Latin-1 and decode as UTF-8, kept only when that is valid UTF-8.
 */
function undoDoubleUtf8(text: string): string {
  if (!/[\u00c2-\u00f4][\u0080-\u00bf]/.test(text) || /[^\u0000-\u00ff]/.test(text)) return text;
  try {
    return utf8.decode(Buffer.from(text, "latin1"));
  } catch {
    return text;
  }
}

/** A diagnostic for a decoded source, when its encoding deserves a mention. */
export function encodingDiagnostic(source: string, d: DecodedText): Diagnostic | undefined {
  if (d.encoding === "utf-8") return undefined;
  return {
    code: "source.encoding.windows1252",
    severity: "repaired",
    message: `${source} is not UTF-8; read as Windows-1252 (Latin-1)`,
    source,
  };
}

/** A gzip file (`fr_asp.txt.gz`, `pib.xml.gz`, a download served gzipped) as what it holds; other bytes as they are. */
export function gunzipped(bytes: Uint8Array): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { ok: true, bytes };
  try {
    return { ok: true, bytes: gunzipSync(bytes) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `starts like gzip but does not gunzip (${reason})` };
  }
}
