// The client's held collection (src/client/collection.ts): a change set applied to the text of one published
// collection gives the text of the next, byte for byte, whatever was added, changed or removed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChange } from "../../src/client/collection.js";
import type { Feature, FeatureCollection } from "../../src/model/contract.js";
import { diffTexts } from "../../src/publish/changes.js";
import { feature } from "../publish/fixtures.js";

const collection = (features: Feature[]): FeatureCollection => ({
  type: "FeatureCollection",
  features: [...features].sort((a, b) => (a.properties._id < b.properties._id ? -1 : 1)),
  meta: {
    count: { airspaces: features.length, airspaceNotams: 0, graphicalNotams: 0, total: features.length },
    tier: "dynamic",
  },
});

/** A collection: some of twelve ids (one with a quote and a backslash), each in one of three states. */
const collectionArb = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 2 })), {
    selector: ([id]) => id,
    maxLength: 12,
  })
  .map((list) => collection(list.map(([id, x]) => feature(id === 11 ? 'f"\\11' : `f${id}`, "DE", x))));

describe("the client's held collection", () => {
  it("becomes the next published collection, byte for byte, when the change between them is applied", () => {
    fc.assert(
      fc.property(collectionArb, collectionArb, (a, b) => {
        const [before, after] = [JSON.stringify(a), JSON.stringify(b)];
        const change = { meta: b.meta, ...diffTexts(before, after) };
        expect(applyChange(before, change)).toBe(after);
      }),
    );
  });

  it("refuses a text that is not a collection as published", () => {
    const change = { meta: {}, added: [], changed: [], removed: [] };
    expect(() => applyChange('{"type":"FeatureCollection","features":[{"a":1}', change)).toThrow(/does not end/);
    expect(() => applyChange("[]", change)).toThrow(/not a FeatureCollection/);
  });
});
