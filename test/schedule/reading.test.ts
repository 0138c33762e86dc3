// The fast paths of reading Item B, C and D: the character scanner, stamps read by character codes, and the
// consistency check that reads a long schedule of dates at its ends only. Each must say what the slower way said.
import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/model/time.js";
import { evaluateItemD } from "../../src/schedule/evaluate.js";
import { tokenize } from "../../src/schedule/tokens.js";
import { parseStamp, parseValidity, type Validity } from "../../src/schedule/validity.js";

/** [B, C] of Items B and C. */
function validity(b: string, c: string): Validity {
  const parsed = parseValidity(b, c);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

const kinds = (text: string) => tokenize(text).map((t) => `${t.kind}@${t.at}:${t.text}`);

describe("the Item D scanner", () => {
  it("separates tokens by any blank, Unicode's included, and keeps their positions", () => {
    expect(kinds("MON\u00a0TUE\u2003WED\tTHU\nFRI")).toEqual([
      "weekday@0:MON",
      "weekday@4:TUE",
      "weekday@8:WED",
      "weekday@12:THU",
      "weekday@16:FRI",
    ]);
  });

  it("reads en and em dashes, semicolons, slashes; drops full stops; names anything else unknown", () => {
    expect(kinds("0800–1600;0900—1000/1100.")).toEqual([
      "time@0:0800",
      "dash@4:–",
      "time@5:1600",
      "comma@9:;",
      "time@10:0900",
      "dash@14:—",
      "time@15:1000",
      "slash@19:/",
      "time@20:1100",
    ]);
    expect(kinds("MON # 0800")).toEqual(["weekday@0:MON", "unknown@4:#", "time@6:0800"]);
  });

  it("takes the digits of H24 and of PLUS/MINUS offsets with the word, in any case", () => {
    expect(kinds("h24x")).toEqual(["word@0:H24", "unknown@3:X"]);
    expect(kinds("sr minus 30-ss plus15")).toEqual([
      "sun@0:SR",
      "offset@3:MINUS 30",
      "dash@11:-",
      "sun@12:SS",
      "offset@15:PLUS15",
    ]);
    expect(kinds("SS MINUS")).toEqual(["sun@0:SS", "unknown@3:MINUS"]);
  });

  it("upper-cases ASCII letters only: ß and ı stay unknown instead of becoming SS or I", () => {
    expect(kinds("ß ı")).toEqual(["unknown@0:ß", "unknown@2:ı"]);
  });
});

describe("Item B and C stamps", () => {
  it("reads real instants, with blanks around them", () => {
    expect(parseStamp("2402291230")).toBe(Date.UTC(2024, 1, 29, 12, 30));
    expect(parseStamp(" 2612312359\n")).toBe(Date.UTC(2026, 11, 31, 23, 59));
    expect(parseStamp("9107010000")).toBe(Date.UTC(1991, 6, 1));
  });

  it("refuses dates and times that do not exist, and anything not ten digits", () => {
    for (const bad of ["2602290000", "2613010000", "2600010000", "2601000000", "2604310000", "2601012400"]) {
      expect(parseStamp(bad), bad).toBeUndefined();
    }
    for (const bad of ["2601011260", "26O1010800", "260101080", "26010108000", "", "2601 10800"]) {
      expect(parseStamp(bad), bad).toBeUndefined();
    }
  });
});

describe("a long schedule of dates is checked against B and C at its ends", () => {
  const codes = (itemD: string, b: string, c: string) => {
    const v = validity(b, c);
    const r = evaluateItemD(itemD, v, Math.floor(v.b / DAY_MS));
    return { status: r.status, codes: r.issues.map((i) => i.code) };
  };

  it("agrees when B is the first start and C the last end, overnight included", () => {
    expect(codes("MAR 01-MAY 31 2200-0600", "2603012200", "2606010600")).toEqual({ status: "exact", codes: [] });
  });

  it("names a B far from the first start and a C far from the last end", () => {
    const { codes: found } = codes("MAR 01-MAY 31 2200-0600", "2603100800", "2606150000");
    expect(found).toContain("schedule.check.startNotB");
    expect(found).toContain("schedule.check.endNotC");
  });

  it("finds the last end before an excepted last date", () => {
    const d = "MAR 01-MAY 31 0800-1600 EXC MAY 31";
    expect(codes(d, "2603010800", "2605301600").codes).not.toContain("schedule.check.endNotC");
    expect(codes(d, "2603010800", "2605311600").codes).toContain("schedule.check.endNotC");
  });

  it("reads every date when the times are sunrise and sunset", () => {
    const v = validity("2602200000", "2606010000");
    const r = evaluateItemD("MAR 01-MAY 31 SR-SS", v, Math.floor(v.b / DAY_MS), { lat: 51.5, lon: 0 });
    expect(r.issues.map((i) => i.code)).toContain("schedule.check.startNotB");
  });
});

describe("bare day numbers and blank texts", () => {
  const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

  it("a bare 31 is the one 31st inside [B, C], skipping the months without one", () => {
    const window = validity("2602100000", "2604200000");
    expect(evaluateItemD("31 0800-1600", window, day("2026-03-31")).intervals).toEqual([
      [Date.parse("2026-03-31T08:00:00Z"), Date.parse("2026-03-31T16:00:00Z")],
    ]);
    expect(evaluateItemD("31 0800-1600", window, day("2026-04-30")).intervals).toEqual([]);
  });

  it("a bare 30 from January to March is January's: February has none, March's is after C", () => {
    const r = evaluateItemD("30 0800-1600", validity("2601150000", "2603200000"), day("2026-01-30"));
    expect(r.intervals).toEqual([[Date.parse("2026-01-30T08:00:00Z"), Date.parse("2026-01-30T16:00:00Z")]]);
    expect(r.issues.map((i) => i.code)).not.toContain("schedule.date.ambiguous");
  });

  it("a text of blanks only, Unicode's included, is empty: the whole of [B, C]", () => {
    const r = evaluateItemD("\u00a0\n\u2003", validity("2603010000", "2603050000"), day("2026-03-02"));
    expect(r.status).toBe("fallback");
    expect(r.issues.map((i) => i.code)).toEqual(["schedule.empty"]);
  });
});
