// The NM "RSA allocations" table (DESIGN §2): `RSA,NOTAM,REMARK,MNM FL,MAX FL,WEF,UNT,FUA/EU RS,FIR,UIR`,
// with or without a browser capture's leading `Column-0,…` line and empty index column, BOM or not.
// Times are HH:MM of the AUP day (06:00 D → 06:00 D+1): before 06:00 is the next calendar day, `UNT 06:00`
// ends the AUP day. Levels are three-digit flight levels: 000 = GND, 999 = UNL.
import type { AupAllocation, AupPlan, PlanKind } from "../model/aup.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { aupLevel } from "./levels.js";

export interface PlanMeta {
  aupDay: string;
  issued: number;
  kind: PlanKind;
  /** `declared` when the stamp named the time of issue; `guessed` when it named only the day. */
  issuedFrom: "declared" | "guessed";
}

const HOUR = 3_600_000;
const TIME = /^(\d{2}):(\d{2})$/;

export function readAupCsv(
  text: string,
  source: string,
  meta: PlanMeta,
): { plans: AupPlan[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const headerAt = lines.findIndex((l) => /(^|,)RSA,NOTAM,REMARK,/.test(l));
  if (headerAt < 0) {
    const message = "no RSA,NOTAM,REMARK,… header: not an RSA allocations table";
    return { plans: [], diagnostics: [{ code: "aup.csv.header", severity: "skipped", message, source }] };
  }
  const header = splitCsv(lines[headerAt]!);
  const col = (name: string) => header.indexOf(name);
  const [rsa, remark, lo, hi, wef, unt, fir] = ["RSA", "REMARK", "MNM FL", "MAX FL", "WEF", "UNT", "FIR"].map(
    col,
  ) as number[];
  const dayStart = Date.parse(`${meta.aupDay}T06:00:00Z`);
  const allocations: AupAllocation[] = [];
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const cells = splitCsv(line);
    const at = { source, line: i + 1, record: allocations.length };
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

/** One CSV line: commas outside double quotes separate, `""` is a quote. */
export function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
