// Where an aerodrome is, from its own NOTAMs (src/notam/aerodromes.ts), on Q-lines of the FAA DINS export (LFSB).
import { describe, expect, it } from "vitest";
import { aerodromePoints } from "../../src/notam/aerodromes.js";
import { readNotamText } from "../../src/notam/text.js";

const notam = (id: string, q: string, a: string) =>
  readNotamText(`(${id} NOTAMN\nQ) ${q}\nA) ${a} B) 2206130300 C) 2206182000\nE) TEXT)`, "test").notams[0]!;

describe("aerodromePoints", () => {
  it("takes an aerodrome's point from its aerodrome NOTAMs, the most common first", () => {
    const points = aerodromePoints([
      notam("A1971/22", "LFEE/QPDCH/I/NBO/A/000/999/4735N00732E005", "LFSB"),
      notam("A1199/22", "LFEE/QPACH/I/NBO/A/000/999/4735N00732E005", "LFSB"),
      notam("V0130/22", "LFEE/QPIAU/I/BO/A/000/999/4735N00731E005", "LFSB"),
      // an en-route or wide NOTAM at the same location says nothing of the aerodrome's point
      notam("A2113/22", "LFEE/QATLT/IV/NBO/AE/018/145/4732N00619E069", "LFSB"),
      notam("A2114/22", "LFEE/QFALT/IV/NBO/A/000/999/4700N00600E025", "LFSB"),
      // a NOTAM of several locations is no one aerodrome's
      notam("A2115/22", "LFEE/QFALT/IV/NBO/A/000/999/4800N00600E005", "LFSB LFGA"),
    ]);
    expect(points.get("LFSB")).toEqual({ lat: 47.583333, lon: 7.533333 });
    expect([...points.keys()]).toEqual(["LFSB"]);
  });
});
