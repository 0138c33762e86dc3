import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { featuresDigest } from "../../src/client/digest.js";
import {
  type Artifacts,
  buildArtifacts,
  CHUNK,
  chunkFeatureTexts,
  chunkPieces,
  chunkText,
  countOf,
  EUROPE,
  joinMember,
  patchArtifact,
  pieceOf,
  serialise,
} from "../../src/publish/artifacts.js";
import { openairText } from "../../src/publish/openair.js";
import { validateCollection } from "../../src/publish/validate.js";
import { tempDir } from "../helpers.js";
import { byCountry, feature } from "./fixtures.js";

const features = [feature("a1", "DE", 8), feature("a2", "DE", 9), feature("b1", "FR", 2), feature("c1", "AT", 14)];

/** Number of gzip members: inflate member after member until the input is used up. */
function gzipMembers(buf: Buffer): number {
  let members = 0;
  let rest = buf;
  while (rest.length > 0) {
    const inflater = zlib.gunzipSync(rest, { info: true }) as unknown as { engine: { bytesWritten: number } };
    members++;
    rest = rest.subarray(inflater.engine.bytesWritten);
  }
  return members;
}

/** EUROPE's member joined from the country artifacts, as read-back and the origin do. */
function europeOf(arts: Artifacts): Buffer {
  const pieces = arts.europe.parts.map((cc) => pieceOf(arts.countries.get(cc)!));
  return joinMember(pieces, arts.europe.count, "dynamic");
}

