// OpenAir for instruments (issue 23 §3, docs/design.md §8) on the real UK publication of `make run`: openAIP's own reader
// (@openaip/openair-parser, strict version 2.0, geometries validated) reads the blocks asked for; the file holds
// exactly the features active or possibly active on the day, one block per polygon; `AA` are the features' intervals
// where a `Yes` feature is not active all day, and `Unknown` ones carry none. The reader takes ~15 ms a block (its zod
// checks): openair.test.ts gives it every fourth block, openair.long.test.ts (`make test-all`) the whole file.
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

/** The OpenAir checks, openAIP's reader given every `every`th block of the file (1: the whole file). */
export function describeOpenAir(every: number): void {
  let features: Feature[];
  let text: string;
  /** The blocks the reader was given, in order, each with what the reader made of it. */
  let read: Array<{ index: number; block: string; parsed: Parsed }>;
  /** Every block of the file (after its header), in order. */
  let blocks: string[];

  beforeAll(async () => {
    const dir = tempDir("openair-");
    const store = new LocalStore(dir);
    await publishUk(store);
    const manifest = (await currentManifest(store))!;
    const gb = manifest.countries.GB!;
    features = (await readCollection(store, gb.key)).features;
    text = gunzipSync((await store.get(gb.openair!.key))!).toString("utf8");
    const [header, ...rest] = text.trimEnd().split("\n\n");
    blocks = rest;
    const given = blocks.map((block, index) => ({ index, block })).filter(({ index }) => index % every === 0);
    const file = path.join(dir, "gb.openair");
    writeFileSync(file, `${[header, ...given.map((g) => g.block)].join("\n\n")}\n`);
    const parser = new Parser({ version: "2.0" });
    const r = await parser.parse(file);
    if (!r.success) throw new Error(`openAIP's reader refuses the file: ${JSON.stringify(r.error).slice(0, 300)}`);
    const parsed = parser.toGeojson().features as Parsed[];
    if (parsed.length !== given.length)
      throw new Error(`openAIP's reader made ${parsed.length} of ${given.length} blocks`);
    read = given.map((g, i) => ({ ...g, parsed: parsed[i]! }));
    mkdirSync(path.join(ROOT, "test-output"), { recursive: true });
    writeFileSync(
      path.join(ROOT, "test-output", "openair.json"),
      `${JSON.stringify({ country: "GB", bytes: Buffer.byteLength(text), gzBytes: gb.openair!.gzBytes, blocks: gb.openair!.blocks }, null, 2)}\n`,
    );
  }, 180_000);

  const polygons = (f: Feature) => (f.geometry.type === "Polygon" ? 1 : f.geometry.coordinates.length);
  const mapping = (f: Feature) => f.properties.vendor.dynamicAirspaceMapping;

  describe(`OpenAir of the UK publication (make run): openAIP's reader on ${every === 1 ? "every block" : `every ${every}th block`}`, () => {
    it("starts with the version 2.0 header, and openAIP's reader takes the blocks given it", () => {
      expect(text.startsWith("*VERSION: 2.0\n*WRITTEN_BY: airspace-publisher\n")).toBe(true);
      expect(blocks.length).toBeGreaterThan(1000);
      expect(read.length).toBe(Math.ceil(blocks.length / every));
    });

    it("holds exactly the features active or possibly active on the day, one block per polygon, in order", () => {
      const kept = features.filter((f) => mapping(f).isActive !== "No");
      expect(features.length - kept.length).toBeGreaterThan(0); // No is left out: there are some
      const ids = kept.flatMap((f) => Array.from({ length: polygons(f) }, () => f.properties._id));
      expect(blocks.map((b) => /^\* (\S+)\n/.exec(b)?.[1])).toEqual(ids);
      const names = kept.flatMap((f) => Array.from({ length: polygons(f) }, () => f.properties.name.trim()));
      expect(read.map((r) => r.parsed.properties.name)).toEqual(read.map((r) => names[r.index]));
    });

    it("AA gives a Yes feature's intervals when it is not active all day; Unknown and all-day features carry none", () => {
      const kept = features.filter((f) => mapping(f).isActive !== "No");
      const ofBlock = kept.flatMap((f) => Array.from({ length: polygons(f) }, () => f));
      const wanted = (f: Feature) => {
        const m = mapping(f);
        const times = m.airspaceActivationTimes;
        const allDay = times.length === 1 && Date.parse(times[0]!.end) - Date.parse(times[0]!.start) === 86_400_000;
        return m.isActive === "Yes" && !allDay ? times.map((t) => [t.start, t.end]) : [];
      };
      // every block carries AA lines exactly where its feature wants them
      const withAa = blocks.map((b) => /\nAA /.test(b));
      expect(withAa).toEqual(ofBlock.map((f) => wanted(f).length > 0));
      expect(withAa.filter(Boolean).length).toBeGreaterThan(100);
      // and openAIP's reader reads them as the feature's intervals
      for (const { index, parsed } of read) {
        const f = ofBlock[index]!;
        const got = (parsed.properties.activationTimes ?? []).map((t) => [t.start, t.end]);
        expect([f.properties._id, got]).toEqual([f.properties._id, wanted(f)]);
      }
      expect(read.filter(({ index }) => withAa[index]).length).toBeGreaterThan(100 / every);
      expect(ofBlock.some((f) => mapping(f).isActive === "Unknown")).toBe(true);
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
}
