// YAIXM (the UK airspace YAML of ahsparrow/airspace, used by ASSelect; public domain) to AirspaceRecords.
//   airspace: - {name: ABERDEEN CTA, id: aberdeen-cta, type: CTA, class: D, rules: [NOTAM],
//                geometry: [{seq: "1", upper: FL115, lower: 1500 ft, boundary: [{line: [...]}, {arc: {...}}]}]}
//   rat:      the same shape; names carry the dates (`SILVERSTONE (3-5 JUL)`)
//   service:  - {callsign: ABERDEEN APPROACH, frequency: 119.055, controls: [aberdeen-cta, aberdeen-ctr]}
// One record per volume, with the volume's own limits. Checked against the schema's shapes (yaixm_schema.yaml):
// a feature that does not match is a diagnostic naming it; a YAML file that is not YAIXM is refused whole.
import { parse } from "yaml";
import { z } from "zod";
import type { AirspaceRecord, ReadResult } from "../model/airspace.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { AipHours } from "../model/hours.js";
import { IcaoClass } from "../model/vocab.js";
import { parseAltitudeText } from "./limits.js";
import { boundaryRing } from "./yaixm-geometry.js";
import { typeOf } from "./yaixm-types.js";

const LatLon = z.string().regex(/^\d{6}[NS] \d{7}[EW]$/, { error: "expected ddmmssN dddmmssE" });
const Radius = z.string().regex(/^\d*\.?\d+ (nm|km)$/, { error: "expected a radius like 10 nm" });
const Segment = z.union([
  z.strictObject({ line: z.array(LatLon).min(1) }),
  z.strictObject({ arc: z.strictObject({ centre: LatLon, dir: z.enum(["cw", "ccw"]), radius: Radius, to: LatLon }) }),
  z.strictObject({ circle: z.strictObject({ centre: LatLon, radius: Radius }) }),
]);
const Rules = z.array(z.string()).optional();
const Volume = z.looseObject({
  upper: z.string(),
  lower: z.string(),
  boundary: z.array(Segment).min(1),
  seq: z.union([z.string(), z.number()]).optional(),
  subseq: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  class: z.string().optional(),
  rules: Rules,
});
const Feature = z.looseObject({
  name: z.string().min(1),
  id: z.string().optional(),
  type: z.string(),
  localtype: z.string().optional(),
  class: z.string().optional(),
  rules: Rules,
  geometry: z.array(Volume).min(1),
});
type Feature = z.infer<typeof Feature>;
const Service = z.looseObject({ callsign: z.string(), frequency: z.number(), controls: z.array(z.string()).min(1) });
export type YaixmService = z.infer<typeof Service>;

/** Top-level keys of YAIXM files (airspace, rat, service, loa, obstacle, release). */
const KEYS = /^(airspace|rat|service|loa|obstacle|release):\s*$/m;

export const looksLikeYaixm = (text: string): boolean => KEYS.test(text.slice(0, 8192));

export interface YaixmRead extends ReadResult {
  /** The service file's frequencies, joined to airspaces by their YAIXM ids in the pipeline. */
  services: YaixmService[];
}

const MHZ = 2;

export function readYaixm(text: string, source: string): YaixmRead {
  const diagnostics: Diagnostic[] = [];
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    const message = `${source} is not whole YAML (${reason})`;
    return {
      records: [],
      services: [],
      diagnostics: [{ code: "yaixm.truncated", severity: "skipped", message, source }],
    };
  }
  const top = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>) : {};
  const lists = { airspace: top.airspace, rat: top.rat, service: top.service };
  if (!Object.values(lists).some(Array.isArray)) {
    const message = `${source} has none of YAIXM's lists (airspace, rat, service)`;
    return {
      records: [],
      services: [],
      diagnostics: [{ code: "yaixm.notYaixm", severity: "skipped", message, source }],
    };
  }
  const records: AirspaceRecord[] = [];
  const seen = new Set<string>();
  let index = 0;
  for (const [list, items] of [
    ["airspace", lists.airspace],
    ["rat", lists.rat],
  ] as const) {
    for (const item of Array.isArray(items) ? items : []) {
      const at = { source, record: index++ };
      const parsed = Feature.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const name = nameOf(item);
        diagnostics.push({
          ...at,
          code: "yaixm.record.schema",
          severity: "skipped",
          message: `"${name}" does not match the YAIXM schema: ${issue?.path.join(".") || "(feature)"}: ${issue?.message}`,
          name,
        });
        continue;
      }
      records.push(...unique(volumes(parsed.data, list, at, diagnostics), seen, diagnostics));
    }
  }
  const services: YaixmService[] = [];
  for (const item of Array.isArray(lists.service) ? lists.service : []) {
    const parsed = Service.safeParse(item);
    if (parsed.success) services.push(parsed.data);
    else {
      const name = nameOf(item, "callsign");
      const message = `service "${name}" does not match the YAIXM schema: ${parsed.error.issues[0]?.message}`;
      diagnostics.push({ code: "yaixm.service.schema", severity: "warning", message, source, name });
    }
  }
  return { records, services, diagnostics };
}

