// The explanations of one published version (issue 15 §5): per airspace, the row of the DESIGN §4 decision table
// that fired and its evidence. Kept under internal/explain/<version>.json.gz for `explain`; never public.
import { z } from "zod";

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
});
export type ExplainDocument = z.infer<typeof ExplainDocument>;
