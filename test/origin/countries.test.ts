import { describe, expect, it } from "vitest";
import { parseCountries } from "../../src/origin/countries.js";

const PUBLISHED = ["AT", "BE", "CH", "DE", "FR"];
const codes = (...values: string[]) => parseCountries(values, PUBLISHED);

describe("the countries parameter", () => {
  it("is case-insensitive, de-duplicated and order-free", () => {
    expect(codes("DE")).toEqual({ codes: ["DE"] });
    expect(codes("fr,DE")).toEqual({ codes: ["DE", "FR"] });
    expect(codes("de,FR,de, fr ")).toEqual({ codes: ["DE", "FR"] });
    expect(codes("europe")).toEqual({ codes: ["EUROPE"] });
    expect(codes("EUROPE,europe")).toEqual({ codes: ["EUROPE"] });
  });

  it.each([
    [[], "countries-missing", /required \(published: AT,BE,CH,DE,FR,EUROPE\)/],
    [["DE", "FR"], "countries-repeated", /once/],
    [[""], "countries-malformed", /alpha-2/],
    [["DE,,FR"], "countries-malformed", /alpha-2/],
    [["DEU"], "countries-malformed", /alpha-2/],
    [["../DE"], "countries-malformed", /alpha-2/],
    [["D%2FE"], "countries-malformed", /alpha-2/],
    [["DE;FR"], "countries-malformed", /alpha-2/],
    [["EUROPE,DE"], "countries-malformed", /EUROPE stands alone/],
    [["XX,DE,QQ"], "countries-unknown", /^Not published: QQ,XX \(published: AT,BE,CH,DE,FR,EUROPE\)\.$/],
    [[Array.from({ length: 200 }, () => "DE").join(",")], "countries-malformed", /longer than 400/],
  ])("refuses %j as %s", (values, slug, detail) => {
    const r = parseCountries(values, PUBLISHED);
    expect(r).toMatchObject({ problem: { status: 400, type: `urn:airspace-publisher:problem:${slug}` } });
    expect("problem" in r && r.problem.detail).toMatch(detail);
  });

  it("keeps the longest legitimate list (every published code, repeated in both cases) within the limit", () => {
    const all = [...PUBLISHED, ...PUBLISHED.map((c) => c.toLowerCase())].join(",");
    expect(codes(all)).toEqual({ codes: PUBLISHED });
  });
});
