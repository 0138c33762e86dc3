// One named test per diagnostic of the NOTAM readers; the inputs are a real NOTAM (NOTAMSprint A0288/13, see
// fixtures/notam/PROVENANCE.md) with one defect each.

import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/diagnostic.js";
import { NotamLine, readNotamJsonLines } from "../../src/notam/jsonl.js";
import { readNotamSource } from "../../src/notam/read.js";
import { readNotamText } from "../../src/notam/text.js";

const HEADER = "A0288/13 NOTAMR A0285/13";
const Q = "Q) FAJA/QOBCE/IV/M/AE/000/056/2610S02813E005";
const ABC = "A) FAOR B) 1301220938 C) 1304191230 EST";
const E = "E) STAND 541, HUGES ROAD, JOHANNESBURG (261046S 0281323E): CRANE WITH\nDAY AND NIGHT MARKINGS ERECTED.";
const FG = "F) GND G) 5569FT AMSL";
const notam = (parts: Partial<Record<"header" | "q" | "abc" | "e" | "fg", string>> = {}): string =>
  [parts.header ?? HEADER, parts.q ?? Q, parts.abc ?? ABC, parts.e ?? E, parts.fg ?? FG].filter((p) => p).join("\n");

const text = (t: string) => readNotamText(t, "t.txt");
const only = (ds: Diagnostic[]) => ds.map((d) => [d.code, d.severity]);
/** Reads one NOTAM and returns its diagnostics as [code, severity] and whether it was kept. */
const one = (t: string) => {
  const r = text(t);
  return { kept: r.notams.length === 1, codes: only(r.diagnostics), diagnostics: r.diagnostics, notam: r.notams[0] };
};
const RECORD = { id: "A0288/13", type: "R", ref: "A0285/13", itemQ: Q.slice(3), itemA: "FAOR", itemB: "1301220938" };
const json = (r: Record<string, unknown>) =>
  readNotamJsonLines(JSON.stringify({ ...RECORD, itemC: "1304191230 EST", itemE: "CRANE", ...r }), "t.jsonl");

