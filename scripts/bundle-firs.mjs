// Regenerates src/geo/firs.json from EUROCONTROL's NM FIR/UIR file in ../shared/data/fir (MIT, © EUROCONTROL):
// lower FIRs only (MIN_FLIGHT 0), ident = first four letters of AV_AIRSPAC, ICAO state prefix, and the
// polygons rounded to 5 decimals (≈1 m). Run: node scripts/bundle-firs.mjs [path/to/eurocontrol_firuir_nm_2015.geojson]
import { readFileSync, writeFileSync } from "node:fs";

const src = process.argv[2] ?? new URL("../../shared/data/fir/eurocontrol_firuir_nm_2015.geojson", import.meta.url);
const fc = JSON.parse(readFileSync(src, "utf8"));
const round = (x) => Math.round(x * 1e5) / 1e5;
const firs = fc.features
  .filter((f) => f.properties.MIN_FLIGHT === 0 && !f.properties.AV_AIRSPAC.startsWith("XXXX"))
  .map((f) => ({
    ident: f.properties.AV_AIRSPAC.slice(0, 4),
    prefix: f.properties.AV_ICAO_ST,
    name: (f.properties.AV_NAME ?? "").trim(),
    polygons: (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates).map((poly) =>
      poly.map((ring) => ring.map(([x, y]) => [round(x), round(y)])),
    ),
  }))
  .sort((a, b) => (a.ident < b.ident ? -1 : a.ident > b.ident ? 1 : a.name < b.name ? -1 : 1));
const out = {
  source: "EUROCONTROL NM FIR/UIR 2015 (euctrl-pru/eurocontrol-atlas, MIT), lower FIRs",
  firs,
};
writeFileSync(new URL("../src/geo/firs.json", import.meta.url), `${JSON.stringify(out)}\n`);
console.log(`${firs.length} FIRs written`);
