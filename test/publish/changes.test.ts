// Change sets (docs/design.md §8): a diff applied to the old collection gives the new one exactly, and any run of
// consecutive diffs composes into one that does the same. Property-based over random sequences of collections, then
// through publishVersion and the record on a real store.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { featureTexts } from "../../src/model/collection-text.js";
import type { Feature, FeatureCollection } from "../../src/model/contract.js";
import { applyChange, type Change, composeChanges, diffLaid, diffTexts } from "../../src/publish/changes.js";
import { publishVersion } from "../../src/publish/publish.js";
import { readCollection } from "../../src/publish/read-back.js";
import { DayRecord } from "../../src/publish/record.js";
import { LocalStore } from "../../src/store/local-store.js";
import { tempDir } from "../helpers.js";
import { byCountry, DAY, feature } from "./fixtures.js";

/** The change from `before` to `after` by their parsed features: what diffTexts must give, and the diffs composed. */
function diffFeatures(before: readonly Feature[], after: readonly Feature[]): Change {
  const old = new Map(before.map((f) => [f.properties._id, f]));
  const added: Feature[] = [];
  const changed: Feature[] = [];
  for (const f of after) {
    const was = old.get(f.properties._id);
    if (was === undefined) added.push(f);
    else if (JSON.stringify(was) !== JSON.stringify(f)) changed.push(f);
    old.delete(f.properties._id);
  }
  return { added, changed, removed: [...old.keys()].sort() };
}

const meta = (features: readonly Feature[]): FeatureCollection["meta"] => ({
  count: { airspaces: features.length, airspaceNotams: 0, graphicalNotams: 0, total: features.length },
  tier: "dynamic",
});
const collection = (features: Feature[]): FeatureCollection => ({
  type: "FeatureCollection",
  features: [...features].sort((a, b) => (a.properties._id < b.properties._id ? -1 : 1)),
  meta: meta(features),
});

/** A collection: some of ten ids, each in one of three states (its x position). */
const collectionArb = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 2 })), {
    selector: ([id]) => id,
    maxLength: 10,
  })
  .map((list) => collection(list.map(([id, x]) => feature(`f${id}`, "DE", x))));