describe("NOTAM diagnostics", () => {
  it("the base NOTAM reads clean", () => expect(one(notam())).toMatchObject({ kept: true, codes: [] }));

  it("notam.header.invalid: a broken header skips that NOTAM, with its line, and not the next", () => {
    const r = text(`${notam({ header: "A288/13 NOTAMR A0285/13" })}\n\n${notam()}`);
    expect(only(r.diagnostics)).toEqual([["notam.header.invalid", "skipped"]]);
    expect(r.diagnostics[0]).toMatchObject({ line: 1, record: 0, source: "t.txt" });
    expect(r.diagnostics[0]?.message).toContain('"A288/13 NOTAMR A0285/13"');
    expect(r.notams.map((n) => [n.id, n.origin.line, n.origin.record])).toEqual([["A0288/13", 8, 1]]);
    expect(one(notam({ header: "A0288/13 NOTAMX" })).codes).toEqual([["notam.header.invalid", "skipped"]]);
    expect(one(notam({ header: "A0288/13 NOTAMC" })).codes).toEqual([["notam.header.invalid", "skipped"]]);
    expect(only(json({ id: "12" }).diagnostics)).toEqual([["notam.header.invalid", "skipped"]]);
    expect(only(json({ type: "NOTAMQ" }).diagnostics)).toEqual([["notam.header.invalid", "skipped"]]);
  });

  it("notam.header.invalid: a Q-line after a blank line without header is a NOTAM without id", () => {
    const r = text(`${notam()}\n\n${notam({ header: " " }).trim()}`);
    expect(r.notams).toHaveLength(1);
    expect(only(r.diagnostics)).toEqual([["notam.header.invalid", "skipped"]]);
  });

  it("notam.item.missing: B or E missing, or C missing on N and R, skips; NOTAMC needs no C", () => {
    expect(one(notam({ abc: "A) FAOR C) 1304191230 EST" })).codes).toEqual([["notam.item.missing", "skipped"]]);
    expect(one(notam({ e: "E)  " })).codes).toEqual([["notam.item.missing", "skipped"]]);
    const noC = one(notam({ abc: "A) FAOR B) 1301220938" }));
    expect(noC.codes).toEqual([["notam.item.missing", "skipped"]]);
    expect(noC.diagnostics[0]?.message).toBe("NOTAM A0288/13 lacks Item C");
    expect(one(notam({ header: "A0289/13 NOTAMC A0288/13", abc: "A) FAOR B) 1301220938" })).kept).toBe(true);
    expect(one(notam({ q: " ", abc: "B) 1301220938 C) 1304191230" })).codes).toEqual([
      ["notam.item.missing", "skipped"],
    ]);
  });

  it("notam.qline.invalid: warned, the NOTAM kept without Q", () => {
    const r = one(notam({ q: "Q) FAJA/QOBCE/IV/M/AE/000/056/2660S02813E005" }));
    expect(r.codes).toEqual([["notam.qline.invalid", "warning"]]);
    expect(r.notam?.q).toBeUndefined();
    expect(r.diagnostics[0]?.message).toContain('"2660S02813E005"');
  });

  it("notam.qline.missing: warned, kept", () =>
    expect(one(notam({ q: " " })).codes).toEqual([["notam.qline.missing", "warning"]]));

  it("notam.itemB.invalid: not a real instant", () => {
    const r = one(notam({ abc: "A) FAOR B) 1302300938 C) 1304191230" }));
    expect(r.codes).toEqual([["notam.itemB.invalid", "skipped"]]);
    expect(r.diagnostics[0]?.message).toContain('"1302300938"');
    expect(one(notam({ abc: "A) FAOR B) WIE C) 1304191230" })).codes).toEqual([["notam.itemB.invalid", "skipped"]]);
  });

  it("notam.itemC.invalid: not a stamp, or not after B", () => {
    expect(one(notam({ abc: "A) FAOR B) 1301220938 C) SOON" })).codes).toEqual([["notam.itemC.invalid", "skipped"]]);
    const before = one(notam({ abc: "A) FAOR B) 1301220938 C) 1301220900" }));
    expect(before.codes).toEqual([["notam.itemC.invalid", "skipped"]]);
    expect(before.diagnostics[0]?.message).toContain("is not after Item B");
  });

  it("notam.itemA.invalid, notam.itemA.multipart, notam.itemA.fromFir", () => {
    const bad = one(notam({ abc: "A) FAOR FA1 B) 1301220938 C) PERM" }));
    expect([bad.codes, bad.notam?.itemA]).toEqual([[["notam.itemA.invalid", "warning"]], ["FAOR"]]);
    const part = one(notam({ abc: "A) EISN  PART 1 OF 2  B) 1301220938 C) PERM" }));
    expect([part.codes, part.notam?.itemA]).toEqual([[["notam.itemA.multipart", "warning"]], ["EISN"]]);
    const fir = json({ itemA: null });
    expect([only(fir.diagnostics), fir.notams[0]?.itemA]).toEqual([[["notam.itemA.fromFir", "repaired"]], ["FAJA"]]);
  });

  it("notam.itemF.invalid / notam.itemG.invalid: the text is kept", () => {
    const r = one(notam({ fg: "F) G" }));
    expect([r.codes, r.notam?.itemF]).toEqual([[["notam.itemF.invalid", "warning"]], "G"]);
    expect(one(notam({ fg: "F) SFC G) ABOUT 500FT" })).codes).toEqual([["notam.itemG.invalid", "warning"]]);
  });

  it("notam.ref.missing, notam.ref.unexpected, notam.ref.invalid", () => {
    expect(one(notam({ header: "A0288/13 NOTAMR" })).codes).toEqual([["notam.ref.missing", "warning"]]);
    const n = one(notam({ header: "A0288/13 NOTAMN A0285/13" }));
    expect([n.codes, n.notam?.ref]).toEqual([[["notam.ref.unexpected", "warning"]], undefined]);
    expect(only(json({ ref: "A285/13" }).diagnostics)).toEqual([["notam.ref.invalid", "warning"]]);
  });

  it("notam.type.assumed: a JSON record without type is a NOTAMN", () => {
    const r = json({ type: null, ref: null });
    expect([only(r.diagnostics), r.notams[0]?.type]).toEqual([[["notam.type.assumed", "warning"]], "N"]);
  });

  it("notam.text.ignored and notam.text.unclosed", () => {
    const pre = text(`ZCZC AAA123\nGG FAJAYNYX\n(${notam()})\nNNNN`);
    expect([only(pre.diagnostics), pre.diagnostics[0]?.line, pre.notams.length]).toEqual([
      [["notam.text.ignored", "warning"]],
      1,
      1,
    ]);
    expect(one(`(${notam()})\nTRAILING WORDS`).codes).toEqual([["notam.text.ignored", "warning"]]);
    expect(one(`(${notam({ e: "E) CRANE", fg: " " })}`).codes).toEqual([["notam.text.unclosed", "warning"]]);
  });

  it("notam.line.malformed: bad JSON, not an object, a field of the wrong type; the next line still reads", () => {
    const good = JSON.stringify({ ...RECORD, itemC: "PERM", itemE: "CRANE" });
    const r = readNotamJsonLines(`{"id": "A1\n[1, 2]\n${good}\n{"id": 5}\n`, "t.jsonl");
    expect(only(r.diagnostics)).toEqual([
      ["notam.line.malformed", "skipped"],
      ["notam.line.malformed", "skipped"],
      ["notam.line.malformed", "skipped"],
    ]);
    expect(r.diagnostics.map((d) => d.line)).toEqual([1, 2, 4]);
    expect(r.diagnostics[2]?.message).toContain("id");
    expect(r.notams.map((n) => n.origin)).toEqual([{ source: "t.jsonl", record: 2, line: 3 }]);
  });

  it("a record is refused exactly when its schema refuses it, field by field and value by value", () => {
    // the reader checks known keys by hand and asks the schema only for the message (src/notam/jsonl.ts)
    const values: unknown[] = ["x", "", null, 5, 0, true, [], {}, ["a"], { a: 1 }];
    for (const key of Object.keys(NotamLine.shape)) {
      for (const value of values) {
        const record = { ...RECORD, itemC: "PERM", itemE: "CRANE", [key]: value };
        const refused = !NotamLine.safeParse(record).success;
        const r = readNotamJsonLines(JSON.stringify(record), "t.jsonl");
        const malformed = r.diagnostics.filter((d) => d.code === "notam.line.malformed");
        expect([key, value, malformed.length]).toEqual([key, value, refused ? 1 : 0]);
        if (refused) expect(malformed[0]?.message).toContain(key);
      }
    }
    expect(NotamLine.safeParse({ ...RECORD, lower: 5 }).success).toBe(true);
    expect(NotamLine.safeParse({ ...RECORD, itemE: 5 }).success).toBe(false);
  });

  it("notam.source.gzip and notam.source.empty", () => {
    const broken = gzipSync(Buffer.from(notam())).subarray(0, 20);
    expect(only(readNotamSource(broken, "x.gz").diagnostics)).toEqual([["notam.source.gzip", "skipped"]]);
    expect(only(readNotamSource(new Uint8Array(), "empty").diagnostics)).toEqual([["notam.source.empty", "warning"]]);
  });
});

