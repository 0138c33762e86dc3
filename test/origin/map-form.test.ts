// The map page's compact form (src/origin/map-form.ts): what a frame carries comes back as the page's summary
// of the feature and its rings within the quantum; a cut, damaged or over-long answer is a MapFormError.
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import {
  decodeMapForm,
  encodeMapFrame,
  MapFormError,
  MapFormReader,
  mapEnd,
  mercX,
  mercY,
  summaryOf,
} from "../../src/origin/map-form.js";
import { featureSpans } from "../../src/origin/published.js";
import { feature } from "../publish/fixtures.js";

const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** Three features, the second a MultiPolygon of two polygons (the second shifted east by a degree). */
function features(): Feature[] {
  const list = [feature("a-1", "DE", 8), feature("a-2", "DE", 9), feature("a-3", "DE", 10)];
  const multi = structuredClone(list[1]!);
  const ring = (multi.geometry as { coordinates: [number, number][][] }).coordinates[0]!;
  multi.geometry = {
    type: "MultiPolygon",
    coordinates: [[ring], [ring.map(([x, y]) => [x + 1, y] as [number, number])]],
  };
  multi.properties.name = 'quotes " and ünïcödé';
  list[1] = multi;
  return list;
}

describe("the map form", () => {
  it("gives back each feature's summary, its country, and its rings within 2^-26 of the world", () => {
    const list = features();
    const other = feature("b-1", "FR", 2);
    const bytes = join(encodeMapFrame("DE", list), encodeMapFrame("FR", [other]), mapEnd(2));
    const frames = decodeMapForm(bytes);
    expect(frames.map((f) => f.features.map((x) => `${x.country}/${x.id}`))).toEqual([
      ["DE/a-1", "DE/a-2", "DE/a-3"],
      ["FR/b-1"],
    ]);
    for (const [i, f] of list.entries()) expect(frames[0]!.features[i]).toEqual({ ...summaryOf(f), country: "DE" });
    // one style object for features styled alike
    expect(frames[0]!.features[0]!.style).toBeDefined();
    expect(frames[0]!.features[0]!.style).toBe(frames[0]!.features[2]!.style);
    const packed = frames[0]!.packed;
    expect([...packed.featureEnds]).toEqual([1, 3, 4]);
    const want = list.flatMap((f) =>
      (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates).flat(2),
    );
    expect(packed.coords.length).toBe(want.length * 2);
    let worst = 0;
    for (const [k, [lon, lat]] of want.entries()) {
      worst = Math.max(
        worst,
        Math.abs(packed.coords[2 * k]! - mercX(lon!)),
        Math.abs(packed.coords[2 * k + 1]! - mercY(lat!)),
      );
    }
    expect(worst).toBeLessThanOrEqual(2 ** -27 + 1e-15);
    // the MultiPolygon's box spans both polygons; north is up (smaller y)
    const ring = (list[1]!.geometry as { coordinates: [number, number][][][] }).coordinates[1]![0]!;
    expect(packed.boxes[4 + 2]).toBeCloseTo(mercX(Math.max(...ring.map((p) => p[0]))), 7);
    expect(packed.boxes[4 + 1]).toBeLessThan(packed.boxes[4 + 3]!);
  });

  it("decodes the same frames from an answer read in pieces of any size, each frame as soon as it is in", () => {
    const first = encodeMapFrame("DE", features());
    const bytes = join(first, encodeMapFrame("FR", [feature("b-1", "FR", 2)]), mapEnd(2));
    const whole = decodeMapForm(bytes);
    for (const size of [1, 3, 7, 64, 1000]) {
      const reader = new MapFormReader();
      let firstSeenAt = -1;
      for (let at = 0; at < bytes.length; at += size) {
        reader.push(bytes.subarray(at, at + size));
        if (firstSeenAt < 0 && reader.frames.length > 0) firstSeenAt = Math.min(at + size, bytes.length);
      }
      expect(reader.end()).toEqual(whole);
      expect(firstSeenAt).toBeLessThan(first.length + size);
    }
  });

  it("words its intervals in minutes from the frame's first, and in ms when a bound is off the minute", () => {
    const f = feature("a-1", "DE", 8);
    const m = f.properties.vendor.dynamicAirspaceMapping;
    m.airspaceActivationTimes = [{ start: "2026-09-14T06:00:00Z", end: "2026-09-14T08:00:30Z" }];
    const [decoded] = decodeMapForm(join(encodeMapFrame("DE", [f]), mapEnd(1)));
    expect(decoded!.features[0]!.intervals.slice(0, 2)).toEqual([
      Date.parse("2026-09-14T06:00:00Z"),
      Date.parse("2026-09-14T08:00:30Z"),
    ]);
  });

  it("keeps an empty answer: no frame, only the end", () => {
    expect(decodeMapForm(mapEnd(0))).toEqual([]);
  });

  it("tells a cut answer from a whole one at every length", () => {
    const bytes = join(encodeMapFrame("DE", features()), mapEnd(1));
    const verdicts = new Set<string>();
    for (let n = 0; n < bytes.length; n++) {
      try {
        decodeMapForm(bytes.subarray(0, n));
        verdicts.add(`accepted at ${n}`);
      } catch (e) {
        expect(e).toBeInstanceOf(MapFormError);
        verdicts.add((e as Error).message.replace(/\d+/g, "N"));
      }
    }
    expect([...verdicts].sort()).toEqual(["the answer is cut off after N bytes"]);
  });

  it("refuses a missing frame, bytes after the end, and a word that is not a frame's", () => {
    const frame = encodeMapFrame("DE", features());
    expect(() => decodeMapForm(join(frame, mapEnd(2)))).toThrow("the answer ends after 1 of 2 frames");
    expect(() => decodeMapForm(join(frame, mapEnd(1), new Uint8Array(4)))).toThrow("bytes after its end");
    const damaged = join(frame, mapEnd(1));
    damaged[0] = 0;
    expect(() => decodeMapForm(damaged)).toThrow("no map frame at byte 0");
  });
});

describe("a popup's feature in its fragment's text (the origin's featureSpans)", () => {
  it("finds every feature by id, ids with quotes and the start's own words inside strings included", () => {
    const list = features();
    list[0]!.properties._id = 'odd "id" \\ é';
    list[2]!.properties.name = ',{"type":"Feature","properties":{"_id":"fake"}}';
    const text = list.map((f) => JSON.stringify(f)).join(",");
    const spans = featureSpans(text);
    expect([...spans.keys()]).toEqual(list.map((f) => f.properties._id));
    for (const f of list) {
      const [from, to] = spans.get(f.properties._id)!;
      expect(text.slice(from, to)).toBe(JSON.stringify(f));
    }
  });

  it("gives no places for a text of another shape (features then not found, never cut wrongly)", () => {
    expect(featureSpans('{"properties":{"_id":"a"},"type":"Feature"}').size).toBe(0);
    expect(featureSpans("").size).toBe(0);
  });
});
