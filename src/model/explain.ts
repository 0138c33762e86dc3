// The explanations of one published version (issue 15 §5): per airspace, the row of the docs/design.md §4 decision table
// that fired and its evidence. Kept under internal/explain/<version>.json.gz for `explain`; never public as a whole
// (its source names are paths and URLs); the origin answers one feature's `rule` and `because` to a token holder.
import { z } from "zod";
import type { Feature } from "./contract.js";

export const EXPLAIN_SCHEMA = 1;

export const Explanation = z.strictObject({
  /** The decision-table row (Activity.rule). */
  rule: z.string(),
  /** The row and its evidence in one sentence for people. */
  because: z.string(),
  /** What makes it conditional (`byNotam flag`, `hours "MON-FRI+"`, `AMC-managed: in the AUP data`). */
  conditionalOn: z.array(z.string()).optional(),
  evidence: z
    .array(
      z.strictObject({
        kind: z.enum(["notam", "aup"]),
        state: z.string(),
        source: z.string().optional(),
        asOf: z.string().optional(),
        reason: z.string().optional(),
      }),
    )
    .optional(),
  hours: z.strictObject({ text: z.string(), from: z.string(), kind: z.string() }).optional(),
  notams: z.array(z.string()).optional(),
  aup: z.array(z.string()).optional(),
});
export type Explanation = z.infer<typeof Explanation>;

export const ExplainDocument = z.strictObject({
  schema: z.literal(EXPLAIN_SCHEMA),
  version: z.string(),
  date: z.string(),
  now: z.string(),
  /** Every NOTAM and AUP source with its standing at `now`. */
  sources: z.array(
    z.strictObject({
      name: z.string(),
      kind: z.enum(["notam", "aup"]),
      standing: z.string(),
      asOf: z.string().nullable(),
      asOfFrom: z.string(),
      coverage: z.array(z.string()),
      reason: z.string().optional(),
    }),
  ),
  features: z.record(z.string(), Explanation),
  /**
   * Stored as a delta (issue 23, the record): `features` holds only what differs from the day's first version
   * `base`, and `removed` the ids of `base` this version no longer has. Readers merge; they never see a delta.
   */
  base: z.string().optional(),
  removed: z.array(z.string()).optional(),
});
export type ExplainDocument = z.infer<typeof ExplainDocument>;

/** NOTAM features: the decision-table row (docs/design.md §4) their activation type stands for. */
const NOTAM_ROWS: Record<string, string> = {
  isActiveRestrictiveNOTAM: "a restrictive NOTAM with its own area (R), active by its schedule",
  isActiveActivityNOTAM: "an activity NOTAM with its own area (V), active by its schedule",
  isActiveAirspaceNOTAM: "an airspace NOTAM that names no known airspace (A), drawn with its own area",
  isActiveAirspaceDeactivationNOTAM: "a deactivation NOTAM that names no known airspace (D), drawn with its own area",
};

/** A NOTAM feature explains itself: its kind's row, and how far its schedule is trusted. */
export function notamExplanation(f: Pick<Feature, "properties">): Explanation {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  const status = m.notams[0]?.ItemDParsedSchedule?.status;
  const row =
    NOTAM_ROWS[m.activationType] ??
    (f.properties.type === 99 ? "an obstacle NOTAM with its own area, active by its schedule" : undefined);
  if (!row)
    return { rule: "unknown", because: "no explanation was stored for this version (published before issue 15)" };
  return {
    rule: m.activationType,
    because: `${row}${status ? `; Item D ${status}` : m.notams[0] ? "; no Item D: its validity [B, C]" : ""}`,
    ...(m.notams.length > 0 ? { notams: m.notams.map((n) => n.NotamId) } : {}),
  };
}
