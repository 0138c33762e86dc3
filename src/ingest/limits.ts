// Text altitudes as OpenAir and NOTAMs write them, to a VerticalLimit (docs/contract.md §2.4).
//   GND  SFC  4500ft MSL  4500 FT AMSL  1000ft GND  1000 AGL  FL75  FL 100  UNL  300m MSL  UNLIM
import type { VerticalLimit } from "../model/contract.js";
import { LimitUnit, ReferenceDatum } from "../model/vocab.js";

export type LimitParse = { ok: true; value: VerticalLimit } | { ok: false; reason: string };

const GROUND = /^(GND|SFC|GROUND|SURFACE|MSL\s*0?)$/;

/** Parses one altitude text; `reason` names what was not understood. */
export function parseAltitudeText(input: string): LimitParse {
  const t = input.trim().toUpperCase().replace(/\s+/g, " ");
  if (t === "") return { ok: false, reason: "empty altitude" };
  if (GROUND.test(t))
    return { ok: true, value: { value: 0, unit: LimitUnit.FEET, referenceDatum: ReferenceDatum.GND } };
  if (/^(UNL|UNLTD|UNLIM|UNLIMITED)$/.test(t)) {
    return { ok: true, value: { value: 999, unit: LimitUnit.FLIGHT_LEVEL, referenceDatum: ReferenceDatum.STD } };
  }
  const fl = /^FL ?(\d{1,3})$/.exec(t);
  if (fl?.[1]) {
    return {
      ok: true,
      value: { value: Number(fl[1]), unit: LimitUnit.FLIGHT_LEVEL, referenceDatum: ReferenceDatum.STD },
    };
  }
  // number, unit (ft/f/m, default ft), reference (MSL/AMSL/ALT default MSL; GND/AGL/SFC/ASFC)
  const m = /^(\d+(?:\.\d+)?) ?(FT|F|M)? ?(AMSL|MSL|ALT|AGL|GND|SFC|ASFC)?$/.exec(t);
  if (m?.[1]) {
    const unit = m[2] === "M" ? LimitUnit.METER : LimitUnit.FEET;
    const ref = m[3] && /AGL|GND|SFC/.test(m[3]) ? ReferenceDatum.GND : ReferenceDatum.MSL;
    return { ok: true, value: { value: Number(m[1]), unit, referenceDatum: ref } };
  }
  return { ok: false, reason: `altitude not understood: "${input.trim()}"` };
}
