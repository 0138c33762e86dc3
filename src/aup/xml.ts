// EUROCONTROL NM B2B EAUP/EUUP RSA replies and AIXM 5.1 Digital NOTAM SAA.ACT messages to AUP plans:
//   <as:EAUPRSAsReply>…<releaseTime>2022-02-22 15:00</releaseTime>…<chainDate>2022-02-23</chainDate>
//     <sequenceNumber>1</sequenceNumber>…<adrmsg:ADRMessage><adrmsg:hasMember><aixm:Airspace>…
//   <message:AIXMBasicMessage><message:hasMember><aixm:Airspace>… <event:Event>…
// Elements are matched by local name, whatever their prefix. Each `Airspace` element is checked and parsed on its own,
// so a bad element or a cut transfer keeps its neighbours. No DTD is read and no entity is expanded: comments and the
// DOCTYPE are blanked before anything is parsed, the parser sees Airspace elements only (`processEntities: false`),
// and only the five predefined entities and `&#…;` are decoded.
import { XMLValidator } from "fast-xml-parser";
import { blankMarkup, type Element, elements, linesBetween as lines, xmlParser as parser } from "../ingest/xml.js";
import type { AupAllocation, AupPlan } from "../model/aup.js";
import { type Diagnostic, excerpt, type Severity } from "../model/diagnostic.js";
import { readAirspace } from "./xml-airspace.js";
import { aupDayOf, aupDayStart, DAY, field, iso } from "./xml-node.js";
import { eventNames, type Header, readHeader } from "./xml-scan.js";

/** Larger sources are refused unread. */
export const MAX_AUP_XML_BYTES = 16 * 1024 * 1024;

export interface AupXmlResult {
  plans: AupPlan[];
  diagnostics: Diagnostic[];
}

const UNKNOWN_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);)[a-z_][\w.-]*;/i;

/** One Airspace element: the parsed node, or why not. */
function parseAirspace(chunk: string): { node: unknown } | { error: string; line?: number } {
  if (/<!(DOCTYPE|ENTITY)/i.test(chunk)) return { error: "DTD declaration inside the element" };
  const valid = XMLValidator.validate(chunk);
  if (valid !== true) return { error: valid.err.msg, line: valid.err.line };
  try {
    return { node: field(parser.parse(chunk), "Airspace") };
  } catch (cause) {
    return { error: cause instanceof Error ? cause.message : String(cause) };
  }
}

const byStart = (a: AupAllocation, b: AupAllocation): number =>
  a.start - b.start ||
  (a.designator < b.designator ? -1 : a.designator > b.designator ? 1 : 0) ||
  a.end - b.end ||
  a.origin.record - b.origin.record;

/** The diagnostics of one message, each naming its source: passed to each step. */
interface Report {
  source: string;
  diagnostics: Diagnostic[];
}

function add(r: Report, code: string, severity: Severity, message: string, more: Partial<Diagnostic> = {}): void {
  r.diagnostics.push({ code, severity, message, source: r.source, ...more });
}

/** No plan: the message is refused with one `skipped` diagnostic. */
function refuse(r: Report, code: string, message: string): AupXmlResult {
  add(r, code, "skipped", message);
  return { plans: [], diagnostics: r.diagnostics };
}

/** Reads a whole message; never throws on bad input. */
export function readAupXml(input: string, source: string): AupXmlResult {
  const report: Report = { source, diagnostics: [] };
  const bytes = Buffer.byteLength(input, "utf8");
  if (bytes > MAX_AUP_XML_BYTES) {
    return refuse(report, "aup.xml.tooLarge", `${bytes} bytes exceed the ${MAX_AUP_XML_BYTES}-byte limit; not parsed`);
  }
  const { text: xml, doctype } = blankMarkup(input.replace(/^\uFEFF/, ""));
  const rootMatch = /<([A-Za-z_][\w.-]*(?::[\w.-]+)?)(?=[\s>/])/.exec(xml);
  if (!rootMatch) return refuse(report, "aup.xml.malformed", `no root element: "${excerpt(input, 60)}"`);
  const root = rootMatch[1] ?? "";
  if (doctype)
    add(report, "aup.xml.doctypeIgnored", "warning", "DOCTYPE ignored: no DTD is read and no entity is expanded");
  const check = XMLValidator.validate(xml);
  const truncated = check !== true && !new RegExp(`</${root.replace(/\./g, "\\.")}\\s*>`).test(xml);

  const found = elements(xml, "Airspace");
  const { allocations, cuts, cutInside } = readAirspaces(xml, found, truncated, report);
  const envelope = cutOut(xml, cuts);
  if (check !== true && !truncated) {
    const outer = XMLValidator.validate(envelope);
    if (outer !== true && found.length === 0) {
      return refuse(report, "aup.xml.malformed", `not well-formed XML at line ${check.err.line}: ${check.err.msg}`);
    }
    if (outer !== true) {
      const message = `not well-formed outside its Airspace elements (${outer.err.msg}); each element read on its own`;
      add(report, "aup.xml.malformed", "warning", message);
    }
  }
  if (truncated && !cutInside) {
    add(
      report,
      "aup.xml.truncated",
      "skipped",
      `source ends before </${root}>; ${allocations.length} allocations read`,
    );
  }

  const header = readHeader(envelope, root);
  allocations.sort(byStart);
  const groups = groupByDay(allocations, header.day, truncated, report);
  if (groups.size === 0 && !truncated && report.diagnostics.every((d) => d.severity !== "skipped")) {
    add(report, "aup.xml.empty", "warning", `no activation and no plan header in <${root}>; no plan`);
  }
  return { plans: plansOf(groups, allocations, header, report), diagnostics: report.diagnostics };
}

