// Property tests (fast-check): fragments deflated on their own always join into one valid gzip member,
// and ring repair never throws and always yields RFC 7946 rings or a named refusal.
import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repairPolygons } from "../../src/geo/repair.js";
import { checkAreaGeometry } from "../../src/geo/rfc7946.js";
import { crc32, deflatePiece, deflatePieceSync, gzipMember } from "../../src/publish/gzip.js";

describe("gzip joins", () => {
  it("any sequence of independently deflated pieces, ended by a final piece, gunzips to their concatenation", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 2000 }), { maxLength: 8 }),
        fc.string(),
        async (chunks, tail) => {
          const pieces = await Promise.all(chunks.map((c) => deflatePiece(Buffer.from(c))));
          const last = deflatePieceSync(Buffer.from(tail), true);
          const raw = Buffer.concat([...chunks.map((c) => Buffer.from(c)), Buffer.from(tail)]);
          let crc = 0;
          for (const c of chunks) crc = crc32(c, crc);
          crc = crc32(Buffer.from(tail), crc);
          const gz = gzipMember([...pieces.map((p) => p.deflated), last.deflated], crc, raw.length);
          expect(zlib.gunzipSync(gz).equals(raw)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("ring repair", () => {
  const position = fc.tuple(
    fc.double({ min: -180, max: 180, noNaN: true }),
    fc.double({ min: -90, max: 90, noNaN: true }),
  );
  it("returns RFC 7946 geometry or a named refusal, never throws", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.array(position, { maxLength: 12 }), { maxLength: 3 }), { maxLength: 3 }),
        (raw) => {
          const r = repairPolygons(raw);
          if (r.ok) expect(checkAreaGeometry(r.geometry)).toEqual([]);
          else expect(["geometry.outOfRange", "geometry.degenerate"]).toContain(r.code);
        },
      ),
      { numRuns: 500 },
    );
  });
});
