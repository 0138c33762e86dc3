// One golden scenario per row of the docs/design.md §4 activation decision table, built from real records of the
// shared corpus (fixtures/decision/PROVENANCE.md). Each case folder holds airspace.geojson, optional
// notams.jsonl and aup_<YYYY-MM-DDTHHMMZ>.csv, and case.json; the case is published with publishDay into a
// throwaway store, EUROPE is read back, validated, its expected activity checked, and every feature's
// dynamicAirspaceMapping (NOTAM geometry dropped) compared with expected.json.
// The `*-regression` cases reproduce resolver bugs found this way (their notes say which).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Feature, FeatureCollection } from "../../src/model/contract.js";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { readEurope } from "../../src/publish/read-back.js";
import { validateCollection } from "../../src/publish/validate.js";
import { assumed } from "../../src/resolve/evidence.js";
import { LocalStore } from "../../src/store/local-store.js";
import { expectGolden, FIXTURES, tempDir } from "../helpers.js";

interface CaseFile {
  date: string;
  now: string;
  /** Sources assumed when none is given as a file. */
  sources?: { notam: "fresh" | "stale" | "missing"; aup: "fresh" | "stale" | "missing" };
  maxSourceAgeMs?: number;
  /** The NOTAM file's as-of time, declared as an operator would (`--notam-as-of`); JSON lines state none. */
  notamFetchedAt?: string;
  /** The FIRs the NOTAM file is declared to brief (`--notam-firs`). */
  notamFirs?: string[];
  /** The operator declares nothing: JSON lines then state neither an as-of time nor a region. */
  notamUndeclared?: boolean;
  aupFetchedAt?: string;
  /** Per feature: its activity, and (optionally) the decision-table rule `explain` names. */
  expect: Record<string, { isActive: string; activationType: string; rule?: string }>;
  note: string;
}

const CASES = path.join(FIXTURES, "decision");
const cases = readdirSync(CASES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const instant = (text: string): number => {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`not an instant: ${text}`);
  return ms;
};

async function run(dir: string, c: CaseFile) {
  const day = utcDay(c.date);
  if (!day) throw new Error(`not a date: ${c.date}`);
  const now = instant(c.now);
  const file = (name: string, fetchedAt: number) => ({
    name,
    bytes: readFileSync(path.join(dir, name)),
    fetchedAt,
  });
  const notamAt = c.notamFetchedAt ? instant(c.notamFetchedAt) : now;
  const aupAt = c.aupFetchedAt ? instant(c.aupFetchedAt) : now;
  const aupFiles = readdirSync(dir)
    .filter((f) => /^aup_.*\.csv$/.test(f))
    .sort();
  const store = tempDir("decision-");
  await publishDay(
    [file("airspace.geojson", now)],
    {
      day,
      now,
      sources: {
        notam: assumed("notam", c.sources?.notam ?? "missing"),
        aup: assumed("aup", c.sources?.aup ?? "missing"),
      },
      ...(existsSync(path.join(dir, "notams.jsonl"))
        ? {
            notams: [
              {
                ...file("notams.jsonl", notamAt),
                ...(c.notamUndeclared ? {} : { asOf: { at: notamAt, from: "declared" as const } }),
                ...(c.notamFirs ? { firs: c.notamFirs } : {}),
              },
            ],
          }
        : {}),
      ...(aupFiles.length > 0 ? { aup: aupFiles.map((f) => file(f, aupAt)) } : {}),
      ...(c.maxSourceAgeMs !== undefined ? { maxSourceAgeMs: c.maxSourceAgeMs } : {}),
      variant: "production",
    },
    { store: new LocalStore(store), log: silentLogger },
  );
  const pointer = JSON.parse(readFileSync(path.join(store, "v1/current.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(store, pointer.manifest), "utf8"));
  const europe = await readEurope(new LocalStore(store), manifest);
  const explained = await readExplanations(new LocalStore(store), manifest.version);
  return { europe, manifest, explained };
}

/** What the golden holds: per feature its mapping without NOTAM geometry; per dynamic source its state. */
function goldenOf(europe: FeatureCollection, manifest: { sources: Record<string, Record<string, unknown>> }) {
  const features: Record<string, unknown> = {};
  for (const f of europe.features) {
    const { notams, ...mapping } = f.properties.vendor.dynamicAirspaceMapping;
    features[f.properties._id] = {
      name: f.properties.name,
      type: f.properties.type,
      featureCategory: f.properties.featureCategory,
      dynamicAirspaceMapping: {
        ...mapping,
        notams: notams.map(({ GeoJSONGeometry: _, ...n }) => n),
      },
    };
  }
  const sources = Object.fromEntries(
    Object.entries(manifest.sources)
      .filter(([, s]) => s.kind !== "airspace")
      .map(([name, s]) => [
        name,
        { kind: s.kind, stale: s.stale, records: s.records, standing: s.standing, coverage: s.coverage },
      ]),
  );
  return { sources, features };
}

function byId(europe: FeatureCollection, id: string): Feature {
  const f = europe.features.find((x) => x.properties._id === id);
  if (!f) {
    const have = europe.features.map((x) => x.properties._id).join(", ");
    throw new Error(`no feature ${id} in EUROPE (have ${have})`);
  }
  return f;
}

describe.each(cases)("decision case %s", (name) => {
  const dir = path.join(CASES, name);
  const c: CaseFile = JSON.parse(readFileSync(path.join(dir, "case.json"), "utf8"));
  let once: ReturnType<typeof run> | undefined;
  const published = () => {
    once ??= run(dir, c);
    return once;
  };

  it("publishes a valid EUROPE collection", async () => {
    const { europe } = await published();
    expect(validateCollection(europe)).toEqual([]);
    expect(europe.features.length).toBeGreaterThan(0);
  });

  const checkExpect = async () => {
    const { europe, explained } = await published();
    for (const [id, want] of Object.entries(c.expect)) {
      const m = byId(europe, id).properties.vendor.dynamicAirspaceMapping;
      const rule = want.rule === undefined ? {} : { rule: explained?.features[id]?.rule };
      expect({ id, isActive: m.isActive, activationType: m.activationType, ...rule }).toEqual({ id, ...want });
    }
  };

  it("activity as docs/design.md §4 says", checkExpect);
  it("mapping matches expected.json", async () => {
    const { europe, manifest } = await published();
    expectGolden(path.join(dir, "expected.json"), goldenOf(europe, manifest));
  });
});
