// SOFIA-Briefing PIB text, the French service's route and area briefing as it prints (docs/design.md §2):
//   Aérodrome de départ : LPPT LISBOA / HUMBERTO DELGADO        ← headings: not indented
//   LFBB FIR BORDEAUX - LFFF FIR PARIS FIR                      ← the en-route FIRs a group of NOTAMs is about
//       LFFA-R0269/26                                           ← issuing office and id: one NOTAM
//       DU: 29 12 2025 16:06 AU: 30 06 2026 23:59 EST           ← B and C (`AU: PERM`)
//       A)  LFBB
//       Q)  LFBB / QRRCA / IV / BO / W / 000/100 / 4312N00036W010
//       D)  0700-1130 1230-1730                                 ← items indented, a label at a line start
//       E)  RESTRICTED AREAS LF-R201 B1 B2 'OLORON' ACTIVATED   ← E runs on over the following lines
//       F)  SFC   G)  FL100
// The brief states no type (it lists what is in force: NOTAMN is read) and no issue time: its as-of time must be
// declared (`--notam-as-of`, the HTTP answer's Last-Modified). A route brief lists the NOTAMs of a corridor along
// its route, not of whole FIRs (two briefs of one day name 13 and 79 NOTAMs of LFFF): its silence proves nothing
// about a FIR, so it covers none unless the operator declares `firs` (docs/design.md §4, docs/activation.md §2).
import type { Diagnostic } from "../model/diagnostic.js";
import { excerpt } from "../model/diagnostic.js";
import { buildNotam, type NotamFields, type NotamReadResult } from "./build.js";

/** The briefing's own facts: its route and the FIRs of its en-route headings. */
export interface SofiaBriefing {
  departure?: string;
  destination?: string;
  /** FIRs named by the en-route headings, sorted. */
  firs: string[];
}

export interface SofiaReadResult extends NotamReadResult {
  briefing: SofiaBriefing;
}

const ID_LINE = /^\s{2,}([A-Z]{4})-([A-Z]\d{4}\/\d{2})\s*$/;
const VALIDITY =
  /^\s*DU\s*:\s*(\d{2}) (\d{2}) (\d{4}) (\d{2}):(\d{2})\s+AU\s*:\s*(?:(\d{2}) (\d{2}) (\d{4}) (\d{2}):(\d{2})(\s+EST)?|(PERM))\s*$/;
const ITEM = /^\s{2,}([AQDEFG])\)\s?(.*)$/;
const ORDER = "AQDEFG";
const FIELD: Record<string, keyof NotamFields> = { A: "a", Q: "q", D: "d", E: "e", F: "f", G: "g" };
/** `F)  SFC   G)  FL100` on one line: G) after F's text. */
const G_AFTER_F = /^(.*?)\s+G\)\s?(.*)$/;
const FIR_HEADING = /(?:^|\s-\s)([A-Z]{4}) FIR\b/g;
const DEPARTURE = /^A[ée]rodrome de d[ée]part\s*:\s*([A-Z]{4})\b/;
const DESTINATION = /^A[ée]rodrome d'arriv[ée]e\s*:\s*([A-Z]{4})\b/;

/** The text reads as a SOFIA-Briefing brief: an indented `LFFA-R0269/26` line followed by its `DU: … AU: …`. */
export function isSofiaText(text: string): boolean {
  return /^\s{2,}[A-Z]{4}-[A-Z]\d{4}\/\d{2}\s*\r?\n\s+DU\s*:\s*\d{2} \d{2} \d{4}/m.test(text.slice(0, 200_000));
}

