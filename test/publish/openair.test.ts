// OpenAir for instruments (issue 23 §3, docs/design.md §8) on the real UK publication of `make run`: openAIP's own reader
// (@openaip/openair-parser, strict version 2.0, geometries validated) reads the whole file; it holds exactly the
// features active or possibly active on the day, one block per polygon; `AA` are the features' intervals where a
// `Yes` feature is not active all day, and `Unknown` ones carry none.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Parser } from "@openaip/openair-parser";
import { beforeAll, describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { openairLimit } from "../../src/publish/openair.js";
import { currentManifest, readCollection } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { ROOT, tempDir } from "../helpers.js";
import { publishUk } from "./uk-publication.js";

interface Parsed {
  properties: { name: string; type?: string; class: string; activationTimes?: Array<{ start?: string; end?: string }> };
}

let features: Feature[];
let text: string;
let parsed: Parsed[];

beforeAll(async () => {
  const dir = tempDir("openair-");
  const store = new LocalStore(dir);
  await publishUk(store);
  const manifest = (await currentManifest(store))!;
  const gb = manifest.countries.GB!;
  features = (await readCollection(store, gb.key)).features;
  text = gunzipSync((await store.get(gb.openair!.key))!).toString("utf8");
  const file = path.join(dir, "gb.openair");
  writeFileSync(file, text);
  const parser = new Parser({ version: "2.0" });
  const r = await parser.parse(file);
  if (!r.success) throw new Error(`openAIP's reader refuses the file: ${JSON.stringify(r.error).slice(0, 300)}`);
  parsed = parser.toGeojson().features as Parsed[];
  mkdirSync(path.join(ROOT, "test-output"), { recursive: true });
  writeFileSync(
    path.join(ROOT, "test-output", "openair.json"),
    `${JSON.stringify({ country: "GB", bytes: Buffer.byteLength(text), gzBytes: gb.openair!.gzBytes, blocks: gb.openair!.blocks }, null, 2)}\n`,
  );
}, 180_000);

const polygons = (f: Feature) => (f.geometry.type === "Polygon" ? 1 : f.geometry.coordinates.length);
const mapping = (f: Feature) => f.properties.vendor.dynamicAirspaceMapping;

describe("OpenAir of the UK publication (make run)", () => {
  it("starts with the version 2.0 header and parses whole with openAIP's reader", () => {
    expect(text.startsWith("*VERSION: 2.0\n*WRITTEN_BY: airspace-publisher\n")).toBe(true);
    expect(parsed.length).toBeGreaterThan(1000);
  });

  it("holds exactly the features active or possibly active on the day, one block per polygon, in order", () => {
    const kept = features.filter((f) => mapping(f).isActive !== "No");
    expect(features.length - kept.length).toBeGreaterThan(0); // No is left out: there are some
    expect(parsed.length).toBe(kept.reduce((n, f) => n + polygons(f), 0));
    const names = kept.flatMap((f) => Array.from({ length: polygons(f) }, () => f.properties.name.trim()));
    expect(parsed.map((p) => p.properties.name)).toEqual(names);
  });

  it("AA gives a Yes feature's intervals when it is not active all day; Unknown and all-day features carry none", () => {
    const kept = features.filter((f) => mapping(f).isActive !== "No");
    const blocks = kept.flatMap((f) => Array.from({ length: polygons(f) }, () => f));
    let withTimes = 0;
    blocks.forEach((f, i) => {
      const got = (parsed[i]!.properties.activationTimes ?? []).map((t) => [t.start, t.end]);
      const m = mapping(f);
      const times = m.airspaceActivationTimes;
      const allDay = times.length === 1 && Date.parse(times[0]!.end) - Date.parse(times[0]!.start) === 86_400_000;
      const want = m.isActive === "Yes" && !allDay ? times.map((t) => [t.start, t.end]) : [];
      if (want.length) withTimes++;
      expect([f.properties._id, got]).toEqual([f.properties._id, want]);
    });
    expect(withTimes).toBeGreaterThan(100);
    expect(blocks.some((f) => mapping(f).isActive === "Unknown")).toBe(true);
  });

  it("types graphical NOTAMs: restrictive ones TFR, the others N; frequencies in AF/AG", () => {
    const blockOf = (id: string) => text.slice(text.indexOf(`* ${id}\n`)).split("\n\n")[0]!;
    const restrictive = features.find(
      (f) => mapping(f).activationType === "isActiveRestrictiveNOTAM" && mapping(f).isActive !== "No",
    )!;
    expect(blockOf(restrictive.properties._id)).toMatch(/\nAY TFR\n/);
    const activity = features.find(
      (f) => mapping(f).activationType === "isActiveActivityNOTAM" && mapping(f).isActive !== "No",
    )!;
    expect(blockOf(activity.properties._id)).toMatch(/\nAY N\n/);
    expect(blockOf("yaixm-aberdeen-ctr")).toMatch(
      /\nAC D\nAY CTR\nAN ABERDEEN CTR\nAF 119\.055\nAG ABERDEEN APPROACH\n/,
    );
  });

  it("writes limits as openAIP's reader takes them", () => {
    expect(openairLimit({ value: 95, unit: 6, referenceDatum: 2 }, true)).toBe("FL095");
    expect(openairLimit({ value: 999, unit: 6, referenceDatum: 2 }, true)).toBe("UNL");
    expect(openairLimit({ value: 0, unit: 1, referenceDatum: 0 }, false)).toBe("GND");
    expect(openairLimit({ value: 2500, unit: 1, referenceDatum: 1 }, true)).toBe("2500ft AMSL");
    expect(openairLimit({ value: 1000, unit: 1, referenceDatum: 0 }, true)).toBe("1000ft AGL");
    expect(openairLimit({ value: 300, unit: 0, referenceDatum: 1 }, true)).toBe("300m AMSL");
    // a height on the standard pressure is its flight level
    expect(openairLimit({ value: 6500, unit: 1, referenceDatum: 2 }, false)).toBe("FL065");
  });
});
