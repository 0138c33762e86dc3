// Legacy openAIP v1 XML (`.aip`, DATAFORMAT 1.1, the 2018 exports) to airspace records:
//   <ASP CATEGORY="CTR"><ID>89345</ID><COUNTRY>BE</COUNTRY><NAME>ANTWERP CTR 135.200</NAME>
//     <ALTLIMIT_TOP REFERENCE="MSL"><ALT UNIT="F">2500</ALT></ALTLIMIT_TOP> …
//     <GEOMETRY><POLYGON>4.2666666666667 51.268333333333, 4.6269444444444 51.268333333333, …</POLYGON></GEOMETRY></ASP>
// Each <ASP> is checked and parsed on its own, so a bad record or a cut file keeps its neighbours. Entities are
// never expanded (no DTD, `processEntities: false`); only the five predefined ones and &#…; are decoded.
import { XMLValidator } from "fast-xml-parser";
import type { ReadResult } from "../model/airspace.js";
import { type Diagnostic, excerpt, type Severity } from "../model/diagnostic.js";
import { LimitUnit, ReferenceDatum } from "../model/vocab.js";
import { airspaceFromOpenAipItem, type ItemResult } from "./openaip-item.js";
import { field, xmlParser as parser, text } from "./xml.js";

/** Larger sources are refused unread. */
export const MAX_XML_BYTES = 64 * 1024 * 1024;

/** The only DATAFORMAT this reader knows. */
export const XML_DATAFORMAT = "1.1";

/** `<ASP CATEGORY>` → [type, icaoClass] (data/airspace/PROVENANCE.md §4). */
export const XML_CATEGORIES = {
  A: [0, 0],
  B: [0, 1],
  C: [0, 2],
  D: [0, 3],
  E: [0, 4],
  F: [0, 5],
  G: [0, 6],
  CTR: [4, 8],
  RESTRICTED: [1, 8],
  DANGER: [2, 8],
  PROHIBITED: [3, 8],
  TMZ: [5, 8],
  RMZ: [6, 8],
  FIR: [10, 8],
  UIR: [11, 8],
  GLIDING: [21, 8],
  WAVE: [21, 8],
} as const satisfies Record<string, readonly [number, number]>;

const XML_UNITS: Record<string, number> = { F: LimitUnit.FEET, FL: LimitUnit.FLIGHT_LEVEL, M: LimitUnit.METER };
const XML_REFERENCES: Record<string, number> = {
  GND: ReferenceDatum.GND,
  MSL: ReferenceDatum.MSL,
  STD: ReferenceDatum.STD,
};

type Limit = { value: number; unit: number; referenceDatum: number | null };

/** `<ALTLIMIT_TOP REFERENCE="MSL"><ALT UNIT="F">2500</ALT></ALTLIMIT_TOP>`; an empty REFERENCE is null. */
function readLimit(node: unknown, tag: string): Limit | string {
  const alt = field(node, "ALT");
  const ref = text(field(node, "@_REFERENCE")) ?? "";
  const unitText = text(field(alt, "@_UNIT")) ?? "";
  const valueText = text(alt) ?? "";
  const unit = XML_UNITS[unitText.toUpperCase()];
  const referenceDatum = ref === "" ? null : XML_REFERENCES[ref.toUpperCase()];
  const shown = `<${tag} REFERENCE="${ref}"><ALT UNIT="${unitText}">${valueText}</ALT>`;
  if (unit === undefined) return `unknown UNIT in ${shown}`;
  if (referenceDatum === undefined) return `unknown REFERENCE in ${shown}`;
  if (!/^-?\d+(\.\d+)?$/.test(valueText)) return `altitude is not a number in ${shown}`;
  return { value: Number(valueText), unit, referenceDatum };
}

/** "lon lat, lon lat, …" → ring; a string names the first bad position. */
function readPolygon(raw: string): Array<[number, number]> | string {
  const ring: Array<[number, number]> = [];
  for (const pair of raw.split(",")) {
    const parts = pair.trim().split(/\s+/);
    const [lon = Number.NaN, lat = Number.NaN] = parts.map(Number);
    if (parts.length !== 2 || !Number.isFinite(lon) || !Number.isFinite(lat)) {
      return `POLYGON position "${pair.trim()}" is not "lon lat"`;
    }
    ring.push([lon, lat]);
  }
  return ring;
}

