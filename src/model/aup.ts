// An airspace use plan allocation (EUROCONTROL AUP/UUP, "RSA allocations") as the readers produce it.
import type { VerticalLimit } from "./contract.js";

export const PLAN_KINDS = ["AUP", "UUP"] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

/** One plan: all allocations of one AUP day as published at one time. A later plan of the day replaces it. */
export interface AupPlan {
  /** The AUP day `YYYY-MM-DD`: 06:00 UTC that day → 06:00 UTC the next. */
  aupDay: string;
  kind: PlanKind;
  /** When the plan was issued (or captured), epoch ms: orders the plans of a day. */
  issued: number;
  /**
   * Where `issued` comes from: the message's own header (`content`), the operator's `YYYY-MM-DDThhmm=` or the
   * file name (`declared`, the RSA table has no date), or a guess from the first allocation (`guessed`: no
   * as-of time, so the plan is not evidence that an area is off).
   */
  issuedFrom: "content" | "declared" | "guessed";
  source: string;
  allocations: AupAllocation[];
}

export interface AupAllocation {
  /** As written (`EDR205C`, `LFTSA5Z`). */
  designator: string;
  /** `ACTIVE` for RSA allocations; AIXM activations may say `INACTIVE`. */
  status: string;
  /** Absolute interval, epoch ms. */
  start: number;
  end: number;
  /** Original level text (`000`, `105`, `FL105`, `5000 FT AMSL`). */
  lowerText: string;
  upperText: string;
  lower?: VerticalLimit;
  upper?: VerticalLimit;
  remark?: string;
  /** The FIRs the table names for the allocation (`FIR` column: `EBBU, EDGG`). */
  firs?: string[];
  origin: { source: string; record: number; line?: number };
}
