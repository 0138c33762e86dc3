// NOTAM benchmark (`make bench`): parse, classify, extract geometry and expand Item D for 40 000 NOTAMs
// (the 33 561 real ones of ../shared/data/notam, repeated), and link 40 000 NOTAMs against the 20 000
// generated airspaces of bench/publish.ts (bench/out/input, made by `make bench` before this runs).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledFirIndex } from "../src/geo/fir-index.js";
import { readAirspaceSource } from "../src/ingest/read.js";
import { DiagnosticSink } from "../src/model/diagnostic.js";
import type { Notam } from "../src/model/notam.js";
import { normalizeAirspaces } from "../src/normalize/airspace.js";
import { aerodromePoints } from "../src/notam/aerodromes.js";
import { forgetQCircles, notamGeometry } from "../src/notam/geometry.js";
import { forgetNotamLines } from "../src/notam/jsonl.js";
import { notamKind } from "../src/notam/kind.js";
import { readNotamSource } from "../src/notam/read.js";
import { AirspaceLinker } from "../src/resolve/link.js";
import { linkNotam } from "../src/resolve/notams.js";
import { evaluateItemD } from "../src/schedule/evaluate.js";
import { parseValidity } from "../src/schedule/validity.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATA = process.env.SHARED_DATA ?? path.resolve(ROOT, "..", "shared", "data");
const TARGET = 40_000;

const files = readdirSync(path.join(DATA, "notam"))
  .filter((f) => /\.jsonl(\.gz)?$/.test(f) && !f.startsWith("itemD_"))
  .map((f) => ({ name: f, bytes: readFileSync(path.join(DATA, "notam", f)) }));

/** One pass over the real corpus: read every file, then classify, draw and expand each NOTAM. */
function pass(): { notams: Notam[]; seconds: number } {
  forgetQCircles(); // a pass is one run: it draws each distinct Q-line circle once
  forgetNotamLines(); // and reads every line as new (a process reading a feed again takes unchanged lines as they were)
  const t0 = performance.now();
  const notams = files.flatMap((f) => readNotamSource(f.bytes, f.name).notams);
  for (const n of notams) {
    notamKind(n.q, n.itemE);
    notamGeometry(n.itemE, n.q);
    const v = parseValidity(n.itemB, n.itemC ?? "PERM");
    if (v.ok && n.itemD) evaluateItemD(n.itemD, v.value, Math.floor(v.value.b / 86_400_000), n.q?.centre);
  }
  return { notams, seconds: (performance.now() - t0) / 1000 };
}

pass(); // warm-up
// rounds of whole passes until at least 40 000 NOTAMs were processed, three times
const rates: number[] = [];
let sample: Notam[] = [];
for (let k = 0; k < 3; k++) {
  let done = 0;
  let seconds = 0;
  while (done < TARGET) {
    const r = pass();
    done += r.notams.length;
    seconds += r.seconds;
    sample = r.notams;
  }
  rates.push(done / seconds);
}
rates.sort((a, b) => a - b);
const shown = rates.map(Math.round).join(", ");
console.log(
  `NOTAM read + kind + geometry + Item D: median ${Math.round(rates[1]!)} per second (${shown}; goal ≥ 25 000)`,
);
if (rates[1]! < 25_000) {
  console.log("notams: MISSED the reading goal");
  process.exitCode = 1;
}

const inputDir = path.join(ROOT, "bench", "out", "input");
if (!existsSync(inputDir)) {
  console.error(`bench notams: ${inputDir} is absent; the publish benchmark generates it (make bench runs it first)`);
  process.exit(1);
}
const sink = new DiagnosticSink();
const records = readdirSync(inputDir).flatMap(
  (f) => readAirspaceSource(readFileSync(path.join(inputDir, f)), f).records,
);
const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, sink);
// 40 000 NOTAMs: the corpus, then its first NOTAMs again
const notams = [...sample, ...sample].slice(0, TARGET);
const times: number[] = [];
let linked = 0;
for (let k = 0; k < 3; k++) {
  const t0 = performance.now();
  const linker = new AirspaceLinker(airspaces);
  const aerodromes = aerodromePoints(notams);
  linked = 0;
  for (const n of notams) {
    // with the check that the NOTAM's own area and band agree with each volume its names find
    const r = linkNotam(n, linker, aerodromes);
    if (r.airspaces.length > 0) linked++;
  }
  times.push((performance.now() - t0) / 1000);
}
times.sort((a, b) => a - b);
console.log(
  `linking ${notams.length} NOTAMs against ${airspaces.length} airspaces: median ${times[1]!.toFixed(2)} s (${times.map((t) => t.toFixed(2)).join(", ")}; goal < 2 s), ${linked} linked`,
);
if (times[1]! >= 2) {
  console.log("notams: MISSED the linking goal");
  process.exitCode = 1;
}
