import { describe, expect, it } from "vitest";
import { cleanLabel, decodeText } from "../../src/ingest/text.js";

describe("decodeText", () => {
  it("reads UTF-8 with and without a BOM", () => {
    expect(decodeText(Buffer.from("\ufeffAN ZÜRICH", "utf8"))).toEqual({
      text: "AN ZÜRICH",
      encoding: "utf-8",
      bom: true,
    });
    expect(decodeText(Buffer.from("AN ZÜRICH", "utf8")).bom).toBe(false);
  });

  it("reads a Latin-1 file (the DAeC OpenAir file) as Windows-1252", () => {
    expect(decodeText(Buffer.from("AN ED-R´s M\xfcnster", "latin1"))).toEqual({
      text: "AN ED-R´s Münster",
      encoding: "windows-1252",
      bom: false,
    });
  });
});

describe("cleanLabel", () => {
  it("turns a stray cp1252 byte read as U+0096 into an en dash (2018 BE XML)", () => {
    expect(cleanLabel("LCA \u0096 FIR BRUSSELS")).toEqual({ text: "LCA – FIR BRUSSELS", repaired: true });
  });

  it("undoes UTF-8 decoded twice (2025 FR OpenAir)", () => {
    expect(cleanLabel("CORREN\u00c3\u0087ON")).toEqual({ text: "CORRENÇON", repaired: true });
  });

  it("leaves good names alone and folds blanks", () => {
    expect(cleanLabel("  TMA  MÜNCHEN\tA ")).toEqual({ text: "TMA MÜNCHEN A", repaired: false });
  });
});