/**
 * Real files repeat ids (`waddington-matz` for a MATZ and its stub, `woodvale-atz` on a glider site) and features
 * without id share a name (PERSHORE HIRTA and PERSHORE LASER): every volume is kept, a repeat gets `-2`, `-3`, …
 * and one diagnostic naming it; the services still join by the file's own id (`refs`).
 */
function unique(records: AirspaceRecord[], seen: Set<string>, diagnostics: Diagnostic[]): AirspaceRecord[] {
  return records.map((r) => {
    let id = r.id;
    for (let n = 2; seen.has(id); n++) id = `${r.id}-${n}`;
    seen.add(id);
    if (id === r.id) return r;
    const message = `"${r.name}": id "${r.id}" is used by an earlier airspace of the file; published as "${id}"`;
    diagnostics.push({ ...r.origin, code: "yaixm.id.repeated", severity: "warning", message, name: r.name, id });
    return { ...r, id };
  });
}

function volumes(
  f: Feature,
  list: "airspace" | "rat",
  at: { source: string; record: number },
  diagnostics: Diagnostic[],
): AirspaceRecord[] {
  const out: AirspaceRecord[] = [];
  const base = f.id ?? slug(f.name);
  const type = typeOf(f.type, f.localtype);
  for (const [i, v] of f.geometry.entries()) {
    const name = (v.name ?? f.name).trim();
    const limit = (text: string, which: string) => {
      const l = parseAltitudeText(text);
      if (!l.ok)
        diagnostics.push({
          ...at,
          code: "yaixm.limit.invalid",
          severity: "skipped",
          message: `${which} of "${name}": ${l.reason}`,
          name,
        });
      return l.ok ? l.value : undefined;
    };
    const lower = limit(v.lower, "lower");
    const upper = limit(v.upper, "upper");
    const ring = boundaryRing(v.boundary);
    for (const w of ring.warnings)
      diagnostics.push({ ...at, code: w.code, severity: "warning", message: `"${name}": ${w.message}`, name });
    if (!lower || !upper) continue;
    const rules = [...(f.rules ?? []), ...(v.rules ?? [])];
    const suffix = f.geometry.length > 1 ? `-${v.id ?? `${v.seq ?? i + 1}${v.subseq ?? ""}`}` : "";
    const cls = v.class ?? f.class;
    const hours = list === "rat" ? ratHours(f.name, rules) : rules.includes("NOTAM") ? notamRule() : undefined;
    out.push({
      id: `yaixm-${base}${suffix}`,
      name,
      type,
      icaoClass: cls && cls in IcaoClass ? IcaoClass[cls as keyof typeof IcaoClass] : IcaoClass.UNCLASSIFIED,
      country: "GB",
      upperLimit: upper,
      lowerLimit: lower,
      frequencies: [],
      byNotam: rules.includes("NOTAM"),
      onDemand: false,
      onRequest: false,
      activeTimes: [],
      ...(hours ? { hours } : {}),
      refs: [f.id, v.id].filter((x): x is string => x !== undefined),
      geometry: [[ring.ring]],
      origin: { ...at },
    });
  }
  return out;
}

const notamRule = (): AipHours => ({ text: "rules: NOTAM", from: "rules", kind: "notam" });

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** A temporary area's dates from its name (`SILVERSTONE (3-5 JUL)`, `SLEAP (11 JUL)`); without dates, unknown. */
export function ratHours(name: string, rules: readonly string[]): AipHours {
  if (rules.includes("NOTAM") || /\(NOTAM\)/i.test(name)) return { text: "(NOTAM)", from: "ratName", kind: "notam" };
  const m = /\((\d{1,2})(?:-(\d{1,2}))? ([A-Z]{3})\)/i.exec(name);
  const month = m ? MONTHS.indexOf(m[3]!.toUpperCase()) : -1;
  if (!m || month < 0) return { text: "no dates", from: "ratName", kind: "unknown" };
  const from = Number(m[1]);
  const to = Number(m[2] ?? m[1]);
  const dates = [];
  for (let day = from; day <= Math.max(from, to); day++) dates.push({ month, day });
  return { text: m[0], from: "ratName", kind: "dates", dates };
}

/** Frequencies of the service file on the records whose YAIXM ids it lists (first service primary). */
export function applyServices(records: readonly AirspaceRecord[], services: readonly YaixmService[]): number {
  const byId = new Map<string, YaixmService[]>();
  for (const s of services) for (const id of s.controls) byId.set(id, [...(byId.get(id) ?? []), s]);
  let n = 0;
  for (const r of records) {
    const own = (r.refs ?? []).flatMap((id) => byId.get(id) ?? []);
    if (own.length === 0) continue;
    n++;
    for (const s of own) {
      const value = s.frequency.toFixed(3);
      if (r.frequencies.some((f) => f.value === value)) continue;
      r.frequencies.push({ value, unit: MHZ, name: s.callsign, primary: r.frequencies.length === 0 });
    }
  }
  return n;
}

function nameOf(item: unknown, key = "name"): string {
  const v = typeof item === "object" && item !== null ? (item as Record<string, unknown>)[key] : undefined;
  return typeof v === "string" ? v : "(unnamed)";
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
