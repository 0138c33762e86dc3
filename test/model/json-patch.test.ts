// jsonPatch/patched (src/model/json.ts): a patch applied to a value's JSON gives the other value's JSON byte for byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonPatch, patched } from "../../src/model/json.js";

const apply = (a: unknown, b: unknown) => {
  const p = jsonPatch(a, b);
  // through JSON, as the stage cache keeps it, applied to `a` as read back from its JSON
  return p === undefined
    ? JSON.parse(JSON.stringify(a))
    : patched(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(p)));
};

describe("jsonPatch", () => {
  it("names only what changed, deep in objects of the same keys", () => {
    const a = { id: "x", vendor: { mapping: { isActive: "Yes", times: [1, 2] }, style: { w: 2 } }, n: 1 };
    const b = { id: "x", vendor: { mapping: { isActive: "No", times: [1, 2] }, style: { w: 2 } }, n: 1 };
    expect(jsonPatch(a, b)).toEqual({ vendor: { mapping: { isActive: ["No"] } } });
    expect(jsonPatch(a, structuredClone(a))).toBeUndefined();
    expect(JSON.stringify(apply(a, b))).toBe(JSON.stringify(b));
  });

  it("replaces an object whose keys differ in name or order, and an array that changed, whole", () => {
    expect(jsonPatch({ a: 1, b: 2 }, { b: 2, a: 1 })).toEqual([{ b: 2, a: 1 }]);
    expect(jsonPatch({ a: 1 }, { a: 1, c: 3 })).toEqual([{ a: 1, c: 3 }]);
    expect(jsonPatch({ t: [1, 2] }, { t: [1, 3] })).toEqual({ t: [[1, 3]] });
    // a key whose value is undefined is no key in JSON
    expect(jsonPatch({ a: 1, u: undefined }, { a: 1 })).toBeUndefined();
  });

  it("refuses a patch made for another value, rather than guess", () => {
    expect(patched({ a: 1 }, { b: [2] })).toBeUndefined();
    expect(patched([1], { a: [2] })).toBeUndefined();
    expect(patched({ a: { b: 1 } }, { a: { c: [2] } })).toBeUndefined();
    expect(patched({ a: 1 }, [] as unknown as [unknown])).toBeUndefined();
  });

  it("gives the other value's JSON byte for byte, for any two JSON values", () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(JSON.stringify(apply(a, b))).toBe(JSON.stringify(b));
      }),
      { numRuns: 500 },
    );
    // two values that share most of their structure, the common case
    const keyed = fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.integer(), fc.string(), fc.boolean()));
    fc.assert(
      fc.property(keyed, keyed, fc.string({ maxLength: 3 }), (base, other, k) => {
        const b = { ...base, nested: { ...base, [k]: other } };
        const a = { ...base, nested: { ...base } };
        expect(JSON.stringify(apply(a, b))).toBe(JSON.stringify(b));
      }),
      { numRuns: 300 },
    );
  });
});
