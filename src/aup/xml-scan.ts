// Linear scans over the raw message text, before and beside the XML parser: comments and the DOCTYPE blanked,
// elements found by local name and paired with their closing tags, the plan header's leaf values. Every scan is
// one pass (indexOf or a single global regex), so 16 MiB of unclosed tags cannot make it quadratic.
import type { PlanKind } from "../model/aup.js";
import { aupDayOf, decodeEntities, parseInstant, uuidKey } from "./xml-node.js";

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

/** Event uuid → name (`EAR2_20180510`), from the `event:Event` members of a Digital NOTAM message. */
export function eventNames(xml: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of elements(xml, "Event")) {
    const id = /\bid="([^"]*)"/.exec(xml.slice(e.start, e.openEnd))?.[1];
    const name = e.close && leaf(xml.slice(e.openEnd, e.close.start), "name");
    if (id && name) names.set(uuidKey(id), name);
  }
  return names;
}

export interface Header {
  day: string | undefined;
  kind: PlanKind;
  issued: number | undefined;
}

/** Plan header: AUP day, kind and issue time, from what is left once the Airspace elements are cut out. */
export function readHeader(envelope: string, root: string): Header {
  const chain = leaf(envelope, "chainDate") ?? "";
  const wef = parseInstant(leaf(envelope, "wef") ?? "");
  const day = /^\d{4}-\d{2}-\d{2}$/.test(chain) ? chain : wef === undefined ? undefined : aupDayOf(wef);
  // EAUP chain: sequence 1 is the EAUP, later ones are EUUPs; per-AMC AUPs say aupType UPDATE.
  const id = elements(envelope, "eaupId")[0];
  const eaupId = id?.close ? envelope.slice(id.openEnd, id.close.start) : "";
  const uup =
    Number(leaf(eaupId, "sequenceNumber") ?? "1") > 1 ||
    (leaf(envelope, "aupType") ?? "").toUpperCase() === "UPDATE" ||
    /UUP/i.test(root) ||
    />\s*E?UUP\s*</i.test(envelope);
  const issued = ["releaseTime", "timePosition", "creationTime"]
    .map((name) => parseInstant(leaf(envelope, name) ?? ""))
    .find((t) => t !== undefined);
  return { day, kind: uup ? "UUP" : "AUP", issued };
}
