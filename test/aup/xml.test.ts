import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AupXmlResult, MAX_AUP_XML_BYTES, readAupXml } from "../../src/aup/xml.js";
import { expectGolden } from "../helpers.js";
import {
  activation,
  airspace,
  all,
  codes,
  DIR,
  endAt,
  inline,
  iso,
  levels,
  message,
  NAMES,
  read,
  slice,
  spans,
  tempdelta,
} from "./xml-builders.js";

/** Instants as ISO text, so the golden files can be reviewed. */
const view = (r: AupXmlResult) => ({
  plans: r.plans.map((p) => ({
    ...p,
    issued: iso(p.issued),
    allocations: p.allocations.map((a) => ({ ...a, start: iso(a.start), end: iso(a.end) })),
  })),
  diagnostics: r.diagnostics,
});

describe("readAupXml golden", () => {
  it.each(NAMES)("%s", (name) => expectGolden(join(DIR, name.replace(/\.xml$/, ".expected.json")), view(read(name))));
});

describe("NM B2B EAUP/EUUP RSA replies", () => {
  const aup = read("nm-b2b-eaup-rsas-2022-02-23.xml");
  const uup = read("nm-b2b-euup-rsas-2022-02-23.xml");
  const find = (d: string) => all(aup).find((a) => a.designator === d);

  it("takes the AUP day, kind and issue time from the reply", () => {
    expect(aup.plans.map((p) => [p.aupDay, p.kind, iso(p.issued), p.allocations.length])).toEqual([
      ["2022-02-23", "AUP", "2022-02-22T15:00:00Z", 8],
    ]);
    expect(aup.diagnostics).toEqual([]);
  });

  it("a later sequence number of the EAUP chain is a UUP, issued after the AUP", () => {
    expect(uup.plans.map((p) => [p.aupDay, p.kind, iso(p.issued)])).toEqual([
      ["2022-02-23", "UUP", "2022-02-23T09:30:00Z"],
    ]);
    expect(all(uup).map((a) => a.designator)).not.toContain("LFT22A");
  });

  it("aupType UPDATE marks a UUP", () => {
    const r = inline([], "<aupType>UPDATE</aupType><chainDate>2022-02-23</chainDate>");
    expect(r.plans.map((p) => [p.aupDay, p.kind, p.allocations.length])).toEqual([["2022-02-23", "UUP", 0]]);
  });

  it("keeps the level text and parses it (GND, FL, ft MSL, UNL)", () => {
    const levels = (d: string) => [find(d)?.lowerText, find(d)?.upperText, find(d)?.lower, find(d)?.upper];
    expect(levels("EBR04")).toEqual([
      "GND",
      "FL105",
      { value: 0, unit: 1, referenceDatum: 0 },
      { value: 105, unit: 6, referenceDatum: 2 },
    ]);
    expect(levels("EHR3")[3]).toEqual({ value: 3000, unit: 1, referenceDatum: 1 });
    expect(levels("EHR3")[1]).toBe("3000 FT MSL");
    expect(levels("EBTRASBZ").slice(1)).toEqual([
      "UNL",
      { value: 365, unit: 6, referenceDatum: 2 },
      { value: 999, unit: 6, referenceDatum: 2 },
    ]);
  });

  it("an allocation crossing midnight keeps its absolute end (23:00 → 06:00 next day)", () => {
    expect([iso(find("EDR136AZ")!.start), iso(find("EDR136AZ")!.end)]).toEqual([
      "2022-02-23T23:00:00Z",
      "2022-02-24T06:00:00Z",
    ]);
  });

  it("keeps Z flight-plan-buffer designators as written", () => {
    expect(new Set(all(aup).map((a) => a.designator))).toEqual(
      new Set(["EBR04", "EDR205CZ", "LFT22A", "LFT22AZ", "EDR136AZ", "EHR3", "EBTRASBZ"]),
    );
  });

  it("matches local names whatever the namespace prefixes", () => {
    const body = (p: string, g: string) =>
      airspace(
        slice(
          `<${p}designator>EBR04</${p}designator>${activation(`<${p}status>ACTIVE</${p}status>${levels("000", "105", p)}`, p)}`,
          undefined,
          endAt("2022-02-23T12:00:00", g),
          p,
          g,
        ),
        p,
      );
    const strip = (r: AupXmlResult) => all(r).map(({ origin: _, ...a }) => a);
    expect(strip(inline([body("", "")]))).toEqual(strip(inline([body("aixm:", "gml:")])));
    expect(strip(inline([body("x5:", "g32:")]))).toHaveLength(1);
  });

  it("skips a BASELINE slice without activation, without a diagnostic", () => {
    const baseline = slice(
      "<aixm:interpretation>BASELINE</aixm:interpretation><aixm:designator>EBR04</aixm:designator>",
    );
    const active = tempdelta("EBR04", activation("<aixm:status>ACTIVE</aixm:status>"));
    const r = inline(
      [airspace(baseline), active],
      "<chainDate>2022-02-23</chainDate><releaseTime>2022-02-22 15:00</releaseTime>",
    );
    expect([all(r).map((a) => a.origin.record), r.diagnostics]).toEqual([[1], []]);
    // a message holding nothing but the static definition says so once
    expect(codes(inline([airspace(baseline)]))).toEqual(["aup.xml.empty"]);
  });

  it("a header day without any Airspace is an empty (NIL) plan", () => {
    expect(inline([], "<chainDate>2022-02-23</chainDate><releaseTime>2022-02-22 15:00</releaseTime>").plans).toEqual([
      {
        aupDay: "2022-02-23",
        kind: "AUP",
        issued: Date.parse("2022-02-22T15:00:00Z"),
        issuedFrom: "content",
        source: "inline.xml",
        allocations: [],
      },
    ]);
  });
});

