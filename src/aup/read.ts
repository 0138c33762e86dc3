// One AUP/UUP source as bytes: NM B2B XML (AIXM) or the RSA allocations table (CSV). The table has no date,
// so its AUP day and issue time come from the operator (`2022-02-23T0959Z=file.csv`) or the file name.
import { createHash } from "node:crypto";
import { decodeText } from "../ingest/text.js";
import type { AupPlan } from "../model/aup.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { type PlanMeta, readAupCsv } from "./csv.js";

export type { PlanMeta };

import { readAupXml } from "./xml.js";

export interface AupSourceResult {
  plans: AupPlan[];
  diagnostics: Diagnostic[];
  format: "csv" | "xml";
  sha256: string;
}

const STAMP = /(\d{4}-\d{2}-\d{2})(?:T(\d{2}):?(\d{2})Z?)?/;

/** `2022-02-23T0959Z` (in an operator's spec or a file name) to the plan's AUP day and issue time. */
export function planMetaFrom(text: string): PlanMeta | undefined {
  const m = STAMP.exec(text);
  if (!m) return undefined;
  const issued = Date.parse(`${m[1]}T${m[2] ?? "06"}:${m[3] ?? "00"}:00Z`);
  if (Number.isNaN(issued)) return undefined;
  // a plan consulted before 06:00 UTC belongs to the AUP day that began the day before
  const aupDay = new Date(issued - 6 * 3_600_000).toISOString().slice(0, 10);
  return { aupDay, issued, kind: /uup/i.test(text) ? "UUP" : "AUP", issuedFrom: m[2] ? "declared" : "guessed" };
}

export function readAupSource(bytes: Uint8Array, source: string, meta?: PlanMeta): AupSourceResult {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const text = decodeText(bytes).text;
  if (text.trimStart().startsWith("<")) return { ...readAupXml(text, source), format: "xml", sha256 };
  const m = meta ?? planMetaFrom(source);
  if (!m) {
    const message = `${source}: the RSA table carries no date; name its AUP day (YYYY-MM-DD[Thhmm]=file)`;
    return {
      plans: [],
      diagnostics: [{ code: "aup.csv.noDay", severity: "skipped", message, source }],
      format: "csv",
      sha256,
    };
  }
  return { ...readAupCsv(text, source, m), format: "csv", sha256 };
}
