// Labels for vertical limits (docs/design.md §4): `FL 95`, `2500 ft MSL`, `1000 ft AGL`, `300 m MSL`, `GND`, `UNL`.
import type { VerticalLimit } from "./contract.js";
import { LimitUnit, ReferenceDatum } from "./vocab.js";

export function formatLimit(limit: VerticalLimit): string {
  const { value, unit, referenceDatum } = limit;
  if (unit === LimitUnit.FLIGHT_LEVEL) return value >= 999 ? "UNL" : `FL ${value}`;
  if (referenceDatum === ReferenceDatum.GND && value === 0) return "GND";
  const u = unit === LimitUnit.METER ? "m" : "ft";
  if (referenceDatum === ReferenceDatum.STD) return `${value} ${u} STD`;
  return `${value} ${u} ${referenceDatum === ReferenceDatum.GND ? "AGL" : "MSL"}`;
}

/** Approximate feet for comparing two limits of the same reference family; undefined across families. */
export function comparableFeet(limit: VerticalLimit): { family: "ground" | "sea"; feet: number } {
  const feet =
    limit.unit === LimitUnit.FLIGHT_LEVEL
      ? limit.value * 100
      : limit.unit === LimitUnit.METER
        ? limit.value * 3.28084
        : limit.value;
  return { family: limit.referenceDatum === ReferenceDatum.GND ? "ground" : "sea", feet };
}

/** The two-digit `VendorType` (docs/contract.md §2.5). */
export function vendorType(type: number): string {
  return String(type).padStart(2, "0");
}
