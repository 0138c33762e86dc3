import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planMetaFrom, readAupSource } from "../../src/aup/read.js";
import { FIXTURES } from "../helpers.js";

const read = (name: string) => readAupSource(readFileSync(path.join(FIXTURES, "aup-csv", name)), name);
const at = (iso: string) => Date.parse(iso);

describe("the NM RSA allocations table", () => {
  it("reads a browser capture (Column-… line, empty leading column, BOM, CRLF)", () => {
    const r = read("eaup_rsa_2022-02-23T0959Z.csv");
    expect(r.format).toBe("csv");
    expect(r.diagnostics).toEqual([]);
    expect(r.plans).toHaveLength(1);
    const plan = r.plans[0]!;
    expect(plan).toMatchObject({ aupDay: "2022-02-23", kind: "AUP", issued: at("2022-02-23T09:59:00Z") });
    expect(plan.allocations[0]).toMatchObject({
      designator: "EBR04",
      status: "ACTIVE",
      start: at("2022-02-23T09:00:00Z"),
      end: at("2022-02-23T22:00:00Z"),
      lowerText: "000",
      upperText: "105",
      lower: { value: 0, unit: 1, referenceDatum: 0 },
      upper: { value: 105, unit: 6, referenceDatum: 2 },
    });
  });

  it("puts times before 06:00 on the next calendar day and ends UNT 06:00 with the AUP day", () => {
    const ecnp = read("eaup_rsa_2022-02-23T0959Z.csv").plans[0]!.allocations.find((a) => a.designator === "ECNPZ1")!;
    expect([ecnp.start, ecnp.end]).toEqual([at("2022-02-24T00:00:00Z"), at("2022-02-24T06:00:00Z")]);
  });

  it("reads 999 as unlimited and keeps a remark", () => {
    const all = read("eaup_rsa_2022-02-23T0959Z.csv").plans[0]!.allocations;
    expect(all.find((a) => a.upperText === "999")?.upper).toEqual({ value: 999, unit: 6, referenceDatum: 2 });
    expect(all.find((a) => a.remark)?.remark).toBe("CIVILIAN BUFFER");
  });

  it("reads the plain header", () => {
    const r = read("eaup_rsa_2022-02-24T0920Z.csv");
    expect(r.plans[0]!.allocations.map((a) => a.designator)).toContain("EDD19AZ");
  });

  it("reports a malformed row and keeps its neighbours", () => {
    const text =
      "RSA,NOTAM,REMARK,MNM FL,MAX FL,WEF,UNT,FUA/EU RS,FIR,UIR\nEDR205C,,,000,100,09:00,16:00,,,\nEDR206,,,0x0,100,09:00,16:00,,,\nEDR207,,,000,100,17:00,09:00,,,\n";
    const r = readAupSource(Buffer.from(text), "2022-02-23=t.csv", planMetaFrom("2022-02-23"));
    expect(r.plans[0]!.allocations.map((a) => a.designator)).toEqual(["EDR205C"]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["aup.csv.level", "aup.csv.time"]);
  });

  it("reads what NM exports write: `;` separators, quoted remarks with separators and line breaks (csv-parse)", () => {
    const text =
      "\uFEFFRSA;NOTAM;REMARK;MNM FL;MAX FL;WEF;UNT;FUA/EU RS;FIR;UIR\r\n" +
      'EDR205C;;"SHOOTING; LIVE\r\nFIRING";000;100;09:00;16:00;;"EDGG, EDMM";\r\n' +
      "EDR206;;;000;100;10:00;12:00;;EDGG;\r\n";
    const r = readAupSource(Buffer.from(text), "2022-02-23=t.csv", planMetaFrom("2022-02-23"));
    expect(r.diagnostics).toEqual([]);
    const [a, b] = r.plans[0]!.allocations;
    expect(a).toMatchObject({ designator: "EDR205C", remark: "SHOOTING; LIVE\r\nFIRING", firs: ["EDGG", "EDMM"] });
    // the line of a record is where it ends: the quoted line break makes EDR206 line 4 of the file
    expect(b).toMatchObject({ designator: "EDR206", origin: { line: 4 } });
  });

  it("a table whose quotes never close is one diagnostic, not a crash", () => {
    const text = 'RSA,NOTAM,REMARK,MNM FL,MAX FL,WEF,UNT\nEDR205C,,"open,000,100,09:00,16:00\n';
    const r = readAupSource(Buffer.from(text), "2022-02-23=t.csv", planMetaFrom("2022-02-23"));
    expect(r.plans).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["aup.csv.malformed", "skipped"]]);
  });

  it("needs the AUP day of a table whose name does not say it", () => {
    const r = readAupSource(Buffer.from("RSA,NOTAM,REMARK,MNM FL,MAX FL,WEF,UNT\n"), "table.csv");
    expect(r.diagnostics[0]!.code).toBe("aup.csv.noDay");
  });

  it("derives the AUP day from a capture time: before 06:00 UTC is the previous AUP day", () => {
    expect(planMetaFrom("eaup_rsa_2022-02-24T0320Z.csv")?.aupDay).toBe("2022-02-23");
    expect(planMetaFrom("uup_2022-02-24T0920Z.csv")).toMatchObject({ aupDay: "2022-02-24", kind: "UUP" });
  });
});

describe("AUP sources that cannot be trusted whole", () => {
  it("a truncated B2B reply fails the run instead of replacing the plan", async () => {
    const { readDynamicSources } = await import("../../src/sources.js");
    const { DiagnosticSink } = await import("../../src/model/diagnostic.js");
    const bytes = readFileSync(path.join(FIXTURES, "aup", "invalid-truncated.xml"));
    expect(() => readDynamicSources({ aup: [{ name: "cut.xml", bytes, fetchedAt: 0 }] }, new DiagnosticSink())).toThrow(
      /cut\.xml/,
    );
  });
});