describe("AIXM Digital NOTAM activations (DONLON)", () => {
  it("expands the DAILY 0600–1530 timesheet over 10–20 May 2018", () => {
    const r = read("DN_SAA.ACT_date_range_schedule.xml");
    const days = Array.from({ length: 11 }, (_, i) => `2018-05-${String(10 + i).padStart(2, "0")}`);
    expect(spans(r)).toEqual(days.map((d) => `${d}T06:00:00Z/${d}T15:30:00Z`));
    expect(r.plans.map((p) => p.aupDay)).toEqual(days);
  });

  it("keeps INACTIVE as the status (whole days minus the excluded 06:30–15:30)", () => {
    const inactive = spans(read("DN_SAA.ACT_date_range_schedule.xml"), "INACTIVE");
    expect(inactive).toHaveLength(11);
    expect(inactive.slice(0, 2)).toEqual([
      "2018-05-10T06:00:00Z/2018-05-10T06:30:00Z",
      "2018-05-10T15:30:00Z/2018-05-11T06:30:00Z",
    ]);
  });

  it("flags a lower limit above the upper one and keeps it as written", () => {
    const r = read("DN_SAA.ACT_changed_limits.xml");
    expect(all(r).map((a) => [a.lowerText, a.upperText])).toEqual([["FL400", "FL300"]]);
    expect(r.diagnostics.filter((d) => d.code === "aup.levels.inverted").map((d) => d.severity)).toEqual(["warning"]);
  });

  it("takes the designator from the linked event when the Airspace has none; day from the earliest start", () => {
    const r = read("DN_SAA.ACT_area_activation.xml");
    expect(all(r).map((a) => [a.designator, a.status, iso(a.start), iso(a.end), a.lowerText])).toEqual([
      ["EAR2", "ACTIVE", "2018-05-01T05:00:00Z", "2018-05-01T15:00:00Z", ""],
    ]);
    expect(r.plans.map((p) => [p.aupDay, iso(p.issued)])).toEqual([["2018-04-30", "2018-05-01T05:00:00Z"]]);
    expect(codes(r)).toEqual(["aup.activation.designatorFromEvent", "aup.xml.issuedMissing"]);
  });

  it("an indeterminate end closes with the AUP day (repaired)", () => {
    const open = '<gml:endPosition indeterminatePosition="unknown"/>';
    const r = inline([
      tempdelta("EBR04", activation("<aixm:status>ACTIVE</aixm:status>"), "2022-02-23T09:00:00Z", open),
    ]);
    expect(spans(r)).toEqual(["2022-02-23T09:00:00Z/2022-02-24T06:00:00Z"]);
    expect(r.diagnostics.find((d) => d.code === "aup.time.openEnd")?.severity).toBe("repaired");
  });
});

