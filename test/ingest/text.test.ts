import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readAirspaceSource, SourceError } from "../../src/ingest/read.js";
import { cleanLabel, decodeText, gunzipped } from "../../src/ingest/text.js";

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

describe("gunzipped", () => {
  const openair =
    "AC R\nAN LF-R45A BOURGOGNE\nAL GND\nAH FL115\nDP 47:00:00 N 004:30:00 E\nDP 47:00:00 N 004:40:00 E\nDP 47:06:00 N 004:35:00 E\n";

  it("reads a gzipped airspace file as what it holds, other bytes as they are", () => {
    expect(readAirspaceSource(gzipSync(openair), "fr.txt.gz").records.map((r) => r.name)).toEqual([
      "LF-R45A BOURGOGNE",
    ]);
    expect(gunzipped(Buffer.from(openair))).toEqual({ ok: true, bytes: Buffer.from(openair) });
  });

  it("refuses a cut gzip file whole, saying so", () => {
    const cut = gzipSync(openair).subarray(0, 20);
    expect(gunzipped(cut).ok).toBe(false);
    expect(() => readAirspaceSource(cut, "fr.txt.gz")).toThrow(SourceError);
    expect(() => readAirspaceSource(cut, "fr.txt.gz")).toThrow(/fr\.txt\.gz: starts like gzip but does not gunzip/);
  });
});