/** What the Airspace elements give: their allocations, their spans in the text, whether the source ends in one. */
interface Airspaces {
  allocations: AupAllocation[];
  cuts: Array<[number, number]>;
  cutInside: boolean;
}

/** Reads each Airspace element on its own: one that is cut or not well-formed is reported and skipped. */
function readAirspaces(xml: string, found: Element[], truncated: boolean, report: Report): Airspaces {
  const names = eventNames(xml);
  const out: Airspaces = { allocations: [], cuts: [], cutInside: false };
  let [line, counted] = [1, 0];
  for (const [record, { start, close }] of found.entries()) {
    line += lines(xml, counted, start);
    counted = start;
    const next = found[record + 1]?.start ?? xml.length;
    const at = { record, line };
    if (!close) {
      out.cuts.push([start, next]);
      const shown = { ...at, excerpt: excerpt(xml.slice(start, Math.min(next, start + 200))) };
      out.cutInside = truncated && record === found.length - 1;
      if (out.cutInside)
        add(report, "aup.xml.truncated", "skipped", `source ends inside the Airspace element at line ${line}`, shown);
      else add(report, "aup.xml.airspaceMalformed", "skipped", "Airspace element without its closing tag", shown);
      continue;
    }
    const stop = close.end;
    out.cuts.push([start, stop]);
    const chunk = xml.slice(start, stop);
    const parsed = parseAirspace(chunk);
    if ("error" in parsed) {
      // the validator counts lines from the element's start tag
      const error = parsed.error.replace(/\bline (\d+)/g, (_, n: string) => `line ${line + Number(n) - 1}`);
      const where = parsed.line === undefined ? "" : ` at line ${line + parsed.line - 1}`;
      add(report, "aup.xml.airspaceMalformed", "skipped", `not well-formed${where}: ${error}`, {
        ...at,
        excerpt: excerpt(chunk),
      });
      continue;
    }
    const entity = UNKNOWN_ENTITY.exec(chunk)?.[0];
    if (entity) add(report, "aup.xml.entityNotExpanded", "warning", `entity reference ${entity} kept as written`, at);
    const result = readAirspace(parsed.node, { source: report.source, record, line, eventNames: names });
    out.allocations.push(...result.allocations);
    report.diagnostics.push(...result.diagnostics);
  }
  return out;
}

/** The text with the `cuts` spans taken out: the envelope that holds the plan header. */
function cutOut(xml: string, cuts: Array<[number, number]>): string {
  let envelope = "";
  let from = 0;
  for (const [a, b] of cuts) {
    envelope += xml.slice(from, a);
    from = b;
  }
  return envelope + xml.slice(from);
}

/** Allocations by AUP day: all in the header's day when there is one, else each in the day its start falls in. */
function groupByDay(
  allocations: AupAllocation[],
  day: string | undefined,
  truncated: boolean,
  report: Report,
): Map<string, AupAllocation[]> {
  const groups = new Map<string, AupAllocation[]>();
  if (day !== undefined && !(truncated && allocations.length === 0)) {
    groups.set(day, allocations);
    const dayStart = aupDayStart(day);
    for (const a of allocations.filter((x) => x.end <= dayStart || x.start >= dayStart + DAY)) {
      const message = `${a.designator} ${iso(a.start)}–${iso(a.end)} lies outside the AUP day ${day}`;
      add(report, "aup.time.outsideDay", "warning", message, { record: a.origin.record, name: a.designator });
    }
  } else {
    // No plan header (a Digital NOTAM): each allocation belongs to the AUP day its start falls in.
    for (const a of allocations) {
      const aupDay = aupDayOf(a.start);
      const group = groups.get(aupDay) ?? [];
      groups.set(aupDay, group);
      group.push(a);
    }
  }
  return groups;
}

/** One plan per AUP day, in day order; without an issue time in the header, one is guessed and reported. */
function plansOf(
  groups: Map<string, AupAllocation[]>,
  allocations: AupAllocation[],
  header: Header,
  report: Report,
): AupPlan[] {
  let issued = header.issued;
  if (issued === undefined && groups.size > 0) {
    issued = allocations[0]?.start ?? aupDayStart([...groups.keys()][0] ?? "");
    add(
      report,
      "aup.xml.issuedMissing",
      "repaired",
      `no releaseTime, timePosition or creationTime; ordered as issued ${iso(issued)}, as-of time unknown`,
    );
  }
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([aupDay, list]): AupPlan => ({
        aupDay,
        kind: header.kind,
        issued: issued ?? 0,
        issuedFrom: header.issued === undefined ? "guessed" : "content",
        source: report.source,
        allocations: list,
      }),
    );
}
