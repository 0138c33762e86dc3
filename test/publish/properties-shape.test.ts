// The hand-written properties check (src/publish/properties-shape.ts) says yes only where zod's FeatureProperties
// does: on every feature of the UK publication (make run's), and on each of them broken at every member in each
// way the schema forbids. Where it says no, validation asks zod, so a no it gives wrongly would cost time, not truth;
// the test holds it to zod's answer both ways.
// biome-ignore-all lint/suspicious/noExplicitAny: the cases mutate deep paths of a feature's JSON
import { beforeAll, describe, expect, it } from "vitest";
import { type Feature, FeatureProperties } from "../../src/model/contract.js";
import { propertiesConform } from "../../src/publish/properties-shape.js";
import { currentManifest, readCollection } from "../../src/publish/read-back.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { feature } from "./fixtures.js";
import { publishUk } from "./uk-publication.js";

let features: Feature[];

beforeAll(async () => {
  const store = new MemoryStore();
  await publishUk(store);
  const manifest = (await currentManifest(store))!;
  features = (await readCollection(store, manifest.countries.GB!.key)).features;
}, 180_000);

const zod = (p: unknown) => FeatureProperties.safeParse(p).success;

/** Paths to every member of `v` (arrays: their first two elements), objects and arrays included. */
function paths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof v !== "object" || v === null) return [at];
  const keys = Array.isArray(v) ? v.slice(0, 2).map((_, i) => i) : Object.keys(v);
  return [at, ...keys.flatMap((k) => paths((v as Record<string | number, unknown>)[k], [...at, k]))];
}

function mutate(p: unknown, at: Array<string | number>, set: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(p) as any;
  let o = copy;
  for (const k of at.slice(0, -1)) o = o[k];
  set(o, at.at(-1)!);
  return copy;
}

const WRONG: unknown[] = [undefined, null, "", "x", "2026-02-30T00:00:00Z", -1, 0.5, 7, 100, 2 ** 60];
WRONG.push(1, 2, 6, 8, 9, 99, 101, Number.NaN, Number.POSITIVE_INFINITY, true, [], {}, [0, 0], "rgba(1, 2, 3, 1.5)");

describe("propertiesConform", () => {
  it("passes every feature of the UK publication, as zod does", () => {
    expect(features.length).toBeGreaterThan(1000);
    const refused = features.filter((f) => !propertiesConform(f.properties));
    expect(refused.map((f) => f.properties._id)).toEqual([]);
    expect(features.every((f) => zod(f.properties))).toBe(true);
  });

  it("gives zod's verdict on those features broken at each member", () => {
    // one of each shape of feature: by type, category, and which optional members it has
    const kinds = new Map<string, Feature>();
    for (const f of [...features, feature("a1", "DE", 8)]) {
      const m = f.properties.vendor.dynamicAirspaceMapping;
      const n = m.notams[0];
      const shape: unknown[] = [f.properties.type, f.properties.featureCategory, ...Object.keys(f.properties).sort()];
      shape.push(m.isActive, m.activationType, m.aupuups.length > 0, m.dynamicScheduleAndVerticalLimits.length > 0);
      shape.push(...(n ? Object.keys(n).sort() : []), n?.GeoJSONGeometry?.geometry.type ?? "");
      kinds.set(shape.join(), f);
    }
    expect(kinds.size).toBeGreaterThan(20);
    let cases = 0;
    const disagree: string[] = [];
    for (const f of kinds.values()) {
      const p = f.properties;
      for (const at of paths(p)) {
        const variants = [
          ...WRONG.map((w) =>
            mutate(p, at, (o, k) => {
              if (o !== undefined) o[k] = w;
            }),
          ),
          mutate(p, at, (o, k) => (Array.isArray(o) ? o.splice(k as number, 1) : delete o[k])),
          // an unknown member inside an object
          mutate(p, at, (o, k) => {
            const v = at.length === 0 ? o : o[k];
            if (typeof v === "object" && v !== null && !Array.isArray(v)) v.extra = 1;
          }),
        ];
        for (const m of variants) {
          cases++;
          if (propertiesConform(m) !== zod(m))
            disagree.push(`${p._id} ${at.join(".")}: ${JSON.stringify(m).slice(0, 80)}`);
        }
      }
    }
    expect(cases).toBeGreaterThan(5000);
    expect(disagree.slice(0, 10)).toEqual([]);
  });
});