describe("change sets", () => {
  it("a diff applied to the old collection gives the new one, byte for byte", () => {
    fc.assert(
      fc.property(collectionArb, collectionArb, (a, b) => {
        const change = diffFeatures(a.features, b.features);
        expect(JSON.stringify(applyChange(a, change, b.meta))).toBe(JSON.stringify(b));
      }),
    );
  });

  it("the diff of the published texts is the diff of the features, without parsing the unchanged ones", () => {
    fc.assert(
      fc.property(fc.option(collectionArb, { nil: undefined }), collectionArb, (a, b) => {
        const byText = diffTexts(a && JSON.stringify(a), JSON.stringify(b));
        expect(JSON.stringify(byText)).toBe(JSON.stringify(diffFeatures(a?.features ?? [], b.features)));
      }),
    );
    // strings holding quotes, backslashes, brackets and braces do not cut a feature
    const odd = collection([feature('f"1\\', "DE", 0), feature("f2", "DE", 1)]);
    odd.features[0]!.properties.name = 'R "A" [1] {x} \\ },{"type":"Feature",';
    expect(featureTexts(JSON.stringify(odd))).toEqual(odd.features.map((f) => JSON.stringify(f)));
    expect(diffTexts(undefined, JSON.stringify(odd)).added.map((f) => f.properties._id)).toEqual(['f"1\\', "f2"]);
    expect(() => featureTexts('{"type":"FeatureCollection","features":[{"a":1}')).toThrow(/does not end/);
    expect(featureTexts('{"type":"FeatureCollection","features":[],"meta":{}}')).toEqual([]);
  });

  it("the diff from the chunks serialised last compares only the chunks whose feature objects are not the same", () => {
    const CHUNK = 3;
    fc.assert(
      fc.property(collectionArb, collectionArb, (a, b) => {
        // the resolver gives an unchanged feature as the same object (resolve/day.ts): b takes a's where they agree
        const mine = new Map(a.features.map((f) => [JSON.stringify(f), f]));
        const after = b.features.map((f) => mine.get(JSON.stringify(f)) ?? f);
        const laid = Array.from({ length: Math.ceil(a.features.length / CHUNK) }, (_, j) => ({
          features: a.features.slice(j * CHUNK, (j + 1) * CHUNK),
        }));
        const same = (j: number) => {
          const was = laid[j]?.features;
          const now = after.slice(j * CHUNK, (j + 1) * CHUNK);
          return was !== undefined && was.length === now.length && was.every((f, k) => f === now[k]);
        };
        const compared: number[] = [];
        const change = diffLaid(laid, after, CHUNK, (j) => {
          if (!same(j)) compared.push(j);
          return same(j);
        });
        expect(JSON.stringify(change)).toBe(JSON.stringify(diffFeatures(a.features, b.features)));
        // a chunk of the same objects is never compared
        for (const j of compared) expect(same(j)).toBe(false);
      }),
    );
  });

  it("consecutive diffs compose into one that does the same: the direct diff's additions and removals, its changes and at most those changed back", () => {
    fc.assert(
      fc.property(fc.array(collectionArb, { minLength: 2, maxLength: 6 }), (cs) => {
        const steps = cs.slice(1).map((c, i) => diffFeatures(cs[i]!.features, c.features));
        const composed = composeChanges(steps);
        const last = cs.at(-1)!;
        expect(JSON.stringify(applyChange(cs[0]!, composed, last.meta))).toBe(JSON.stringify(last));
        const direct = diffFeatures(cs[0]!.features, last.features);
        const ids = (c: typeof direct) => ({
          added: c.added.map((f) => f.properties._id).sort(),
          changed: c.changed.map((f) => f.properties._id).sort(),
          removed: [...c.removed].sort(),
        });
        const [c, d] = [ids(composed), ids(direct)];
        expect(c.added).toEqual(d.added);
        expect(c.removed).toEqual(d.removed);
        // a feature changed and changed back is listed (its content is the same): applying it changes nothing
        expect(c.changed).toEqual(expect.arrayContaining(d.changed));
      }),
    );
  });

  it("a feature added then removed within the run is in no list; changed then removed is removed", () => {
    const a = feature("a", "DE", 0);
    const b2 = feature("b", "DE", 1);
    const out = composeChanges([
      { added: [a], changed: [b2], removed: [] },
      { added: [], changed: [], removed: ["a", "b"] },
    ]);
    expect(out).toEqual({ added: [], changed: [], removed: ["b"] });
  });

  it("publishVersion writes each changed country's change set; the record rebuilds a version from them", async () => {
    const dir = tempDir();
    const store = new LocalStore(dir);
    const at = (hhmm: string) => Date.parse(`${DAY.date}T${hhmm}:00Z`);
    const publish = (features: Feature[], hhmm: string) =>
      publishVersion(store, {
        byCountry: byCountry(features),
        date: DAY.date,
        publishedAt: at(hhmm),
        sources: {},
        tier: "dynamic",
      });
    const v1 = await publish([feature("a", "DE", 0), feature("b", "DE", 1), feature("c", "FR", 0)], "06:00");
    const v2 = await publish([feature("a", "DE", 2), feature("c", "FR", 0), feature("d", "DE", 1)], "06:15");
    expect(v2.manifest.previous).toBe(v1.manifest.version);
    expect(v2.manifest.first).toBe(v1.manifest.version);
    expect(v2.manifest.countries.FR!.changes).toBeUndefined();
    expect(v2.manifest.countries.DE!.changes).toMatchObject({
      from: v1.manifest.version,
      added: 1,
      changed: 1,
      removed: 1,
    });
    // the DE collection of v2 gone (as retention leaves a version of the record): rebuilt, the same
    const published = await readCollection(store, v2.manifest.countries.DE!.key);
    await store.delete(v2.manifest.countries.DE!.key);
    const record = new DayRecord(store, "v1");
    expect(JSON.stringify(await record.collection(v2.manifest, "DE"))).toBe(JSON.stringify(published));
    expect((await record.chain(DAY.date)).map((m) => m.version)).toEqual([v1.manifest.version, v2.manifest.version]);
    expect((await record.liveAt(at("06:10")))?.version).toBe(v1.manifest.version);
    expect((await record.liveAt(at("06:20")))?.version).toBe(v2.manifest.version);
    expect(await record.liveAt(at("05:59"))).toBeUndefined();
  });
});
