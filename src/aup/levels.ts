// AUP levels: the table's three digits are flight levels, `000` is the ground and `999` unlimited.
import type { VerticalLimit } from "../model/contract.js";

export function aupLevel(text: string): VerticalLimit | undefined {
  const m = /^(?:FL\s?)?(\d{3})$/.exec(text.trim().toUpperCase());
  if (!m) return undefined;
  const fl = Number(m[1]);
  if (fl === 0) return { value: 0, unit: 1, referenceDatum: 0 };
  return { value: fl, unit: 6, referenceDatum: 2 };
}
