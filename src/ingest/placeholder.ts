// A field that holds the same value on every record of a source is a placeholder, not evidence (docs/design.md §2, §4):
// openAIP's 2025 exports carry `hoursOfOperation` = every day 00:00–00:00 on all 735 German airspaces. Such a
// field is reported once per source and never read as the airspace's hours.
import type { Diagnostic } from "../model/diagnostic.js";

/** The fields whose values would be activity evidence if they varied. */
const EVIDENCE_FIELDS = ["hoursOfOperation"] as const;

export function placeholderDiagnostics(items: readonly unknown[], source: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const field of EVIDENCE_FIELDS) {
    const values = items
      .map((i) => (typeof i === "object" && i !== null ? (i as Record<string, unknown>)[field] : undefined))
      .filter((v) => v !== undefined && v !== null)
      .map((v) => JSON.stringify(v));
    // one record cannot tell a placeholder from hours
    if (values.length < 2) continue;
    const distinct = new Set(values).size;
    const message =
      distinct === 1
        ? `${field} holds the same value on all ${values.length} records: a placeholder, not evidence of hours; not read`
        : `${field} holds ${distinct} different values on ${values.length} records; not read (its day numbering is not documented)`;
    out.push({
      code: distinct === 1 ? "airspace.hours.placeholder" : "airspace.hours.notRead",
      severity: "warning",
      message,
      source,
    });
  }
  return out;
}
