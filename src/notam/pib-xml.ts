// EAD PIB XML (the briefing EUROCONTROL's EAD and NATS publish) to NOTAMs, read as a stream with saxes:
//   <Pib><AreaPIBHeader><Issued>2026-08-22T11:00:15+00:00</Issued><FIRList><FIR><ICAO>EGTT</ICAO>…
//   <FIRSection>…<Notam><NOF>EGGN</NOF><Series>L</Series><Number>4586</Number><Year>26</Year><Type>N</Type>
//     <QLine><FIR>EGTT</FIR><Code23>IL</Code23><Code45>XX</Code45>…</QLine><Coordinates>5408N00316W</Coordinates>
//     <Radius>5</Radius><ItemA>EGNL</ItemA><StartValidity>2608010000</StartValidity><EndValidity>PERM</EndValidity>
//     <Estimation>EST</Estimation><ItemD>…</ItemD><ItemE>…</ItemE><ItemF>…</ItemF><ItemG>…</ItemG></Notam>
// The header's `Issued` is the briefing's as-of time and its FIR list what it briefs (DESIGN §4 freshness and
// coverage). One broken Notam is a counted diagnostic; a document that does not parse to its end is cut.
import { SaxesParser } from "saxes";
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
  const notams: Notam[] = [];
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
  const diagnostics: Diagnostic[] = [];
  const header: PibHeader = { firs: [] };
  const headerFirs = new Set<string>();
  const path: string[] = [];
  let fields: Map<string, string[]> | undefined;
  let leaf = "";
  let record = 0;
  let line = 0;
  let failure: string | undefined;

  const parser = new SaxesParser({ xmlns: false, position: true });
  parser.on("opentag", (tag) => {
    const name = local(tag.name);
    path.push(name);
    if (name === "Notam") {
      fields = new Map();
      line = parser.line;
    }
    leaf = "";
  });
  parser.on("text", (t) => {
    leaf += t;
  });
  parser.on("cdata", (t) => {
    leaf += t;
  });
  parser.on("closetag", () => {
    const name = path.pop() ?? "";
    const parent = path[path.length - 1];
    if (fields && name === "Notam") {
      const built = buildNotam(notamFields(fields), { source, record: record++, line });
      diagnostics.push(...built.diagnostics);
      if (built.notam) keep(built.notam);
      fields = undefined;
    } else if (fields && NOTAM_LEAVES.has(name)) {
      fields.set(name, [...(fields.get(name) ?? []), leaf]);
    } else if (path[1] === "AreaPIBHeader" && path.length <= 4) {
      headerLeaf(name, parent, leaf.trim());
    }
    leaf = "";
  });
  parser.on("error", (e) => {
    failure ??= e.message;
  });

  const headerLeaf = (name: string, parent: string | undefined, value: string) => {
    if (name === "Issued" && parent === "AreaPIBHeader") set("issued", value);
    else if (name === "ValidFrom" && parent === "Validity") set("validFrom", value);
    else if (name === "ValidTo" && parent === "Validity") set("validTo", value);
    else if (name === "AuthorityName" && parent === "AreaPIBHeader") header.authority = value;
    // AreaPIBHeader/FIRList/FIR/ICAO (not the FIRs of each aerodrome in the AerodromeList)
    else if (name === "ICAO" && parent === "FIR" && path[2] === "FIRList" && /^[A-Z]{4}$/.test(value)) {
      headerFirs.add(value);
    }
  };
  const set = (key: "issued" | "validFrom" | "validTo", value: string) => {
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

  try {
    parser.write(text).close();
  } catch (error) {
    failure ??= error instanceof Error ? error.message : String(error);
  }
  header.firs = [...headerFirs].sort();
  if (failure !== undefined) {
    diagnostics.push({
      code: "notam.pib.truncated",
      severity: "skipped",
      message: `${source} is not a whole PIB document (${firstLine(failure)}); none of it is used`,
      source,
    });
    return { notams: [], diagnostics, header, whole: false };
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

const local = (name: string) => name.slice(name.indexOf(":") + 1);
const firstLine = (s: string) => s.split("\n")[0] ?? s;
