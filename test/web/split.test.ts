// How the map page cuts an answer for its parsing workers and packs geometry for its canvas (web/split.ts,
// web/geometry.ts, web/logic.ts summarize), on features serialised the way the origin sends them.
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { mercX, mercY, pack, ringsOf } from "../../web/geometry.js";
import { summarize } from "../../web/logic.js";
import { FeatureCutter } from "../../web/split.js";
import { feature } from "../publish/fixtures.js";

function features(n: number): Feature[] {
  return Array.from({ length: n }, (_, i) => {
    const f = structuredClone(feature(`t-${i}`, "DE", 6 + i / 100));
    // a name holding the text a cut is made at: JSON escapes its quotes, so it must not be cut there
    if (i % 7 === 3) f.properties.name = `},{"type":"Feature" ${i}`;
    return f;
  });
}

const answer = (list: Feature[]) =>
  new TextEncoder().encode(
    `{"type":"FeatureCollection","features":[${list.map((f) => JSON.stringify(f)).join(",")}],"meta":{"count":{"total":${list.length}},"tier":"dynamic"}}`,
  );

const parse = (part: Uint8Array) => JSON.parse(new TextDecoder().decode(part)) as Feature[] | { features: Feature[] };
const featuresOf = (part: Uint8Array) => {
  const p = parse(part);
  return Array.isArray(p) ? p : p.features;
};

/** Feeds the answer in chunks of the given sizes (repeated), as a download would; every piece, in order. */
function cut(bytes: Uint8Array, chunk: number[], cutter = new FeatureCutter(1024, 8192)) {
  const pieces: Uint8Array[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = chunk[k % chunk.length]!;
    pieces.push(...cutter.push(bytes.slice(at, at + n)));
    at += n;
  }
  const rest = cutter.end();
  return "whole" in rest ? { whole: rest.whole } : { pieces: [...pieces, ...rest.pieces] };
}

describe("cutting an answer into pieces while it downloads", () => {
  it.each([
    ["one chunk", [1 << 30]],
    ["bytes one by one", [1]],
    ["odd chunks", [7, 300, 1, 4096, 13]],
    ["network-sized chunks", [65536]],
  ])("cuts into arrays of whole features that together are every feature in order (%s)", (_, chunk) => {
    const list = features(60);
    const out = cut(answer(list), chunk);
    expect("pieces" in out).toBe(true);
    if (!("pieces" in out)) return;
    expect(out.pieces.flatMap(featuresOf)).toEqual(list);
    expect(out.pieces.length).toBeGreaterThanOrEqual(2); // whatever the chunks, some features go ahead
  });

  it("makes pieces that double in size up to the largest", () => {
    const out = cut(answer(features(400)), [512]);
    if (!("pieces" in out)) throw new Error("not cut");
    const sizes = out.pieces.map((p) => p.length);
    expect(sizes[0]).toBeLessThan(sizes[3]!);
    for (const s of sizes.slice(0, -1)) expect(s).toBeLessThan(8192 + 4096); // at most a feature over the largest
  });

  it("keeps an answer laid out otherwise whole, and gives no pieces for an empty one", () => {
    const list = features(30);
    const pretty = new TextEncoder().encode(JSON.stringify({ type: "FeatureCollection", features: list }, null, 1));
    const out = cut(pretty, [100]);
    expect("whole" in out && featuresOf(out.whole)).toEqual(list);
    expect(cut(answer([]), [5])).toEqual({ pieces: [] });
    const noMeta = new TextEncoder().encode(JSON.stringify({ type: "FeatureCollection", features: list }));
    const plain = cut(noMeta, [333]);
    expect("pieces" in plain && plain.pieces.flatMap(featuresOf)).toEqual(list);
  });

  it("says so when the answer ends inside its features", () => {
    const bytes = answer(features(30));
    expect(() => cut(bytes.slice(0, bytes.length - 200), [1000])).toThrow(/ended inside its features/);
  });
});

describe("packing geometry and summarising properties", () => {
  it("packs every ring in Web Mercator, with bounding boxes, and gives the rings back per feature", () => {
    const list = features(3);
    const multi = structuredClone(list[1]!);
    const ring = (multi.geometry as { coordinates: [number, number][][] }).coordinates[0]!;
    multi.geometry = {
      type: "MultiPolygon",
      coordinates: [[ring], [ring.map(([x, y]) => [x + 1, y] as [number, number])]],
    };
    list[1] = multi;
    const packed = pack(list);
    expect(packed.featureEnds).toEqual(new Uint32Array([1, 3, 4]));
    const rings = ringsOf(packed, 1);
    expect(rings).toHaveLength(2);
    expect([...rings[1]!.subarray(0, 2)]).toEqual([mercX(ring[0]![0] + 1), mercY(ring[0]![1])]);
    expect(rings[0]!.length).toBe(ring.length * 2);
    const box = [...packed.boxes.subarray(4, 8)];
    expect(box[0]).toBeCloseTo(mercX(Math.min(...ring.map((p) => p[0]))), 12);
    expect(box[2]).toBeCloseTo(mercX(Math.max(...ring.map((p) => p[0])) + 1), 12);
    expect(box[1]).toBeLessThan(box[3]!); // north is up: smaller y
  });

  it("summarises a feature, sharing one style object between features styled alike", () => {
    const styles = new Map();
    const [a, b] = features(2).map((f, i) => summarize(f, i, styles));
    expect(a!.style).toBeDefined();
    expect(a!.style).toBe(b!.style);
    expect(b!.index).toBe(1);
    expect(a!.id).toBe("t-0");
    expect(a!.lowerFt).toBe(0);
    expect(a!.upperFt).toBe(2500);
  });
});
