// src/aup — EUROCONTROL airspace use plans (AUP/UUP) to AupPlans: the NM RSA table (here) and NM B2B / AIXM XML.
// The NM "RSA allocations" table (docs/design.md §2): `RSA,NOTAM,REMARK,MNM FL,MAX FL,WEF,UNT,FUA/EU RS,FIR,UIR`,
// with or without a browser capture's leading `Column-0,…` line and empty index column, BOM or not, `,` or `;`
// separated (NM exports use both), quoted fields with separators and line breaks: csv-parse reads the cells
// (issue 17: a maintained parser replaced the hand-written splitter, which broke on quoted line breaks).
// Times are HH:MM of the AUP day (06:00 D → 06:00 D+1): before 06:00 is the next calendar day, `UNT 06:00`
// ends the AUP day. Levels are three-digit flight levels: 000 = GND, 999 = UNL.
import { parse } from "csv-parse/sync";
import type { AupAllocation, AupPlan } from "../model/aup.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { aupLevel } from "./levels.js";
import type { PlanMeta } from "./plan-meta.js";

const HOUR = 3_600_000;
/** The table's header, in this order (a browser capture puts `Column-n` names and an index column before it). */
const HEADER = ["RSA", "NOTAM", "REMARK"];
const TIME = /^(\d{2}):(\d{2})$/;

export function readAupCsv(
  text: string,
  source: string,
  meta: PlanMeta,
): { plans: AupPlan[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let rows: Array<{ record: string[]; info: { lines: number } }>;
  try {
    rows = parse(text, {
      bom: true,
      delimiter: [",", ";"],
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (e) {
    const message = `not a readable CSV table (${(e as Error).message})`;
    return { plans: [], diagnostics: [{ code: "aup.csv.malformed", severity: "skipped", message, source }] };
  }
  const headerAt = rows.findIndex(({ record: r }) => {
    const k = r.indexOf(HEADER[0]!);
    return k >= 0 && HEADER.every((h, i) => r[k + i]?.trim() === h);
  });
  if (headerAt < 0) {
    const message = "no RSA,NOTAM,REMARK,… header: not an RSA allocations table";
    return { plans: [], diagnostics: [{ code: "aup.csv.header", severity: "skipped", message, source }] };
  }
  const header = rows[headerAt]!.record.map((h) => h.trim());
  const col = (name: string) => header.indexOf(name);
  const [rsa, remark, lo, hi, wef, unt, fir] = ["RSA", "REMARK", "MNM FL", "MAX FL", "WEF", "UNT", "FIR"].map(
    col,
  ) as number[];
  const dayStart = Date.parse(`${meta.aupDay}T06:00:00Z`);
  const allocations: AupAllocation[] = [];
  for (let k = headerAt + 1; k < rows.length; k++) {
    const cells = rows[k]!.record;
    if (cells.every((c) => c.trim() === "")) continue;
    const line = cells.join(",");
    // csv-parse counts the lines read when it hands a record over: the previous record's count is where this began
    const at = { source, line: rows[k - 1]!.info.lines, record: allocations.length };
    const skip = (code: string, message: string) =>
      diagnostics.push({ code, severity: "skipped", message, ...at, excerpt: line.slice(0, 80) });
    const designator = (cells[rsa!] ?? "").trim();
    if (!/^[A-Z0-9]{2,}$/.test(designator)) {
      skip("aup.csv.designator", `RSA "${designator}" is not a designator`);
      continue;
    }
    const start = clock(cells[wef!], dayStart, false);
    const end = clock(cells[unt!], dayStart, true);
    if (start === undefined || end === undefined || end <= start) {
      skip("aup.csv.time", `WEF "${cells[wef!] ?? ""}" UNT "${cells[unt!] ?? ""}" is not a time range of the AUP day`);
      continue;
    }
    const lowerText = (cells[lo!] ?? "").trim();
    const upperText = (cells[hi!] ?? "").trim();
    const lower = aupLevel(lowerText);
    const upper = aupLevel(upperText);
    if (!lower || !upper) {
      skip("aup.csv.level", `levels "${lowerText}"–"${upperText}" are not three-digit flight levels`);
      continue;
    }
    const note = (cells[remark!] ?? "").trim();
    const firs = (cells[fir!] ?? "").split(/[\s,]+/).filter((f) => /^[A-Z]{4}$/.test(f));
    allocations.push({
      designator,
      status: "ACTIVE",
      start,
      end,
      lowerText,
      upperText,
      lower,
      upper,
      ...(note && note !== "0" ? { remark: note } : {}),
      ...(firs.length > 0 ? { firs } : {}),
      origin: at,
    });
  }
  return { plans: [{ ...meta, source, allocations }], diagnostics };
}

/** HH:MM of the AUP day: before 06:00 is the next calendar day; as an end, 06:00 is the AUP day's end. */
function clock(text: string | undefined, dayStart: number, isEnd: boolean): number | undefined {
  const m = TIME.exec((text ?? "").trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59) return undefined;
  // 23:59 as an end is the end of that calendar day
  const minutes = isEnd && h === 23 && min === 59 ? 24 * 60 : h * 60 + min;
  let offset = minutes * 60_000 - 6 * HOUR;
  if (offset < 0 || (isEnd && offset === 0)) offset += 24 * HOUR;
  return dayStart + offset;
}
