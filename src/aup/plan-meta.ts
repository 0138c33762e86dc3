// A plan's AUP day and issue time from a stamp in an operator's spec or a file name: apart from the readers, so that
// naming inputs does not load the XML and CSV parsers (a refresh that reuses the day's reading never does).
import type { PlanKind } from "../model/aup.js";

export interface PlanMeta {
  aupDay: string;
  issued: number;
  kind: PlanKind;
  /** `declared` when the stamp named the time of issue; `guessed` when it named only the day. */
  issuedFrom: "declared" | "guessed";
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