describe("robustness and security", () => {
  it("never expands an external entity (DOCTYPE ignored, &xxe; kept as written)", () => {
    const r = read("invalid-xxe-doctype.xml");
    expect(JSON.stringify(r)).not.toMatch(/root:|\/bin\/(ba)?sh/);
    expect(all(r).find((a) => a.designator === "EBR04")?.remark).toBe("&xxe;");
    expect(codes(r)).toEqual(["aup.xml.doctypeIgnored", "aup.xml.entityNotExpanded"]);
  });

  it("refuses a source over 16 MiB unread", () => {
    const r = readAupXml(`<a>${" ".repeat(MAX_AUP_XML_BYTES)}</a>`, "big.xml");
    expect([r.plans, codes(r), r.diagnostics[0]?.severity]).toEqual([[], ["aup.xml.tooLarge"], "skipped"]);
  });

  it("skips one malformed Airspace element and keeps its neighbours", () => {
    const r = read("invalid-malformed-airspace.xml");
    expect(all(r).map((a) => a.designator)).toEqual(["EBR04", "LFT22A"]);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.record])).toEqual([
      ["aup.xml.airspaceMalformed", "skipped", 1],
    ]);
  });

  it("keeps the complete elements of a truncated transfer", () => {
    const r = read("invalid-truncated.xml");
    expect(all(r).map((a) => a.designator)).toEqual(["EBR04", "EDR205CZ"]);
    expect(r.diagnostics.map((d) => [d.code, d.record])).toEqual([["aup.xml.truncated", 2]]);
  });

  it("a broken envelope is a warning; the Airspace elements are still read", () => {
    const r = readAupXml(
      message([tempdelta("EBR04", activation("<aixm:status>ACTIVE</aixm:status>"))], "<x>").replace(
        "<x>",
        "<x><y></x>",
      ),
      "b.xml",
    );
    expect([all(r).length, codes(r)]).toEqual([1, ["aup.xml.malformed", "aup.xml.issuedMissing"]]);
  });

  it.each(["", "not xml at all", "<<<", "<a>&</a>", "\uFEFF"])("never throws: %j is aup.xml.malformed", (input) => {
    const r = readAupXml(input, "x.xml");
    expect([r.plans, codes(r)]).toEqual([[], ["aup.xml.malformed"]]);
  });

  it("stays linear on pathological input (unclosed elements, comments, events)", { timeout: 20_000 }, () => {
    for (const unit of ["<aixm:Airspace>", "<aixm:Airspace ", "<!--", '<e:Event gml:id="a">', "<eaupId>"]) {
      expect(() => readAupXml(`<r>${unit.repeat(150_000)}</r>`, "p.xml")).not.toThrow();
    }
  });

  it("never throws on any prefix of a reply, and reads only allocations of the whole", () => {
    const text = readFileSync(join(DIR, "nm-b2b-euup-rsas-2022-02-23.xml"), "utf8");
    const whole = JSON.stringify(all(readAupXml(text, "u.xml")).map(({ origin: _, ...a }) => a));
    for (let cut = 0; cut < text.length; cut += 61) {
      const part = readAupXml(text.slice(0, cut), "u.xml");
      for (const { origin: _, ...a } of all(part)) expect(whole).toContain(JSON.stringify(a));
    }
  });

  it.each(NAMES)("%s: plans by day, allocations by start, every interval non-empty", (name) => {
    const r = read(name);
    expect(r.plans.map((p) => p.aupDay)).toEqual(r.plans.map((p) => p.aupDay).sort());
    for (const p of r.plans) {
      expect(p.allocations.map((a) => a.start)).toEqual(p.allocations.map((a) => a.start).sort((a, b) => a - b));
      for (const a of p.allocations) expect(a.start).toBeLessThan(a.end);
    }
  });
});
