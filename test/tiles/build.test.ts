// The vector tiles of a published day (src/tiles/build.ts) held to the features they were built from
// (src/tiles/check.ts): fixtures/sample (openAIP AT, CH, DE) published as `publish` does, its archive read back.
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { beforeAll, describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { utcDay } from "../../src/model/time.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { archiveOf, buildTiles, MAX_ZOOM, maxError } from "../../src/tiles/build.js";
import { checkArchive } from "../../src/tiles/check.js";
import { patchTiles } from "../../src/tiles/patch.js";
import { INTERVALS, minutesOfDay, tileProperties } from "../../src/tiles/properties.js";
import { openArchive } from "../../src/tiles/read-back.js";
import { publishSample } from "../origin/harness.js";
import { DAY, feature } from "../publish/fixtures.js";

let features: Feature[];
const day = utcDay("2026-09-14")!;

beforeAll(async () => {
  const { store } = await publishSample();
  const local = new LocalStore(store);
  features = (await readEurope(local, (await currentManifest(local))!)).features;
}, 60_000);

async function builtArchive(fs: readonly Feature[]) {
  const set = await buildTiles(fs, day);
  return { set, archive: await openArchive(archiveOf(set)) };
}

describe("the tiles of fixtures/sample", () => {
  it("hold at z9 every published feature, with its isActive and intervals, within the stated distance", async () => {
    const { archive } = await builtArchive(features);
    const r = await checkArchive(archive, features, day);
    expect(features.length).toBeGreaterThan(200);
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
    expect(r.properties).toEqual([]);
    expect(r.farther).toEqual([]);
    expect(r.vertices).toBeGreaterThan(5_000);
    // the stated distance at the sample's southernmost latitude (45.7°N) bounds every error
    expect(r.drawnError).toBeLessThanOrEqual(maxError(45));
    expect(r.publishedError).toBeLessThanOrEqual(maxError(45));
  });

  it("are the same bytes built twice (a version's archive is a function of its features)", async () => {
    const [a, b] = [await buildTiles(features, day), await buildTiles(features, day)];
    expect(a.tiles.length).toBe(b.tiles.length);
    expect(a.tiles.every((t, i) => Buffer.compare(t.data, b.tiles[i]!.data) === 0)).toBe(true);
  });

  it("leave specks out below z9: a small feature is in fewer zooms than a large one", async () => {
    const { set } = await builtArchive(features);
    const idsAt = (z: number) => {
      const ids = new Set<unknown>();
      for (const t of set.tiles.filter((t) => t.z === z)) {
        const layer = new VectorTile(new PbfReader(gunzipSync(t.data))).layers.airspace;
        for (let i = 0; i < (layer?.length ?? 0); i++) ids.add(layer!.feature(i).properties._id);
      }
      return ids.size;
    };
    expect(idsAt(MAX_ZOOM)).toBe(features.filter((f) => f.properties.featureCategory === "airspace").length);
    expect(idsAt(5)).toBeGreaterThan(0);
    expect(idsAt(5)).toBeLessThan(idsAt(MAX_ZOOM));
    expect(idsAt(2)).toBeLessThan(idsAt(5));
  });

  it("tell when the check fails: a feature left out, or its isActive changed, is named", async () => {
    const { archive } = await builtArchive(features.slice(1));
    const flipped = structuredClone(features);
    const m = flipped[2]!.properties.vendor.dynamicAirspaceMapping;
    m.isActive = m.isActive === "Yes" ? "No" : "Yes";
    const r = await checkArchive(archive, flipped, day);
    expect(r.missing).toEqual([features[0]!.properties._id]);
    expect(r.properties.join()).toContain(features[2]!.properties._id);
  });
});

describe("patchTiles (a refresh)", () => {
  it("gives byte for byte the tiles a build of the changed features gives, reading only the tiles they reach", async () => {
    const before = await builtArchive(features);
    const bytes = archiveOf(before.set);
    // a refresh: three features' activation changed at a later now (the same geometry)
    const changed = [3, 40, 120].map((i) => {
      const f = structuredClone(features[i]!);
      const m = f.properties.vendor.dynamicAirspaceMapping;
      m.isActive = m.isActive === "Yes" ? "No" : "Yes";
      m.airspaceActivationTimes = [{ start: "2026-09-14T10:00:00Z", end: "2026-09-14T12:30:00Z" }];
      m.dynamicScheduleAndVerticalLimits = [];
      return f;
    });
    const byId = new Map(changed.map((f) => [f.properties._id, f]));
    const after = await buildTiles(
      features.map((f) => byId.get(f.properties._id) ?? f),
      day,
    );
    const patched = await patchTiles(bytes, changed, day);
    const key = (t: { z: number; x: number; y: number }) => `${t.z}/${t.x}/${t.y}`;
    const want = new Map(after.tiles.map((t) => [key(t), Buffer.from(t.data)]));
    expect(patched.tiles.length).toBe(after.tiles.length);
    for (const t of patched.tiles) expect(Buffer.from(t.data).equals(want.get(key(t))!), key(t)).toBe(true);
    const differing = after.tiles.filter((t, i) => Buffer.compare(t.data, before.set.tiles[i]!.data) !== 0).length;
    expect(patched.rewritten).toBe(differing);
    expect(patched.read).toBeLessThan(after.tiles.length / 2);
  });
});

describe("minutesOfDay", () => {
  const at = (h: number, m = 0) => DAY.start + (h * 60 + m) * 60_000;
  it("clips to the day, rounds outwards to the minute and merges what touches", () => {
    expect(minutesOfDay([at(-2), at(1), at(1), at(2, 30), at(5, 0) + 30_000, at(6, 0) + 1], DAY)).toEqual([
      0, 150, 300, 361,
    ]);
    expect(minutesOfDay([at(23), at(26)], DAY)).toEqual([1380, 1440]);
    expect(minutesOfDay([at(25), at(26)], DAY)).toEqual([]);
  });

  it(`keeps ${INTERVALS} pairs; past them the last pair covers the rest (more active, never less)`, () => {
    const flat = Array.from({ length: 20 }, (_, i) => [at(i), at(i, 30)]).flat();
    const pairs = minutesOfDay(flat, DAY);
    expect(pairs.length).toBe(2 * INTERVALS);
    expect(pairs.slice(-2)).toEqual([(INTERVALS - 1) * 60, 19 * 60 + 30]);
  });

  it("gives a feature's tile properties the pairs, their count and flat scalars only", () => {
    const p = tileProperties(feature("a", "DE", 8), DAY);
    expect(p).toMatchObject({ _id: "a", featureCategory: "airspace", country: "DE", upperFt: 2500, lowerFt: 0 });
    expect(Object.values(p).every((v) => ["string", "number", "boolean"].includes(typeof v))).toBe(true);
    expect(p.intervals).toBe(Object.keys(p).filter((k) => /^s\d+$/.test(k)).length);
  });
});
