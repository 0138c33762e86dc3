// EAD PIB XML (the briefing EUROCONTROL's EAD and NATS publish) to NOTAMs, each Notam element cut out by the scan
// of src/ingest/xml.ts and read by fast-xml-parser, the one XML library of every XML source:
//   <Pib><AreaPIBHeader><Issued>2026-08-22T11:00:15+00:00</Issued><FIRList><FIR><ICAO>EGTT</ICAO>…
//   <FIRSection>…<Notam><NOF>EGGN</NOF><Series>L</Series><Number>4586</Number><Year>26</Year><Type>N</Type>
//     <QLine><FIR>EGTT</FIR><Code23>IL</Code23><Code45>XX</Code45>…</QLine><Coordinates>5408N00316W</Coordinates>
//     <Radius>5</Radius><ItemA>EGNL</ItemA><StartValidity>2608010000</StartValidity><EndValidity>PERM</EndValidity>
//     <Estimation>EST</Estimation><ItemD>…</ItemD><ItemE>…</ItemE><ItemF>…</ItemF><ItemG>…</ItemG></Notam>
// The header's `Issued` is the briefing's as-of time and its FIR list what it briefs (docs/design.md §4 freshness and
// coverage). One broken Notam is a counted diagnostic; a document that does not parse to its end is cut.
import { XMLValidator } from "fast-xml-parser";
import {
  blankMarkup,
  decodeEntities,
  elements,
  field,
  linesBetween,
  xmlParser as parser,
  text,
} from "../ingest/xml.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { Notam } from "../model/notam.js";
import { buildNotam, type NotamFields } from "./build.js";
import { formatQLine } from "./qline.js";

export interface PibHeader {
  /** `Issued`, epoch ms: the briefing's as-of time. */
  issued?: number;
  /** `Validity/ValidFrom` and `ValidTo`, epoch ms. */
  validFrom?: number;
  validTo?: number;
  /** The FIRs the briefing covers (`AreaPIBHeader/FIRList/FIR/ICAO`), sorted. */
  firs: string[];
  authority?: string;
}

export interface PibReadResult {
  notams: Notam[];
  diagnostics: Diagnostic[];
  header: PibHeader;
  /** The document parsed to its end (false: cut off or not well-formed; then nothing of it may be used). */
  whole: boolean;
}

/** Leaf elements of a `<Notam>` that we keep, by local name. */
const NOTAM_LEAVES = new Set([
  "NOF",
  "Series",
  "Number",
  "Year",
  "Type",
  "ReferredSeries",
  "ReferredNumber",
  "ReferredYear",
  "FIR",
  "Code23",
  "Code45",
  "Traffic",
  "Purpose",
  "Scope",
  "Lower",
  "Upper",
  "Coordinates",
  "Radius",
  "ItemA",
  "StartValidity",
  "EndValidity",
  "Estimation",
  "ItemD",
  "ItemE",
  "ItemF",
  "ItemG",
]);

/** Whether a text is a PIB document (its root element is `Pib`), looking past the prolog and comments. */
export function isPibXml(text: string): boolean {
  const head = text.slice(0, 4096).replace(/<\?[^>]*\?>|<!--[\s\S]*?-->/g, "");
  return /^\s*<(?:[\w.-]+:)?Pib[\s>]/.test(head);
}

export function readPibXml(text: string, source: string): PibReadResult {
  const diagnostics: Diagnostic[] = [];
  const notams: Notam[] = [];
  const header: PibHeader = { firs: [] };
  // a PIB lists a NOTAM once per section it concerns (each aerodrome of Item A, the FIR): one copy is the NOTAM
  const first = new Map<string, Notam>();
  const keep = (n: Notam) => {
    const key = `${n.nof ?? ""} ${n.id}`;
    const seen = first.get(key);
    if (!seen) {
      first.set(key, n);
      notams.push(n);
    } else if (seen.itemE !== n.itemE || seen.itemB !== n.itemB || seen.itemC !== n.itemC) {
      diagnostics.push({
        ...n.origin,
        id: n.id,
        code: "notam.pib.repeated",
        severity: "skipped",
        message: `listed again with other content than record ${seen.origin.record}; the first is kept`,
      });
    }
  };

  // a briefing is used whole or not at all: one that does not parse to its end (cut off, broken) gives nothing
  const { text: xml } = blankMarkup(text.replace(/^\uFEFF/, ""));
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const why = `${valid.err.line}:${valid.err.col}: ${valid.err.msg}`;
    diagnostics.push({
      code: "notam.pib.truncated",
      severity: "skipped",
      message: `${source} is not a whole PIB document (${why}); none of it is used`,
      source,
    });
    return { notams: [], diagnostics, header, whole: false };
  }

  const h = elements(xml, "AreaPIBHeader")[0];
  if (h?.close)
    readHeader(field(parser.parse(xml.slice(h.start, h.close.end)), "AreaPIBHeader"), header, source, diagnostics);
  let [line, counted] = [1, 0];
  for (const [record, e] of elements(xml, "Notam").entries()) {
    line += linesBetween(xml, counted, e.start);
    counted = e.start;
    if (!e.close) continue; // a whole document closes every element
    const leaves = new Map<string, string[]>();
    collect(field(parser.parse(xml.slice(e.start, e.close.end)), "Notam"), leaves);
    const built = buildNotam(notamFields(leaves), { source, record, line });
    diagnostics.push(...built.diagnostics);
    if (built.notam) keep(built.notam);
  }
  if (header.issued === undefined) {
    diagnostics.push({
      code: "notam.pib.noIssued",
      severity: "warning",
      message: `${source}: the PIB header has no Issued time; the source's as-of time is unknown (stale)`,
      source,
    });
  }
  return { notams, diagnostics, header, whole: true };
}

