// Explanations stored as deltas on the day's first version: a refresh writes its own over the earlier run's stored
// delta (writeExplanationsOver) without reading the first version's whole document.
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EXPLAIN_SCHEMA, type ExplainDocument, type Explanation } from "../../src/model/explain.js";
import {
  explainKey,
  readExplanations,
  writeExplanations,
  writeExplanationsOver,
} from "../../src/publish/explanations.js";
import { MemoryStore } from "../../src/store/memory-store.js";

const why = (rule: string): Explanation => ({ rule, because: `${rule}, because` });
const doc = (version: string, features: Record<string, Explanation>): ExplainDocument => ({
  schema: EXPLAIN_SCHEMA,
  version,
  date: "2026-09-14",
  now: "2026-09-14T10:00:00Z",
  sources: [],
  features,
});
const header = ({ features: _, ...rest }: ExplainDocument) => rest;
const stored = async (store: MemoryStore, version: string) =>
  JSON.parse(gunzipSync((await store.get(explainKey(version)))!).toString("utf8")) as ExplainDocument;

describe("writeExplanationsOver", () => {
  const first = doc("v1", { a: why("active"), b: why("active"), c: why("unknown") });

  it("writes the changed entries over the earlier delta; reading merges as the whole documents would", async () => {
    const store = new MemoryStore();
    await writeExplanations(store, first);
    expect(await writeExplanationsOver(store, header(doc("v2", {})), "v1", { b: why("not active") }, "v1")).toBe(true);
    expect(await writeExplanationsOver(store, header(doc("v3", {})), "v2", { c: why("active") }, "v1")).toBe(true);
    expect(await stored(store, "v3")).toMatchObject({
      base: "v1",
      removed: [],
      features: { b: why("not active"), c: why("active") },
    });
    expect(await readExplanations(store, "v3")).toEqual(
      doc("v3", { a: why("active"), b: why("not active"), c: why("active") }),
    );
    // the same as writing the whole third document against the first
    const whole = new MemoryStore();
    await writeExplanations(whole, first);
    await writeExplanations(whole, doc("v3", { a: why("active"), b: why("not active"), c: why("active") }), "v1");
    expect(await readExplanations(whole, "v3")).toEqual(await readExplanations(store, "v3"));
  });

  it("declines, writing nothing, when the earlier run's document is missing or a delta on another version", async () => {
    const store = new MemoryStore();
    expect(await writeExplanationsOver(store, header(doc("v2", {})), "v1", {}, "v1")).toBe(false);
    await writeExplanations(store, first);
    await writeExplanations(store, doc("v2", first.features), "v1");
    expect(await writeExplanationsOver(store, header(doc("v3", {})), "v2", {}, "v0")).toBe(false);
    expect(await store.get(explainKey("v3"))).toBeUndefined();
  });
});
