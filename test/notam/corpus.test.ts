// Every NOTAM file of ../shared/data/notam through readNotamSource (the Item D lists and the Donlon schedules are
// not NOTAM sources). Invariants: no throw; each record read or skipped exactly once; ≥ 99.5 % read; where a record
// carries its ICAO text (`raw`, UK `raw_reconstructed`), reading that text gives what the split fields give.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Notam } from "../../src/model/notam.js";
import { readNotamJsonLines } from "../../src/notam/jsonl.js";
import { readNotamSource } from "../../src/notam/read.js";
import { readNotamText } from "../../src/notam/text.js";
import { FIXTURES, SHARED_DATA } from "../helpers.js";

const CORPUS = path.join(SHARED_DATA, "notam");
const HAS_CORPUS = existsSync(CORPUS);
if (!HAS_CORPUS) console.warn(`NOTAM corpus: ${CORPUS} is absent; checked the fixtures/notam files only`);
const DIR = HAS_CORPUS ? CORPUS : path.join(FIXTURES, "notam");
const FILES = readdirSync(DIR)
  .filter((f) => /\.(jsonl|txt)(\.gz)?$/.test(f) && !/^(itemD_|donlon)/.test(f))
  .sort();

const bytesOf = (file: string): Uint8Array => readFileSync(path.join(DIR, file));
const textOf = (file: string): string => {
  const bytes = bytesOf(file);
  return (file.endsWith(".gz") ? gunzipSync(bytes) : Buffer.from(bytes)).toString("utf8");
};
/** Records in a file: non-blank lines of JSON lines; NOTAM headers of ICAO text (`A1234/26 NOTAMN`) or of a
 * SOFIA route brief (`LSSN-A0756/25` on a line of its own). */
const recordCount = (file: string): number => {
  const text = textOf(file);
  return /^\s*\{/.test(text)
    ? text.split("\n").filter((l) => l.trim() !== "").length
    : (text.match(/^\(?[A-Z]\d{4}\/\d{2} NOTAM|^\s*[A-Z]{4}-[A-Z]\d{4}\/\d{2}\s*$/gm) ?? []).length;
};

const ws = (s: string | undefined): string | undefined => s?.replace(/\s+/g, " ").trim();
const COMPARED = ["id", "type", "ref", "itemA", "itemB", "itemC", "itemD", "itemE", "itemF", "itemG"] as const;
const view = (n: Notam | undefined): Record<string, unknown> =>
  Object.fromEntries(
    COMPARED.map((k) => [k, k === "itemD" || k === "itemE" ? ws(n?.[k]) : n === undefined ? "(none)" : n[k]]),
  );

describe(`NOTAM corpus (${HAS_CORPUS ? CORPUS : "fixtures only"})`, () => {
  const results = FILES.map((file) => ({ file, result: readNotamSource(bytesOf(file), file) }));

  it("finds the NOTAM files", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(HAS_CORPUS ? 6 : 5);
  });

  it.each(FILES)("%s: every record read or skipped exactly once", (file) => {
    const { result } = results.find((r) => r.file === file) ?? { result: undefined };
    const skipped = result?.diagnostics.filter((d) => d.severity === "skipped").length ?? 0;
    expect((result?.notams.length ?? 0) + skipped).toBe(recordCount(file));
  });

  it("reads 33 561 NOTAMs, at least 99.5 % of them without skipping", () => {
    const read = results.reduce((sum, r) => sum + r.result.notams.length, 0);
    const total = FILES.reduce((sum, f) => sum + recordCount(f), 0);
    if (HAS_CORPUS) expect(total).toBe(22_248 + 10_000 + 407 + 386 + 334 + 186);
    expect(read / total).toBeGreaterThanOrEqual(0.995);
  });

  it("gives the same NOTAM from the ICAO text as from the split fields", () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const file of FILES.filter((f) => f.includes(".jsonl"))) {
      for (const line of textOf(file).split("\n")) {
        if (line.trim() === "") continue;
        const record = JSON.parse(line) as { raw?: string | null; raw_reconstructed?: string | null };
        const raw = record.raw ?? record.raw_reconstructed;
        if (!raw) continue;
        compared++;
        const fromText = view(readNotamText(raw, file).notams[0]);
        const fromFields = view(readNotamJsonLines(line, file).notams[0]);
        for (const k of COMPARED) {
          const [a, b] = [JSON.stringify(fromText[k]), JSON.stringify(fromFields[k])];
          if (a !== b) disagreements.push(`${file} ${String(fromFields.id)} ${k}: text ${a} ≠ fields ${b}`);
        }
      }
    }
    expect(compared).toBeGreaterThan(HAS_CORPUS ? 33_000 : 5);
    expect(disagreements).toEqual([]);
  });
});
