// XML, one library for every XML source (issue 17): fast-xml-parser reads each element a linear scan cuts out of
// the text (openAIP XML, NM B2B and AIXM messages, EAD PIB). The scan is kept because it is measurably needed:
// fast-xml-parser refuses a document with one broken element whole, and the scan lets that element be one
// diagnostic while its neighbours are read (fixtures/aup/invalid-malformed-airspace.xml), gives each record its line,
// and blanks comments and the DOCTYPE first so no DTD is read and no entity expanded. No source is large enough to
// need streaming: NM B2B answers are capped at 16 MiB, and the 1.7 MB UK PIB parses in 137 ms (bench/uk.ts; saxes, the
// streaming parser it replaced there, took 33 ms: both far under the 0.5 s goal, and one library serves all).
// Every scan is one pass (indexOf or a single global regex), so 16 MiB of unclosed tags cannot make it quadratic.
import { XMLParser } from "fast-xml-parser";
import { isRecord } from "../model/json.js";

/** Elements by local name, namespace prefixes dropped, attributes as `@_name`, values as written, no entities. */
export const xmlParser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const ENTITY_REF = /&(#x[0-9a-f]+|#\d+|[a-z_][\w.-]*);/gi;

/** Decodes predefined entities and character references; any other `&name;` stays as written. */
export function decodeEntities(s: string): string {
  return s.replace(ENTITY_REF, (all, ref: string) => {
    if (!ref.startsWith("#")) return PREDEFINED[ref] ?? all;
    const cp = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/** A child element (or attribute `@_name`) of a parsed node by local name. */
export const field = (node: unknown, key: string): unknown => (isRecord(node) ? node[key] : undefined);

/** Text of an element: a string, or `#text` beside attributes (`""` when it has none); undefined when absent. */
export function text(node: unknown): string | undefined {
  if (typeof node === "string") return decodeEntities(node).trim();
  if (!isRecord(node)) return undefined;
  const t = node["#text"];
  return typeof t === "string" ? decodeEntities(t).trim() : "";
}

/** Lines between two offsets of a text (for the line of each element). */
export const linesBetween = (s: string, from: number, to: number): number => s.slice(from, to).split("\n").length - 1;

/** Any namespace prefix (or none): elements are matched by local name. */
export const PREFIX = "(?:[A-Za-z_][\\w.-]*:)?";

/** Same length, same line breaks: positions and line numbers survive. */
const blank = (s: string): string => s.replace(/[^\n]/g, " ");

/** Blanks the comments and the first DOCTYPE (with its internal subset); says whether there was a DOCTYPE. */
export function blankMarkup(xml: string): { text: string; doctype: boolean } {
  let text = "";
  let from = 0;
  for (let i = xml.indexOf("<!--"); i !== -1; i = xml.indexOf("<!--", from)) {
    const j = xml.indexOf("-->", i + 4);
    if (j === -1) break;
    text += xml.slice(from, i) + blank(xml.slice(i, j + 3));
    from = j + 3;
  }
  text += xml.slice(from);
  const at = text.search(/<!DOCTYPE/i);
  if (at === -1) return { text, doctype: false };
  const [bracket, gt] = [text.indexOf("[", at), text.indexOf(">", at)];
  let end = gt;
  if (bracket !== -1 && bracket < gt) {
    const rb = text.indexOf("]", bracket);
    end = rb === -1 ? -1 : text.indexOf(">", rb);
  }
  if (end === -1) return { text, doctype: true };
  return { text: text.slice(0, at) + blank(text.slice(at, end + 1)) + text.slice(end + 1), doctype: true };
}

export interface Element {
  start: number;
  /** Just after the opening tag. */
  openEnd: number;
  /** The closing tag's start and end, when it comes before the next element of that name. */
  close?: { start: number; end: number };
}

/** Elements by local name, each paired with the first closing tag after it and before the next one opens. */
export function elements(xml: string, name: string): Element[] {
  const opens = [...xml.matchAll(new RegExp(`<${PREFIX}${name}(?=[\\s>/])[^<>]*>`, "g"))];
  const closes = [...xml.matchAll(new RegExp(`</${PREFIX}${name}\\s*>`, "g"))];
  let j = 0;
  return opens.map((m, i) => {
    const next = opens[i + 1]?.index ?? xml.length;
    while (j < closes.length && (closes[j]?.index ?? 0) < m.index) j++;
    const [c, openEnd] = [closes[j], m.index + m[0].length];
    // `<aixm:Airspace … />` is an empty element: it closes itself
    if (m[0].endsWith("/>")) return { start: m.index, openEnd, close: { start: openEnd, end: openEnd } };
    const close = c && c.index < next ? { close: { start: c.index, end: c.index + c[0].length } } : {};
    return { start: m.index, openEnd, ...close };
  });
}

/** First `<prefix:name …>text</…>` in the text. */
export function leaf(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${PREFIX}${name}(?:\\s[^>]*)?>([^<]*)</`).exec(xml);
  return m ? decodeEntities(m[1] ?? "").trim() : undefined;
}
