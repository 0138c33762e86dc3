// One AUP/UUP source as bytes: NM B2B XML (AIXM) or the RSA allocations table (CSV). The table has no date,
// so its AUP day and issue time come from the operator (`2022-02-23T0959Z=file.csv`) or the file name.
import { createHash } from "node:crypto";
import { decodeText } from "../ingest/text.js";
import type { AupPlan } from "../model/aup.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { readAupCsv } from "./csv.js";
import { type PlanMeta, planMetaFrom } from "./plan-meta.js";
import { readAupXml } from "./xml.js";

export { type PlanMeta, planMetaFrom };

export interface AupSourceResult {
  plans: AupPlan[];
  diagnostics: Diagnostic[];
  format: "csv" | "xml";
  sha256: string;
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
