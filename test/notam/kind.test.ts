import { describe, expect, it } from "vitest";
import type { QLine } from "../../src/model/notam.js";
import { isObstacle, notamKind } from "../../src/notam/kind.js";

const q = (code: string): QLine => ({ fir: "EGTT", code, raw: `EGTT/${code}` });

describe("notamKind (docs/design.md §4)", () => {
  it.each([
    ["QRDCA", "DANGER AREA EG D037 PORTSMOUTH ACTIVATED", "R"],
    ["QRTCA", "TEMPO RESTRICTED AREA", "R"],
    ["QROLT", "OVERFLYING RESTRICTED", "R"],
    ["QRDCD", "DANGER AREA EGD113A DEACTIVATED", "D"],
    ["QAZCD", "ATZ DEACTIVATED", "D"],
    ["QAECA", "CTA ACTIVATED", "A"],
    ["QACLP", "EBBE CTR PROHIBITED FOR NON PARTICIPATING ACFT", "A"],
    ["QATLT", "EBBE TMA 3 AND TMA 4 PROHIBITED FOR NON PARTICIPATING ACFT", "A"],
    ["QWULW", "UAS OPR", "V"],
    ["QWPLW", "PJE", "V"],
    ["QOBCE", "CRANE ERECTED", null],
    ["QFALC", "AD CLOSED", null],
    ["QOBTT", "TRIGGER NOTAM - AIRAC", "C"],
    ["QRDCA", "TRIGGER NOTAM - PERM AIP AMDT", "C"],
    ["QXXXX", "PLAIN LANGUAGE", null],
  ] as const)("%s %s → %s", (code, e, kind) => expect(notamKind(q(code), e)).toBe(kind));

  it("has no kind without a Q-line", () => expect(notamKind(undefined, "DANGER AREA ACTIVATED")).toBeNull());

  it("knows obstacles and obstacle lights", () => {
    expect(isObstacle(q("QOBCE"))).toBe(true);
    expect(isObstacle(q("QOLAS"))).toBe(true);
    expect(isObstacle(q("QRDCA"))).toBe(false);
  });
});