/** Reads a whole `.aip` document; never throws on bad input. */
export function readOpenAipXml(input: string, source: string): ReadResult {
  const wholeSource = (code: string, message: string): ReadResult => ({
    records: [],
    diagnostics: [{ code, severity: "skipped", message, source }],
  });
  const bytes = Buffer.byteLength(input, "utf8");
  if (bytes > MAX_XML_BYTES) {
    return wholeSource("xml.tooLarge", `${bytes} bytes exceed the ${MAX_XML_BYTES}-byte limit; not parsed`);
  }
  const root = /<OPENAIP\b[^>]*>/.exec(input);
  const closed = input.includes("</OPENAIP>");
  const check = XMLValidator.validate(input);
  const truncated = check !== true && root !== null && !closed;
  if (check !== true && !truncated) {
    return wholeSource("xml.malformed", `not well-formed XML at line ${check.err.line}: ${check.err.msg}`);
  }
  if (root === null) return wholeSource("xml.malformed", `no <OPENAIP> root element: "${excerpt(input, 40)}"`);
  const diagnostics: Diagnostic[] = [];
  const add = (code: string, severity: Severity, message: string, more: Partial<Diagnostic> = {}): void => {
    diagnostics.push({ code, severity, message, source, ...more });
  };
  const format = /\bDATAFORMAT\s*=\s*"([^"]*)"/.exec(root[0])?.[1];
  if (format === undefined)
    add("xml.version.missing", "warning", `${root[0]} has no DATAFORMAT; read as ${XML_DATAFORMAT}`);
  else if (format !== XML_DATAFORMAT) {
    return wholeSource("xml.version.unsupported", `DATAFORMAT "${format}" is not ${XML_DATAFORMAT}; not read`);
  }
  if (/<!DOCTYPE/i.test(input.slice(0, root.index)))
    add("xml.doctype.ignored", "warning", "DOCTYPE ignored: no entity is expanded");

  const records: ReadResult["records"] = [];
  const starts = [...input.matchAll(/<ASP[\s>/]/g)].map((m) => m.index).filter((i) => i > root.index);
  let line = 1;
  let counted = 0;
  let cut = false;
  for (const [record, start] of starts.entries()) {
    for (let i = input.indexOf("\n", counted); i !== -1 && i < start; i = input.indexOf("\n", i + 1)) line++;
    counted = start;
    const next = starts[record + 1] ?? input.length;
    const close = input.indexOf("</ASP>", start);
    const at = { record, line };
    if (close === -1 || close > next) {
      cut = truncated && record === starts.length - 1;
      const shown = { ...at, excerpt: excerpt(input.slice(start, Math.min(next, start + 200))) };
      const message = `source ends inside <ASP> at line ${line}; ${records.length} records read`;
      if (cut) add("xml.truncated", "skipped", message, shown);
      else add("xml.record.malformed", "skipped", "<ASP> without </ASP>", shown);
      continue;
    }
    const chunk = input.slice(start, close + "</ASP>".length);
    const valid = XMLValidator.validate(chunk);
    if (valid !== true) {
      const message = `not well-formed at line ${line + valid.err.line - 1}: ${valid.err.msg}`;
      add("xml.record.malformed", "skipped", message, { ...at, excerpt: excerpt(chunk) });
      continue;
    }
    const result = readAsp(field(parser.parse(chunk), "ASP"), { source, ...at });
    if (result.record) records.push(result.record);
    diagnostics.push(...result.diagnostics);
  }
  if (truncated && !cut)
    add("xml.truncated", "skipped", `source ends before </OPENAIP>; ${records.length} records read`);
  return { records, diagnostics };
}

/** One parsed `<ASP>` element: translated to an openAIP item, then mapped by the shared item reader. */
function readAsp(node: unknown, at: { source: string; record: number; line: number }): ItemResult {
  const diagnostics: Diagnostic[] = [];
  const rawId = text(field(node, "ID")) ?? "";
  const id = rawId === "" ? undefined : `v1-${rawId}`;
  const rawName = field(node, "NAME");
  const name = text(rawName);
  const known = { ...at, ...(id === undefined ? {} : { id }), ...(name ? { name } : {}) };
  const add = (code: string, severity: Severity, message: string): void => {
    diagnostics.push({ code, severity, message, ...known });
  };
  const skip = (code: string, message: string): ItemResult => ({
    diagnostics: [{ code, severity: "skipped", message, ...known }],
  });

  const category = (text(field(node, "@_CATEGORY")) ?? "").toUpperCase();
  const mapped = (XML_CATEGORIES as Record<string, readonly [number, number]>)[category];
  if (mapped === undefined)
    add("xml.category.unknown", "warning", `CATEGORY "${category}" unknown; read as type 0, class 8`);
  if (typeof rawName === "string" && /&[a-z_][\w.-]*;/i.test(rawName.replace(/&(amp|lt|gt|quot|apos);/g, ""))) {
    add("xml.entity.notExpanded", "warning", `NAME "${rawName}" holds an entity reference; kept as written`);
  }
  const upperLimit = readLimit(field(node, "ALTLIMIT_TOP"), "ALTLIMIT_TOP");
  if (typeof upperLimit === "string") return skip("xml.limit.invalid", upperLimit);
  const lowerLimit = readLimit(field(node, "ALTLIMIT_BOTTOM"), "ALTLIMIT_BOTTOM");
  if (typeof lowerLimit === "string") return skip("xml.limit.invalid", lowerLimit);
  const polygon = text(field(field(node, "GEOMETRY"), "POLYGON")) ?? "";
  const ring = polygon === "" ? undefined : readPolygon(polygon);
  if (typeof ring === "string") return skip("xml.geometry.invalidCoordinate", ring);

  const [type, icaoClass] = mapped ?? [0, 8];
  const country = text(field(node, "COUNTRY"));
  const props = { _id: id, name: name ?? null, type, icaoClass, country, upperLimit, lowerLimit };
  const geometry = ring === undefined ? undefined : { type: "Polygon", coordinates: [ring] };
  const result = airspaceFromOpenAipItem(props, geometry, at);
  for (const d of result.diagnostics) diagnostics.push({ ...d, code: d.code.replace(/^airspace\./, "xml.") });
  return { ...(result.record ? { record: result.record } : {}), diagnostics };
}
