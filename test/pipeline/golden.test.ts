// Golden files at the stage boundaries (STYLE habit 9): each case in fixtures/pipeline/<case>/ runs
// ingest → normalise → resolve → publish, and each stage's output is compared with its golden file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { publishDay } from "../../src/pipeline.js";
import { resolveDay } from "../../src/resolve/day.js";
import { assumed } from "../../src/resolve/evidence.js";
import { LocalStore } from "../../src/store/local-store.js";
import { expectGolden, FIXTURES, tempDir } from "../helpers.js";

const CASES = path.join(FIXTURES, "pipeline");
const cases = readdirSync(CASES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** Coordinates are not what these goldens are about: keep the ring sizes and first positions only. */
function truncateGeometry(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) =>
      key === "coordinates" && Array.isArray(v)
        ? { rings: JSON.stringify(v).split("]]").length - 1, first: v.flat(3).slice(0, 2) }
        : v,
    ),
  );
}

describe.each(cases)("pipeline case %s", (name) => {
  const dir = path.join(CASES, name);
  const params = JSON.parse(readFileSync(path.join(dir, "case.json"), "utf8"));
  const inputs = readdirSync(dir)
    .filter((f) => !f.endsWith(".json") || f.endsWith(".geojson"))
    .filter((f) => f !== "case.json")
    .sort();
  const day = utcDay(params.date)!;
  const now = Date.parse(params.now);
  const sources = { notam: assumed("notam", params.sources.notam), aup: assumed("aup", params.sources.aup) };

  it("ingest + normalise", () => {
    const sink = new DiagnosticSink();
    const records = inputs.flatMap((f) => {
      const r = readAirspaceSource(readFileSync(path.join(dir, f)), f);
      sink.addAll(r.diagnostics);
      return r.records;
    });
    const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, sink);
    expectGolden(path.join(dir, "normalize.expected.json"), truncateGeometry({ airspaces, diagnostics: sink.items }));
  });

  it("resolve", () => {
    const sink = new DiagnosticSink();
    const records = inputs.flatMap((f) => readAirspaceSource(readFileSync(path.join(dir, f)), f).records);
    const features = resolveDay(normalizeAirspaces(records, { firs: bundledFirIndex() }, sink), {
      day,
      now,
      sources,
    });
    expectGolden(path.join(dir, "resolve.expected.json"), truncateGeometry(features));
  });

  it("publish", async () => {
    const report = await publishDay(
      inputs.map((f) => ({ name: f, bytes: readFileSync(path.join(dir, f)), fetchedAt: now })),
      { day, now, sources },
      { store: new LocalStore(tempDir()), log: silentLogger },
    );
    expectGolden(path.join(dir, "publish.expected.json"), report);
  });
});
