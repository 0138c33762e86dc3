// The features digest a client computes with WebCrypto (src/client/digest.ts) is the one the publisher derives from
// its chunks' digests (publish/chunk-memo.ts): for empty, partial and several-chunk collections.
import { describe, expect, it } from "vitest";
import { featuresDigest, GROUP } from "../../src/client/digest.js";
import { CHUNK, encodeFeatures } from "../../src/publish/artifacts.js";
import { featuresDigestOf } from "../../src/publish/chunk-memo.js";
import { feature } from "../publish/fixtures.js";

describe("the features digest", () => {
  it("is the same from the publisher's chunks and from the client's feature texts", async () => {
    expect(GROUP).toBe(CHUNK);
    for (const n of [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK + 7]) {
      const features = Array.from({ length: n }, (_, i) => feature(`ed-r${String(i).padStart(4, "0")}`, "DE", i % 9));
      if (features[0]) features[0].properties.name = 'Zürich "ä" \\ ✈';
      const published = featuresDigestOf(encodeFeatures(features).digests);
      const client = await featuresDigest(features.map((f) => JSON.stringify(f)));
      expect(client, `${n} features`).toBe(published);
      expect(client).toMatch(/^[0-9a-f]{64}$/);
    }
    // a feature changed changes it
    const a = [feature("a", "DE", 1), feature("b", "DE", 2)];
    const b = [feature("a", "DE", 1), feature("b", "DE", 3)];
    expect(await featuresDigest(a.map((f) => JSON.stringify(f)))).not.toBe(
      await featuresDigest(b.map((f) => JSON.stringify(f))),
    );
  });
});
