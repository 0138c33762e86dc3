import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32Combine } from "../../src/publish/crc32-combine.js";

describe("crc32Combine", () => {
  it("gives the CRC-32 of the concatenation from the two CRCs and the second length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const whole = zlib.crc32(Buffer.concat([a, b]));
        expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(whole);
      }),
      { numRuns: 300 },
    );
  });

  it("handles long second parts (lengths past 2^20)", () => {
    const a = Buffer.from("prefix");
    const b = Buffer.alloc(3_000_001, 7);
    expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(Buffer.concat([a, b])));
  });
});
