// The validate stage per country: a feature that fails the contract, or repeats an `_id` the country has already,
// is left out with a diagnostic; the rest is published. A second derivation in the same process (watch) validates and
// deflates again only the chunks whose JSON changed, and publishes the same bytes as from nothing.
import { describe, expect, it } from "vitest";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { CHUNK } from "../../src/publish/artifacts.js";
import { forgetChunks, memoChunks } from "../../src/publish/chunk-memo.js";
import { countryStage } from "../../src/publish/country-stage.js";
import { feature } from "./fixtures.js";

describe("countryStage", () => {
  it("leaves a repeated _id out (the first feature with it is kept) and says so", async () => {
    const a = feature("ed-r1", "DE", 8);
    const again = {
      ...feature("ed-r1", "DE", 9),
      properties: { ...feature("ed-r1", "DE", 9).properties, name: "TWICE" },
    };
    const b = feature("ed-r2", "DE", 10);
    const sink = new DiagnosticSink();
    const stage = await countryStage(
      [a, again, b],
      { tier: "dynamic", date: "2026-09-14", airspaceNotams: () => 0 },
      sink,
    );
    const de = stage.byCountry.get("DE")!.features;
    expect(de.map((f) => f.properties._id)).toEqual(["ed-r1", "ed-r2"]);
    expect(de[0]).toBe(a);
    expect(sink.countByCode()).toEqual({ "contract.duplicateId": 1 });
    expect(stage.artifacts.get("DE")!.entry.count.total).toBe(2);
  });

  it("derived again, takes the unchanged chunks as this process made them: the same bytes as from nothing", async () => {
    const opts = { tier: "dynamic" as const, date: "2026-09-14", airspaceNotams: () => 0 };
    const ids = Array.from({ length: 3 * CHUNK + 5 }, (_, i) => `ed-r${String(i).padStart(4, "0")}`);
    const first = ids.map((id, i) => feature(id, "DE", 6 + (i % 50) / 10));
    // one feature of the second chunk renamed
    const second = first.map((f, i) =>
      i === CHUNK + 7 ? { ...f, properties: { ...f.properties, name: "RENAMED" } } : f,
    );
    forgetChunks();
    const firstStage = await countryStage(first, opts, new DiagnosticSink());
    expect(firstStage.known.size).toBe(0);
    const memoFolder = "country/2026-09-14/dynamic-DE";
    const before = new Map(memoChunks(memoFolder)!);
    expect(before.size).toBe(4);
    const again = await countryStage(second, opts, new DiagnosticSink());
    const after = memoChunks(memoFolder)!;
    // three chunks kept as they were (the same pieces), one made again
    const kept = [...after].filter(([d, c]) => before.get(d)?.json === c.json && before.get(d)?.openair === c.openair);
    expect(kept).toHaveLength(3);
    expect([...after.keys()].filter((d) => !before.has(d))).toHaveLength(1);
    // its change from the collection made first, known without inflating either: the renamed feature alone
    const known = again.known.get("DE")!;
    expect(known.sha256).toBe(firstStage.artifacts.get("DE")!.entry.sha256);
    expect(known.change.changed.map((f) => f.properties.name)).toEqual(["RENAMED"]);
    expect([known.change.added, known.change.removed]).toEqual([[], []]);
    forgetChunks();
    const fresh = await countryStage(second, opts, new DiagnosticSink());
    const [x, y] = [again.artifacts.get("DE")!, fresh.artifacts.get("DE")!];
    expect(x.fragment.equals(y.fragment)).toBe(true);
    expect(x.openair.fragment.equals(y.openair.fragment)).toBe(true);
    expect(x.gz().equals(y.gz())).toBe(true);
    expect(x.entry).toEqual(y.entry);
    expect(x.layout).toEqual(y.layout);
  });
});
