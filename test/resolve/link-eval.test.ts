// Linking measured on real NOTAMs labelled by hand (fixtures/links/PROVENANCE.md): for each NOTAM, the airspaces of
// the real airspace file it is about. Goals (issue 15): recall ≥ 90 %, precision ≥ 98 % (a wrong link is worse than
// none). The airspace files are the corpus's (../shared/data/airspace): without them this check says so and
// measures nothing. The figures per country go to test-output/link-eval.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { readNotamSource } from "../../src/notam/read.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { linksOf } from "../../src/resolve/notams.js";
import { FIXTURES, HAS_SHARED, ROOT, SHARED_DATA, warnNoShared } from "../helpers.js";

interface LinkCase {
  case: number;
  set: string;
  id: string;
  country: string;
  subjects: string[];
  absent: string[];
  note?: string;
}

/** Links right, wrong and missed; NOTAMs seen, naming an airspace, and finding every airspace they name. */
interface Tally {
  tp: number;
  fp: number;
  fn: number;
  notams: number;
  naming: number;
  found: number;
}

const DIR = path.join(FIXTURES, "links");
const CASES: LinkCase[] = JSON.parse(readFileSync(path.join(DIR, "cases.json"), "utf8"));
const SETS: Record<string, { notams: string; airspaces: string[] }> = JSON.parse(
  readFileSync(path.join(DIR, "sets.json"), "utf8"),
);

describe(`linking on ${CASES.length} hand-labelled real NOTAMs (fixtures/links)`, () => {
  warnNoShared("link evaluation");

  it("has at least 60 NOTAMs from at least 3 countries", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((c) => c.country)).size).toBeGreaterThanOrEqual(3);
  });

  it.runIf(HAS_SHARED)("finds ≥ 90 % of the labelled links at ≥ 98 % precision; writes the figures", () => {
    const per: Record<string, Tally> = {};
    const wrong: string[] = [];
    const missed: string[] = [];
    for (const [set, files] of Object.entries(SETS)) {
      const sink = new DiagnosticSink();
      const records = files.airspaces.flatMap(
        (f) => readAirspaceSource(readFileSync(path.join(SHARED_DATA, f)), f).records,
      );
      const linker = new AirspaceLinker(normalizeAirspaces(records, { firs: bundledFirIndex() }, sink));
      const notams = readNotamSource(readFileSync(path.join(SHARED_DATA, files.notams)), files.notams).notams;
      for (const c of CASES.filter((x) => x.set === set)) {
        const n = notams.find((x) => x.id === c.id);
        if (!n) throw new Error(`case ${c.case}: NOTAM ${c.id} not in ${files.notams}`);
        // the pipeline links only what can name an airspace (DESIGN §4): A, D, R and V NOTAMs, plain-language ones
        const got = (linksOf(n, linker)?.airspaces ?? []).map((a) => a.id);
        per[c.country] ??= { tp: 0, fp: 0, fn: 0, notams: 0, naming: 0, found: 0 };
        const p = per[c.country] as Tally;
        p.notams++;
        if (c.subjects.length > 0) {
          p.naming++;
          if (c.subjects.every((id) => got.includes(id))) p.found++;
        }
        for (const id of got) {
          if (c.subjects.includes(id)) p.tp++;
          else {
            p.fp++;
            wrong.push(`${c.id} → ${id}`);
          }
        }
        for (const id of c.subjects) {
          if (!got.includes(id)) {
            p.fn++;
            missed.push(`${c.id} ✗ ${id}`);
          }
        }
      }
    }
    const all = Object.values(per).reduce((a, b) => ({
      tp: a.tp + b.tp,
      fp: a.fp + b.fp,
      fn: a.fn + b.fn,
      notams: a.notams + b.notams,
      naming: a.naming + b.naming,
      found: a.found + b.found,
    }));
    const rate = (x: Tally) => ({
      recall: Number((x.tp / (x.tp + x.fn || 1)).toFixed(4)),
      precision: Number((x.tp / (x.tp + x.fp || 1)).toFixed(4)),
      notamRecall: Number((x.found / (x.naming || 1)).toFixed(4)),
    });
    const figures = {
      all: { ...all, ...rate(all) },
      perCountry: Object.fromEntries(Object.entries(per).map(([cc, x]) => [cc, { ...x, ...rate(x) }])),
      wrong,
      missed,
    };
    mkdirSync(path.join(ROOT, "test-output"), { recursive: true });
    writeFileSync(path.join(ROOT, "test-output", "link-eval.json"), `${JSON.stringify(figures, null, 2)}\n`);
    expect(rate(all).recall).toBeGreaterThanOrEqual(0.9);
    expect(rate(all).precision).toBeGreaterThanOrEqual(0.98);
    expect(rate(all).notamRecall).toBeGreaterThanOrEqual(0.9);
  });
});
