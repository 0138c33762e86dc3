// `make corpus` (NOTAM part): every NOTAM of ../shared/data/notam read, classified and drawn, and the
// continental NOTAMs linked against the airspace exports of the same countries. Writes
// bench/out/notam-corpus.json and prints the rates.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledFirIndex } from "../src/geo/fir-index.js";
import { readAirspaceSource } from "../src/ingest/read.js";
import { DiagnosticSink } from "../src/model/diagnostic.js";
import { normalizeAirspaces } from "../src/normalize/airspace.js";
import { designatorsIn } from "../src/notam/designator.js";
import { notamGeometry } from "../src/notam/geometry.js";
import { notamKind } from "../src/notam/kind.js";
import { readNotamSource } from "../src/notam/read.js";
import { AirspaceLinker } from "../src/resolve/link.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATA = process.env.SHARED_DATA ?? path.resolve(ROOT, "..", "shared", "data");
const CONTINENTAL = ["notamsprint_faa_dins_notams.jsonl", "xctools_nats_pib_2018_ebbu_lfff.jsonl"];
const AIRSPACES = [
  "openaip-geojson/de_asp_2025-06.geojson",
  "openaip-geojson/at_asp_2022-09.geojson",
  "openaip-geojson/ch_asp_2022-09.geojson",
  "openaip-geojson/si_asp_2022-09.geojson",
  "openaip-openair/fr_asp_v2_2025-10.txt",
  "openaip-v1-xml-2018/openaip_airspace_belgium_be.aip",
  "openaip-v1-xml-2018/openaip_airspace_france_fr.aip",
  "openaip-v1-xml-2018/openaip_airspace_luxembourg_lu.aip",
  "openaip-v1-xml-2018/openaip_airspace_netherlands_nl.aip",
];

const sink = new DiagnosticSink();
const files = readdirSync(path.join(DATA, "notam")).filter((f) => /\.jsonl(\.gz)?$/.test(f) && !f.startsWith("itemD_"));
const perFile: Record<string, { read: number; skipped: number }> = {};
const byKind: Record<string, number> = {};
const geometry = { withCoordinates: 0, fromItemE: 0, misses: {} as Record<string, number> };
const all = files.flatMap((f) => {
  const r = readNotamSource(readFileSync(path.join(DATA, "notam", f)), f);
  perFile[f] = { read: r.notams.length, skipped: r.diagnostics.filter((d) => d.severity === "skipped").length };
  return r.notams.map((n) => ({ file: f, n }));
});
for (const { n } of all) {
  const kind = notamKind(n.q, n.itemE);
  byKind[kind ?? "null"] = (byKind[kind ?? "null"] ?? 0) + 1;
  if ((kind === "R" || kind === "V") && /\d{4,6}(\.\d+)?[NS]\s?\d{5,7}(\.\d+)?[EW]/.test(n.itemE)) {
    geometry.withCoordinates++;
    const g = notamGeometry(n.itemE, n.q);
    if (g.value?.source === "itemE") geometry.fromItemE++;
    else
      for (const i of g.issues.length ? g.issues : [{ code: "none" }])
        geometry.misses[i.code] = (geometry.misses[i.code] ?? 0) + 1;
  }
}
const records = AIRSPACES.flatMap((f) => readAirspaceSource(readFileSync(path.join(DATA, "airspace", f)), f).records);
const linker = new AirspaceLinker(normalizeAirspaces(records, { firs: bundledFirIndex() }, sink));
let naming = 0;
let linked = 0;
const unlinked: Record<string, number> = {};
for (const { file, n } of all) {
  if (!CONTINENTAL.includes(file)) continue;
  const kind = notamKind(n.q, n.itemE);
  if (!(kind === "A" || kind === "D" || kind === "R" || kind === "V")) continue;
  if (designatorsIn(n.itemE).length === 0) continue;
  const r = linker.link({ text: n.itemE, ...(n.q?.centre ? { centre: n.q.centre } : {}) });
  // designators named only as context (`OUTSIDE LF-R45N3 HOURS`) are not what the NOTAM is about
  if (r.airspaces.length === 0 && r.unmatched.length === 0) continue;
  naming++;
  if (r.airspaces.length > 0) linked++;
  else for (const d of r.unmatched) unlinked[d] = (unlinked[d] ?? 0) + 1;
}
const total = all.length;
const report = {
  notams: total,
  perFile,
  parsedWithoutError: total,
  byKind,
  geometry: { ...geometry, rate: +(geometry.fromItemE / Math.max(1, geometry.withCoordinates)).toFixed(4) },
  linking: {
    notams: CONTINENTAL,
    airspaces: AIRSPACES,
    namingADesignator: naming,
    linked,
    rate: +(linked / Math.max(1, naming)).toFixed(4),
    unlinkedDesignators: Object.fromEntries(Object.entries(unlinked).sort(([, a], [, b]) => b - a)),
  },
};
mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
writeFileSync(path.join(ROOT, "bench", "out", "notam-corpus.json"), `${JSON.stringify(report, null, 2)}\n`);
const skipped = Object.values(perFile).reduce((a, b) => a + b.skipped, 0);
console.log(
  `NOTAM corpus: ${total} read, ${skipped} skipped (${((100 * total) / (total + skipped)).toFixed(2)} % parsed)`,
);
console.log(`  kinds: ${JSON.stringify(byKind)}`);
console.log(
  `  R/V with coordinates in Item E: ${geometry.fromItemE}/${geometry.withCoordinates} drawn from Item E (${(100 * report.geometry.rate).toFixed(1)} %, goal ≥ 98 %); misses ${JSON.stringify(geometry.misses)}`,
);
console.log(
  `  linking (continental NOTAMs naming a designator vs the same countries' airspaces): ${linked}/${naming} (${(100 * report.linking.rate).toFixed(1)} %)`,
);
console.log("  report: bench/out/notam-corpus.json");