/** Pieces of NOTAMs that, shuffled, make headers, labels, parentheses and footers meet in odd places. */
const TOKENS = [
  HEADER,
  "A0001/26 NOTAMN",
  "NOTAMC",
  Q,
  ABC,
  E,
  FG,
  "\n",
  "\n\n",
  " ",
  "(",
  ")",
  "Q)",
  "A)",
  "B)",
  "C)",
].concat(["D)", "E)", "F)", "G)", "PERM", "EST", "2601010000", "CREATED: x", "SOURCE: y", "\r\n", "/", "{"]);

describe("NOTAM readers never throw", () => {
  it("on any text, and every NOTAM attempt is read or skipped exactly once", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 6 })), { maxLength: 60 }),
        (ts) => {
          const t = ts.join("");
          const r = readNotamText(t, "p");
          const skipped = r.diagnostics.filter((d) => d.severity === "skipped").length;
          const attempts = new Set([...r.notams.map((n) => n.origin.record), ...r.diagnostics.map((d) => d.record)]);
          attempts.delete(undefined);
          expect(r.notams.length + skipped).toBe(attempts.size);
        },
      ),
    );
  });

  it("on the base NOTAM with characters deleted or repeated", () => {
    const base = notam();
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.nat(40), fc.boolean(), (at, len, cut) => {
        const t = cut
          ? base.slice(0, at) + base.slice(at + len)
          : base.slice(0, at) + base.slice(at, at + len).repeat(3) + base.slice(at);
        expect(() => readNotamText(t, "p")).not.toThrow();
        expect(() => readNotamJsonLines(JSON.stringify({ raw: t }), "p")).not.toThrow();
        expect(() => readNotamSource(Buffer.from(t), "p")).not.toThrow();
      }),
    );
  });
});
