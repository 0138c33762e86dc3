// `make corpus`: every real Item D occurrence through the schedule parser, for the day of its Item B:
// the status distribution by distinct strings and by occurrences, the issue codes, and the strings that
// fell back, written to bench/out/itemd-corpus.json. `make bench` also runs the throughput measurement.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DAY_MS } from "../src/model/time.js";
import { evaluateItemD, PARSER_VERSION, type ScheduleResult } from "../src/schedule/evaluate.js";
import { parseValidity } from "../src/schedule/validity.js";
import { loadOccurrences, type Occurrence } from "./notam-corpus.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATA = process.env.SHARED_DATA ?? path.resolve(ROOT, "..", "shared", "data");

interface Prepared {
  occ: Occurrence;
  validity: ReturnType<typeof parseValidity>;
  day: number;
}

function prepare(occ: Occurrence): Prepared {
  const validity = parseValidity(occ.itemB, occ.itemC);
  const day = validity.ok ? Math.floor(validity.value.b / DAY_MS) : 0;
  return { occ, validity, day };
}

function evaluate(p: Prepared): ScheduleResult | undefined {
  return p.validity.ok ? evaluateItemD(p.occ.itemD, p.validity.value, p.day, p.occ.position) : undefined;
}

function corpus(list: Prepared[]): void {
  const byOccurrence: Record<string, number> = {};
  const byString = new Map<string, Map<string, number>>();
  const codes: Record<string, number> = {};
  let invalidValidity = 0;
  for (const p of list) {
    const r = evaluate(p);
    const status = r?.status ?? "invalidValidity";
    if (!r) invalidValidity++;
    byOccurrence[status] = (byOccurrence[status] ?? 0) + 1;
    const key = p.occ.itemD.replace(/\s+/g, " ").trim();
    const s = byString.get(key) ?? new Map<string, number>();
    s.set(status, (s.get(status) ?? 0) + 1);
    byString.set(key, s);
    for (const i of r?.issues ?? []) codes[i.code] = (codes[i.code] ?? 0) + 1;
  }
  // a string counts under its most frequent status
  const byDistinct: Record<string, number> = {};
  const fallbacks: Array<[string, number]> = [];
  for (const [text, statuses] of byString) {
    const [top] = [...statuses].sort((a, b) => b[1] - a[1])[0]!;
    byDistinct[top] = (byDistinct[top] ?? 0) + 1;
    if (top === "fallback" || top === "unsupported")
      fallbacks.push([text, [...statuses.values()].reduce((a, b) => a + b)]);
  }
  const total = list.length;
  const usable = (byOccurrence.exact ?? 0) + (byOccurrence.partial ?? 0);
  const report = {
    parserVersion: PARSER_VERSION,
    occurrences: total,
    distinctStrings: byString.size,
    byOccurrence: sorted(byOccurrence),
    byDistinctString: sorted(byDistinct),
    exactOrPartialShare: +(usable / total).toFixed(4),
    invalidValidity,
    issueCodes: sorted(codes),
    fallbackStrings: fallbacks.sort((a, b) => b[1] - a[1]).map(([text, count]) => ({ text, count })),
  };
  mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  const file = path.join(ROOT, "bench", "out", "itemd-corpus.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Item D corpus (${PARSER_VERSION}): ${total} occurrences, ${byString.size} distinct strings`);
  console.log(`  by occurrence: ${JSON.stringify(report.byOccurrence)}`);
  console.log(`  by distinct string: ${JSON.stringify(report.byDistinctString)}`);
  console.log(`  exact or partial: ${(100 * report.exactOrPartialShare).toFixed(2)} % of occurrences (goal ≥ 97 %)`);
  console.log(`  report: ${path.relative(process.cwd(), file)}`);
}

function throughput(list: Prepared[]): void {
  const usable = list.filter((p) => p.validity.ok);
  for (const p of usable) evaluate(p); // a full warm-up pass: the JIT has seen every form
  const rounds = 5;
  const rates: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const t0 = performance.now();
    for (const p of usable) evaluate(p);
    rates.push(usable.length / ((performance.now() - t0) / 1000));
  }
  const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
  const shown = rates.map((r) => Math.round(r)).join(", ");
  console.log(
    `Item D parse + expand one day: median ${Math.round(median)} per second on one core (${shown}; goal ≥ 200 000)`,
  );
  if (median < 200_000) {
    console.log("itemd: MISSED its goal");
    process.exitCode = 1;
  }
}

const list = loadOccurrences(path.join(DATA, "notam")).map(prepare);
const mode = process.argv[2] ?? "corpus";
if (mode === "corpus" || mode === "all") corpus(list);
if (mode === "throughput" || mode === "all") throughput(list);

function sorted(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}