describe("buildArtifacts", () => {
  it("makes one gzip member per country, and EUROPE joins them into one; each a valid collection of its features", async () => {
    const arts = await buildArtifacts(byCountry(features), "dynamic");
    expect([...arts.countries.keys()].sort()).toEqual(["AT", "DE", "FR"]);
    const europe = { entry: arts.europe, gz: () => europeOf(arts) };
    for (const [cc, a] of [...arts.countries, [EUROPE, europe] as const]) {
      expect(gzipMembers(a.gz())).toBe(1);
      const fc = JSON.parse(zlib.gunzipSync(a.gz()).toString("utf8"));
      expect(validateCollection(fc)).toEqual([]);
      const want = cc === EUROPE ? features : features.filter((f) => f.properties.country === cc);
      expect(fc.features.map((f: { properties: { _id: string } }) => f.properties._id).sort()).toEqual(
        want.map((f) => f.properties._id).sort(),
      );
      expect(fc.meta).toEqual({ count: a.entry.count, tier: "dynamic" });
      expect(a.entry.bytes).toBe(zlib.gunzipSync(a.gz()).length);
      expect(a.entry.gzBytes).toBe(a.gz().length);
      expect(a.entry.sha256).toBe(createHash("sha256").update(a.gz()).digest("hex"));
    }
    expect(arts.europe.parts).toEqual(["AT", "DE", "FR"]);
    expect(arts.europe.count).toEqual({ airspaces: 4, airspaceNotams: 0, graphicalNotams: 0, total: 4 });
  });

  it("gzip -t sees one valid member in EUROPE's join", async () => {
    const arts = await buildArtifacts(byCountry(features), "dynamic");
    const file = path.join(tempDir(), "europe.geojson.gz");
    writeFileSync(file, europeOf(arts));
    expect(() => execFileSync("gzip", ["-t", file])).not.toThrow();
  });

  it("fragments are raw deflate of the comma-joined features, with the CRC-32 and length in the entry", async () => {
    const arts = await buildArtifacts(byCountry(features), "dynamic");
    for (const [cc, a] of arts.countries) {
      const raw = zlib.inflateRawSync(a.fragment, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      const want = features
        .filter((f) => f.properties.country === cc)
        .map((f) => JSON.stringify(f))
        .join(",");
      expect(raw.toString("utf8")).toBe(want);
      expect(a.entry.fragmentBytes).toBe(raw.length);
      expect(a.entry.fragmentCrc32).toBe(zlib.crc32(raw));
    }
  });

  it("is byte-for-byte repeatable", async () => {
    const one = await buildArtifacts(byCountry(features), "dynamic");
    const two = await buildArtifacts(byCountry(features.map((f) => structuredClone(f))), "dynamic");
    for (const [cc, a] of one.countries) expect(two.countries.get(cc)!.gz().equals(a.gz())).toBe(true);
    expect(two.europe).toEqual(one.europe);
  });

  it("publishes an empty collection for a requested country without features; EUROPE leaves it out of the join", async () => {
    const m = byCountry(features);
    m.set("LU", { features: [], airspaceNotams: 0 });
    const arts = await buildArtifacts(m, "dynamic");
    const lu = JSON.parse(zlib.gunzipSync(arts.countries.get("LU")!.gz()).toString("utf8"));
    expect(lu.features).toEqual([]);
    expect(arts.europe.parts).toEqual(["AT", "DE", "FR"]);
    expect(JSON.parse(zlib.gunzipSync(europeOf(arts)).toString("utf8")).features).toHaveLength(features.length);
  });
});

describe("chunked fragments", () => {
  it("a country patched in one chunk is byte for byte the country serialised again", async () => {
    const many = Array.from({ length: 2 * CHUNK + 7 }, (_, i) =>
      feature(`d${String(i).padStart(5, "0")}`, "DE", i % 40),
    );
    const count = countOf(many, 0);
    const first = await serialise(many, count, "dynamic");
    const layout = first.layout!;
    expect(layout.chunks).toHaveLength(3);
    expect(layout.openairChunks).toHaveLength(3);
    expect(layout.lengths).toEqual(many.map((f) => JSON.stringify(f).length));
    expect(zlib.gunzipSync(first.gz()).toString("utf8")).toBe(
      JSON.stringify({ type: "FeatureCollection", features: many, meta: { count, tier: "dynamic" } }),
    );
    // feature CHUNK + 3 (in the second chunk) renamed: only that chunk is deflated again, GeoJSON and OpenAir
    const changed = many.map((f, i) =>
      i === CHUNK + 3 ? { ...f, properties: { ...f.properties, name: "RENAMED, LONGER" } } : f,
    );
    const pieces = chunkPieces(first.fragment, layout.chunks)!;
    const text = chunkText(
      changed.slice(CHUNK, 2 * CHUNK).map((f) => JSON.stringify(f)),
      1,
    );
    const oaPieces = chunkPieces(first.openair.fragment, layout.openairChunks)!;
    const oaText = openairText(changed.slice(CHUNK, 2 * CHUNK)).text;
    const { counts } = openairText(changed);
    const lengths = changed.map((f) => JSON.stringify(f).length);
    const patched = await patchArtifact(
      { pieces, renewed: new Map([[1, text]]), lengths, digests: [...layout.digests] },
      { pieces: oaPieces, renewed: new Map([[1, oaText]]), counts },
      count,
      "dynamic",
    );
    const again = await serialise(changed, count, "dynamic");
    expect(patched.gz().equals(again.gz())).toBe(true);
    expect(patched.fragment.equals(again.fragment)).toBe(true);
    expect(patched.openair.gz().equals(again.openair.gz())).toBe(true);
    expect(patched.openair.fragment.equals(again.openair.fragment)).toBe(true);
    expect(patched.entry).toEqual(again.entry);
    // the features digest follows the renewed chunk (src/client/digest.ts computes the same from the features)
    expect(patched.entry.featuresSha256).toBe(await featuresDigest(changed.map((f) => JSON.stringify(f))));
    expect(patched.entry.featuresSha256).not.toBe(first.entry.featuresSha256);
    expect(patched.layout).toEqual(again.layout);
    // the other chunks' bytes are those of the first serialisation
    const [c0] = layout.chunks;
    expect(patched.fragment.subarray(0, c0![0]).equals(first.fragment.subarray(0, c0![0]))).toBe(true);
    const [o0] = layout.openairChunks;
    expect(patched.openair.fragment.subarray(0, o0![0]).equals(first.openair.fragment.subarray(0, o0![0]))).toBe(true);
    expect(chunkPieces(first.fragment, layout.chunks.slice(1))).toBeUndefined();
    // the OpenAir text is the country's, whole
    expect(zlib.gunzipSync(patched.openair.gz()).toString("utf8").endsWith(openairText(changed).text)).toBe(true);
  });

  it("serialises features whose JSON is not ASCII (a NOTAM's `…`, an emoji) as their text, split by UTF-16 lengths", async () => {
    const many = Array.from({ length: 2 * CHUNK + 5 }, (_, i) => {
      const f = feature(`ed-u${String(i).padStart(4, "0")}`, "DE", i % 7);
      f.properties.name = i % 3 === 0 ? `R${i} CRANE OPR WI 2NM…` : i % 3 === 1 ? `Zone ${i} ✈️ Überflug` : `R${i}`;
      return f;
    });
    const texts = many.map((f) => JSON.stringify(f));
    const a = await serialise(many, countOf(many, 0), "dynamic");
    const raw = zlib.inflateRawSync(a.fragment, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("utf8");
    expect(raw).toBe(texts.join(","));
    expect(a.layout!.lengths).toEqual(texts.map((t) => t.length));
    // each chunk's text splits back into its features' JSON
    const pieces = chunkPieces(a.fragment, a.layout!.chunks)!;
    for (const [j, p] of pieces.entries()) {
      const text = zlib.inflateRawSync(p.deflated, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("utf8");
      const lengths = a.layout!.lengths.slice(j * CHUNK, (j + 1) * CHUNK);
      expect(chunkFeatureTexts(text, j, lengths)).toEqual(texts.slice(j * CHUNK, (j + 1) * CHUNK));
    }
  });

  it("splits a chunk's text into its features' JSON by their lengths, and refuses lengths that do not fit", () => {
    const texts = ['{"a":1}', '{"b":"x,y"}', "{}"];
    const lengths = texts.map((t) => t.length);
    expect(chunkFeatureTexts(chunkText(texts, 0), 0, lengths)).toEqual(texts);
    expect(chunkFeatureTexts(chunkText(texts, 2), 2, lengths)).toEqual(texts);
    expect(chunkFeatureTexts(chunkText([], 0), 0, [])).toEqual([]);
    // a length off by one, one too many or too few, a chunk after the first without its comma
    expect(chunkFeatureTexts(chunkText(texts, 0), 0, [7, 10, 2])).toBeUndefined();
    expect(chunkFeatureTexts(chunkText(texts, 0), 0, [...lengths, 2])).toBeUndefined();
    expect(chunkFeatureTexts(chunkText(texts, 0), 0, lengths.slice(1))).toBeUndefined();
    expect(chunkFeatureTexts(chunkText(texts, 0), 1, lengths)).toBeUndefined();
  });
});