/** The kept leaves of a parsed `<Notam>`, wherever they sit in it (`QLine/FIR`), entities decoded. */
function collect(node: unknown, into: Map<string, string[]>): void {
  if (Array.isArray(node)) for (const n of node) collect(n, into);
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("@_")) continue;
      const values = Array.isArray(v) ? v : [v];
      if (NOTAM_LEAVES.has(k) && values.every((x) => typeof x === "string" || typeof x === "number")) {
        into.set(k, [...(into.get(k) ?? []), ...values.map((x) => decodeEntities(String(x)))]);
      } else collect(v, into);
    }
  }
}

/** `Issued`, `Validity/ValidFrom|ValidTo`, `AuthorityName` and the FIRs of `FIRList` (not each aerodrome's FIR). */
function readHeader(node: unknown, header: PibHeader, source: string, diagnostics: Diagnostic[]): void {
  const leaf = (n: unknown, k: string) => {
    const v = field(n, k);
    return typeof v === "string" ? text(v) : undefined;
  };
  const set = (key: "issued" | "validFrom" | "validTo", value: string | undefined) => {
    if (value === undefined) return;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      diagnostics.push({
        code: "notam.pib.headerTime",
        severity: "warning",
        message: `PIB header ${key} "${value}" is not an ISO 8601 instant; ignored`,
        source,
      });
    } else header[key] = ms;
  };
  set("issued", leaf(node, "Issued"));
  set("validFrom", leaf(field(node, "Validity"), "ValidFrom"));
  set("validTo", leaf(field(node, "Validity"), "ValidTo"));
  const authority = leaf(node, "AuthorityName");
  if (authority) header.authority = authority;
  const firs = [field(field(node, "FIRList"), "FIR")].flat();
  header.firs = [
    ...new Set(firs.map((f) => leaf(f, "ICAO")).filter((f): f is string => /^[A-Z]{4}$/.test(f ?? ""))),
  ].sort();
}

/** The leaves of one `<Notam>` as the NOTAM builder takes them: id `L4586/26`, Q-line text, items. */
function notamFields(f: Map<string, string[]>): NotamFields {
  const one = (k: string) => f.get(k)?.[0]?.trim();
  const id = (series?: string, number?: string, year?: string) =>
    series && number && year ? `${series}${number.padStart(4, "0")}/${year.padStart(2, "0")}` : undefined;
  const code = `${one("Code23") ?? ""}${one("Code45") ?? ""}`;
  const fir = one("FIR");
  const end = one("EndValidity");
  return {
    id: id(one("Series"), one("Number"), one("Year")) ?? `${one("Series") ?? ""}${one("Number") ?? ""}`,
    type: one("Type"),
    ref: id(one("ReferredSeries"), one("ReferredNumber"), one("ReferredYear")),
    nof: one("NOF"),
    q:
      fir && code
        ? formatQLine({
            fir,
            code: `Q${code}`,
            traffic: one("Traffic"),
            purpose: one("Purpose"),
            scope: one("Scope"),
            lower: one("Lower"),
            upper: one("Upper"),
            coordinates: one("Coordinates"),
            radius: one("Radius"),
          })
        : undefined,
    a: f.get("ItemA")?.join(" "),
    b: one("StartValidity"),
    c: end && one("Estimation") === "EST" && /^\d{10}$/.test(end) ? `${end}EST` : end,
    d: f.get("ItemD")?.[0],
    e: f.get("ItemE")?.[0],
    f: one("ItemF"),
    g: one("ItemG"),
  };
}
