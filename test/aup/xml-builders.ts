// Shared by the AUP XML reader tests: the fixtures, result views and inline AIXM message builders.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AupXmlResult, readAupXml } from "../../src/aup/xml.js";
import type { AupAllocation } from "../../src/model/aup.js";
import { FIXTURES } from "../helpers.js";
export const DIR = join(FIXTURES, "aup");
export const NAMES = readdirSync(DIR).filter((f) => f.endsWith(".xml"));
export const read = (name: string): AupXmlResult => readAupXml(readFileSync(join(DIR, name), "utf8"), name);
export const codes = (r: AupXmlResult): string[] => r.diagnostics.map((d) => d.code);
export const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
export const all = (r: AupXmlResult): AupAllocation[] => r.plans.flatMap((p) => p.allocations);
export const spans = (r: AupXmlResult, status = "ACTIVE"): string[] =>
  all(r)
    .filter((a) => a.status === status)
    .map((a) => `${iso(a.start)}/${iso(a.end)}`);

// Inline messages: `p` is the AIXM prefix, `g` the GML one (either may be empty).
export const period = (begin: string, end: string, g = "gml:") =>
  `<${g}validTime><${g}TimePeriod><${g}beginPosition>${begin}</${g}beginPosition>${end}</${g}TimePeriod></${g}validTime>`;
export const endAt = (t: string, g = "gml:") => `<${g}endPosition>${t}</${g}endPosition>`;
export const slice = (
  inner: string,
  begin = "2022-02-23T09:00:00",
  end = endAt("2022-02-23T12:00:00"),
  p = "aixm:",
  g = "gml:",
) => `<${p}timeSlice><${p}AirspaceTimeSlice>${period(begin, end, g)}${inner}</${p}AirspaceTimeSlice></${p}timeSlice>`;
export const activation = (inner: string, p = "aixm:") =>
  `<${p}activation><${p}AirspaceActivation>${inner}</${p}AirspaceActivation></${p}activation>`;
export const levels = (lower: string, upper: string, p = "aixm:") =>
  `<${p}levels><${p}AirspaceLayer><${p}upperLimit uom="FL">${upper}</${p}upperLimit>` +
  `<${p}upperLimitReference>STD</${p}upperLimitReference><${p}lowerLimit uom="FL">${lower}</${p}lowerLimit>` +
  `<${p}lowerLimitReference>STD</${p}lowerLimitReference></${p}AirspaceLayer></${p}levels>`;
export const airspace = (slices: string, p = "aixm:") => `<${p}Airspace>${slices}</${p}Airspace>`;
export const message = (features: string[], header = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<adrmsg:ADRMessage xmlns:adrmsg="http://www.eurocontrol.int/cfmu/b2b/ADRMessage" ` +
  `xmlns:aixm="http://www.aixm.aero/schema/5.1" xmlns:gml="http://www.opengis.net/gml/3.2">${header}\n` +
  `${features.map((f) => `<adrmsg:hasMember>${f}</adrmsg:hasMember>\n`).join("")}</adrmsg:ADRMessage>\n`;
export const tempdelta = (designator: string, inner: string, begin?: string, end?: string) =>
  airspace(
    slice(
      `<aixm:interpretation>TEMPDELTA</aixm:interpretation><aixm:designator>${designator}</aixm:designator>${inner}`,
      begin,
      end,
    ),
  );
export const inline = (features: string[], header = "") => readAupXml(message(features, header), "inline.xml");
