// Bytes to text: UTF-8 (with or without BOM), else Windows-1252 (a superset of Latin-1 for printable text).
// Real files: the DAeC OpenAir file is Latin-1, flyland's has a BOM, a 2018 XML name holds a stray U+0096.
import type { Diagnostic } from "../model/diagnostic.js";

export interface DecodedText {
  text: string;
  encoding: "utf-8" | "windows-1252";
  bom: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const cp1252 = new TextDecoder("windows-1252");

export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(body), encoding: "utf-8", bom };
  } catch {
    return { text: cp1252.decode(body), encoding: "windows-1252", bom };
  }
}

const C1 = /[\u0080-\u009f]/g;

/**
 * Cleans a display string: C1 control characters (a cp1252 byte read as Latin-1, `LCA \u0096 FIR`) become
 * their cp1252 character, other control characters and repeated blanks collapse to one space.
 * Returns the text and whether anything was repaired.
 */
export function cleanLabel(raw: string): { text: string; repaired: boolean } {
  const hasC1 = /[\u0080-\u009f]/.test(raw);
  let text = hasC1 ? raw.replace(C1, (c) => cp1252.decode(Uint8Array.of(c.charCodeAt(0)))) : raw;
  text = text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { text, repaired: hasC1 };
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
