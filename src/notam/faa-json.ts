// The FAA NOTAM API's JSON (external-api.faa.gov/notamapi/v1/notams, `responseFormat=geoJson`), a free source of
// the international NOTAMs of Europe (docs/design.md §2). An answer is one page:
//   {"pageSize": 50, "pageNum": 1, "totalCount": 120, "totalPages": 3,
//    "items": [{"type": "Feature", "properties": {"coreNOTAMData": {
//       "notamEvent": {"scenario": "6000"},
//       "notam": {"id", "series", "number": "A0123/26", "type": "N", "issued", "affectedFIR", "selectionCode",
//                 "traffic", "purpose", "scope", "minimumFL", "maximumFL", "location", "effectiveStart",
//                 "effectiveEnd", "text", "classification", "accountId", "lastUpdated", "icaoLocation",
//                 "coordinates", "radius", "schedule", "lowerLimit", "upperLimit"},
//       "notamTranslation": [{"type": "LOCAL_FORMAT", "simpleText"}, {"type": "ICAO", "formattedText"}]}},
//     "geometry": {…}}]}
// Each NOTAM is read from its ICAO translation first (the text the ICAO reader knows, Q-line and all), else from the
// fields. The answer states neither when it was made nor which FIRs were asked: its as-of time is the answer's
// (the fetcher's HTTP `Date`, or an operator's declaration) and its coverage the sources config's `firs`.
// Pure: text in, NOTAMs and diagnostics out.
import { z } from "zod";
import { type Diagnostic, excerpt } from "../model/diagnostic.js";
import { faaPage } from "../model/faa-page.js";
import { buildNotam, type NotamReadResult } from "./build.js";
import { readNotamText } from "./text.js";

const Text = z.string().nullish();
const Translation = z.object({ type: Text, formattedText: Text, simpleText: Text }).loose();
const CoreNotam = z
  .object({
    number: Text,
    series: Text,
    type: Text,
    issued: Text,
    affectedFIR: Text,
    selectionCode: Text,
    traffic: Text,
    purpose: Text,
    scope: Text,
    minimumFL: Text,
    maximumFL: Text,
    location: Text,
    icaoLocation: Text,
    effectiveStart: Text,
    effectiveEnd: Text,
    text: Text,
    accountId: Text,
    coordinates: Text,
    radius: Text,
    schedule: Text,
    lowerLimit: Text,
    upperLimit: Text,
  })
  .loose();
const Item = z.object({
  properties: z.object({
    coreNOTAMData: z.object({ notam: CoreNotam, notamTranslation: z.array(Translation).nullish() }).loose(),
  }),
});
export type FaaItem = z.infer<typeof Item>;

/** An FAA NOTAM API answer: a JSON object with `items` whose first one holds `coreNOTAMData`. */
export function isFaaJson(text: string): boolean {
  return /^\s*\{/.test(text) && /"coreNOTAMData"\s*:/.test(text.slice(0, 20_000)) && /"items"\s*:/.test(text);
}

/** Reads every NOTAM of an FAA NOTAM API answer; never throws. */
export function readFaaJson(text: string, source: string): NotamReadResult {
  const page = faaPage(text);
  if (!page.ok) {
    const message = `${source}: not an FAA NOTAM API answer (${page.reason})`;
    return { notams: [], diagnostics: [{ code: "notam.faa.invalid", severity: "skipped", message, source }] };
  }
  const notams: NotamReadResult["notams"] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [record, raw] of page.page.items.entries()) {
    const parsed = Item.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      diagnostics.push({
        code: "notam.faa.item",
        severity: "skipped",
        message: `item ${record}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "not a NOTAM item"}`,
        source,
        record,
      });
      continue;
    }
    const { notam, notamTranslation } = parsed.data.properties.coreNOTAMData;
    const nof = /^[A-Z]{4}$/.test(notam.accountId ?? "") ? notam.accountId! : undefined;
    const icao = notamTranslation?.find((t) => t.type === "ICAO")?.formattedText;
    if (icao) {
      const read = readNotamText(icao, source);
      const one = read.notams[0];
      if (one && read.notams.length === 1) {
        if (nof) one.nof = nof;
        one.origin = { source, record };
        notams.push(one);
        diagnostics.push(...read.diagnostics.map((d) => ({ ...d, record })));
        continue;
      }
      diagnostics.push({
        code: "notam.faa.translation",
        severity: "warning",
        message: `item ${record}: its ICAO translation "${excerpt(icao, 60)}" is not one NOTAM; read from its fields`,
        source,
        record,
      });
    }
    const built = buildNotam(fieldsOf(notam, nof), { source, record });
    diagnostics.push(...built.diagnostics);
    if (built.notam) notams.push(built.notam);
  }
  return { notams, diagnostics };
}

/** `2026-02-09T07:00:00.000Z` → `2602090700`; `PERM` and the like as they are. */
function stamp(iso: string | null | undefined): string | undefined {
  const m = /^\d{2}(\d{2})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso ?? "");
  return m ? `${m[1]}${m[2]}${m[3]}${m[4]}${m[5]}` : (iso ?? undefined);
}

/** The fields of an item without ICAO translation, as the builder takes them. */
function fieldsOf(n: z.infer<typeof CoreNotam>, nof: string | undefined) {
  const q = [
    n.affectedFIR,
    n.selectionCode,
    n.traffic,
    n.purpose,
    n.scope,
    n.minimumFL,
    n.maximumFL,
    `${n.coordinates ?? ""}${n.radius ?? ""}`,
  ];
  return {
    id: n.number,
    nof,
    type: n.type,
    q: n.affectedFIR && n.selectionCode ? q.map((x) => x ?? "").join("/") : undefined,
    a: n.icaoLocation ?? n.location,
    b: stamp(n.effectiveStart),
    c: stamp(n.effectiveEnd),
    d: n.schedule,
    e: n.text,
    f: n.lowerLimit,
    g: n.upperLimit,
  };
}