/** Reads every NOTAM of a SOFIA-Briefing text; never throws. */
export function readSofiaText(text: string, source: string): SofiaReadResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const notams: NotamReadResult["notams"] = [];
  const diagnostics: Diagnostic[] = [];
  const briefing: SofiaBriefing = { firs: [] };
  const firs = new Set<string>();
  let record = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") continue;
    if (!/^\s/.test(line)) {
      heading(line, briefing, firs);
      continue;
    }
    const id = ID_LINE.exec(line);
    if (!id) continue;
    // the NOTAM runs to the next heading or id line; a blank line inside Item E (`… GND - FL225`, blank,
    // `TEMPORARY RESERVED AREA EPTR501Z …`: 1 221 times in the six briefs of 2026-02) does not end it
    let end = i + 1;
    while (end < lines.length && continues(lines, end)) end++;
    while (end > i + 1 && lines[end - 1]!.trim() === "") end--;
    const at = { source, record, line: i + 1 };
    const built = buildNotam(notamFields(id[1]!, id[2]!, lines.slice(i + 1, end), diagnostics, at), at);
    diagnostics.push(...built.diagnostics);
    if (built.notam) notams.push(built.notam);
    record++;
    i = end - 1;
  }
  briefing.firs = [...firs].sort();
  if (briefing.departure || briefing.destination) {
    const route = `${briefing.departure ?? "?"} → ${briefing.destination ?? "?"}`;
    diagnostics.push({
      code: "notam.sofia.route",
      severity: "warning",
      source,
      message: `route briefing ${route}: it lists the NOTAMs of a corridor through ${briefing.firs.join(" ") || "no named FIR"}, not of whole FIRs, so it covers no FIR (declare the sources config's firs to override)`,
    });
  }
  diagnostics.push({
    code: "notam.sofia.noAsOf",
    severity: "warning",
    source,
    message:
      "a SOFIA-Briefing text states no issue time: without a declared as-of time (--notam-as-of, the answer's Last-Modified) it counts as stale",
  });
  return { notams, diagnostics, briefing };
}

/** Whether line `k` still belongs to the NOTAM above it: indented and not an id line, or blank before such a line. */
function continues(lines: readonly string[], k: number): boolean {
  let j = k;
  while (j < lines.length && lines[j]!.trim() === "") j++;
  return j < lines.length && /^\s/.test(lines[j]!) && !ID_LINE.test(lines[j]!);
}

function heading(line: string, briefing: SofiaBriefing, firs: Set<string>): void {
  const departure = DEPARTURE.exec(line);
  if (departure) briefing.departure = departure[1]!;
  const destination = DESTINATION.exec(line);
  if (destination) briefing.destination = destination[1]!;
  for (const m of line.matchAll(FIR_HEADING)) firs.add(m[1]!);
}

/** The items of one NOTAM's lines after its id line: the validity, then labels in the order A Q D E F G. */
function notamFields(
  nof: string,
  id: string,
  body: readonly string[],
  diagnostics: Diagnostic[],
  at: { source: string; record: number; line: number },
): NotamFields {
  const fields: NotamFields = { id, nof, type: "N" };
  const validity = VALIDITY.exec(body[0] ?? "");
  if (validity) {
    const [, d, mo, y, h, mi, cd, cmo, cy, ch, cmi, est, perm] = validity;
    fields.b = `${y!.slice(2)}${mo}${d}${h}${mi}`;
    fields.c = perm ? "PERM" : `${cy!.slice(2)}${cmo}${cd}${ch}${cmi}${est ? "EST" : ""}`;
  } else {
    // buildNotam skips it for the missing B and C; say what stood there instead
    diagnostics.push({
      code: "notam.sofia.validity",
      severity: "warning",
      message: `NOTAM ${nof}-${id}: "${excerpt(body[0] ?? "", 60)}" is not "DU: dd mm yyyy hh:mm AU: …"`,
      ...at,
      id,
    });
  }
  let open: string | undefined;
  let state = -1;
  const text: Record<string, string[]> = {};
  for (const line of body.slice(validity ? 1 : 0)) {
    const item = ITEM.exec(line);
    const rank = item ? ORDER.indexOf(item[1]!) : -1;
    if (item && rank > state) {
      open = item[1]!;
      state = rank;
      let rest = item[2]!;
      // `F)  SFC   G)  FL100`
      const g = open === "F" ? G_AFTER_F.exec(rest) : null;
      if (g) {
        text.F = [g[1]!];
        open = "G";
        state = ORDER.indexOf("G");
        rest = g[2]!;
      }
      text[open] = [rest];
    } else if (open) text[open]!.push(line.trim());
  }
  for (const [label, parts] of Object.entries(text)) fields[FIELD[label]!] = parts.join("\n").trim();
  return fields;
}
