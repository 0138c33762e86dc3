// OpenAir for gliding instruments (DESIGN §8): Naviter's extended format, version 2.0 (`AC` class, `AY` type, `AA`
// activation times), one block per polygon of every feature that is or may be active on the day (`No` is left out).
// A `Yes` feature active for part of the day gets one `AA` per activation interval; `Unknown` gets none, so that
// instruments always show it (the safe side). The feature's `_id` is a comment above its block: openAIP's reader
// (2.13) refuses `AI`. Points in degrees and decimal minutes (1/1000 minute, under 2 m), rings clockwise.
//   AC D
//   AY CTR
//   AN ABERDEEN CTR
//   AF 119.055
//   AG ABERDEEN APPROACH
//   AH 1500ft AMSL
//   AL GND
//   DP 57:16.500N 002:29.750W …
import type { Feature, VerticalLimit } from "../model/contract.js";
import { AirspaceType, LimitUnit, ReferenceDatum } from "../model/vocab.js";

export const OPENAIR_HEADER = "*VERSION: 2.0\n*WRITTEN_BY: airspace-publisher\n";

/** openAIP type → OpenAir `AY` (Naviter 2.1 list); graphical NOTAMs by their kind. */
const AY: Readonly<Record<number, string>> = {
  [AirspaceType.OTHER]: "NONE",
  [AirspaceType.RESTRICTED]: "R",
  [AirspaceType.DANGER]: "Q",
  [AirspaceType.PROHIBITED]: "P",
  [AirspaceType.CTR]: "CTR",
  [AirspaceType.TMZ]: "TMZ",
  [AirspaceType.RMZ]: "RMZ",
  [AirspaceType.TMA]: "TMA",
  [AirspaceType.TRA]: "TRA",
  [AirspaceType.TSA]: "TSA",
  [AirspaceType.FIR]: "FIR",
  [AirspaceType.UIR]: "UIR",
  [AirspaceType.ADIZ]: "ADIZ",
  [AirspaceType.ATZ]: "ATZ",
  [AirspaceType.MATZ]: "MATZ",
  [AirspaceType.AIRWAY]: "AWY",
  [AirspaceType.MTR]: "MTR",
  [AirspaceType.ALERT]: "ALERT",
  [AirspaceType.WARNING]: "WARNING",
  [AirspaceType.PROTECTED]: "NONE",
  [AirspaceType.HTZ]: "HTZ",
  [AirspaceType.GLIDING_SECTOR]: "GSEC",
  [AirspaceType.TRP]: "TRZ",
  [AirspaceType.TIZ]: "TIZ",
  [AirspaceType.TIA]: "TIA",
  [AirspaceType.MTA]: "MTA",
  [AirspaceType.CTA]: "CTA",
  [AirspaceType.ACC_SECTOR]: "ACCSEC",
  [AirspaceType.AERIAL_SPORTING]: "ASRA",
  [AirspaceType.OVERFLIGHT_RESTRICTION]: "OFR",
  [AirspaceType.MRT]: "MTR",
  [AirspaceType.TFR]: "TFR",
  [AirspaceType.VFR_SECTOR]: "VFRSEC",
  [AirspaceType.FIS_SECTOR]: "FIS",
  [AirspaceType.LTA]: "LTA",
  [AirspaceType.UTA]: "UTA",
  [AirspaceType.MCTR]: "CTR",
  [AirspaceType.NOTAM_AIRSPACE]: "N",
};

/** Restrictive NOTAMs restrict flight (TFR); activity and obstacle NOTAMs mark an affected area (N). */
function typeOf(f: Feature): string {
  if (f.properties.type === AirspaceType.GRAPHICAL_NOTAM) {
    return f.properties.vendor.dynamicAirspaceMapping.activationType === "isActiveRestrictiveNOTAM" ? "TFR" : "N";
  }
  return AY[f.properties.type] ?? "NONE";
}

/** `1500ft AMSL`, `FL95`, `1000ft AGL`, `GND`, `UNL` (FL 999 and above). */
export function openairLimit(l: VerticalLimit, upper: boolean): string {
  if (l.unit === LimitUnit.FLIGHT_LEVEL) return upper && l.value >= 999 ? "UNL" : `FL${Math.round(l.value)}`;
  if (!upper && l.value === 0 && l.referenceDatum !== ReferenceDatum.STD) return "GND";
  const unit = l.unit === LimitUnit.METER ? "m" : "ft";
  const datum =
    l.referenceDatum === ReferenceDatum.GND ? "AGL" : l.referenceDatum === ReferenceDatum.STD ? "STD" : "AMSL";
  return `${Math.round(l.value)}${unit} ${datum}`;
}

/** `57:16.500N`, `002:29.750W` */
function ddm(value: number, width: number, pos: string, neg: string): string {
  const abs = Math.abs(value);
  let deg = Math.floor(abs);
  let min = Math.round((abs - deg) * 60_000) / 1000;
  if (min >= 60) [deg, min] = [deg + 1, 0];
  return `${String(deg).padStart(width, "0")}:${min.toFixed(3).padStart(6, "0")}${value < 0 ? neg : pos}`;
}

const point = ([lon, lat]: readonly number[]) => `DP ${ddm(lat!, 2, "N", "S")} ${ddm(lon!, 3, "E", "W")}`;

/** `2026-08-22T08:00Z` */
const minute = (iso: string) => `${iso.slice(0, 16)}Z`;

/** Whether the feature goes in: active or possibly active on the day. */
export const inOpenair = (f: Feature) => f.properties.vendor.dynamicAirspaceMapping.isActive !== "No";

/** The OpenAir blocks of one feature (one per polygon; holes cannot be written and are left out), or none. */
export function openairBlocks(f: Feature): string[] {
  if (!inOpenair(f)) return [];
  const p = f.properties;
  const m = p.vendor.dynamicAirspaceMapping;
  const cls = p.icaoClass !== undefined && p.icaoClass <= 6 ? "ABCDEFG"[p.icaoClass]! : "UNC";
  const head = [`* ${p._id}`, `AC ${cls}`, `AY ${typeOf(f)}`, `AN ${oneLine(p.name)}`];
  const freq = p.frequencies?.find((q) => q.primary) ?? p.frequencies?.[0];
  if (freq) {
    head.push(`AF ${freq.value}`);
    if (freq.name) head.push(`AG ${oneLine(freq.name)}`);
  }
  const times = m.airspaceActivationTimes;
  const wholeDay = times.length === 1 && Date.parse(times[0]!.end) - Date.parse(times[0]!.start) === 86_400_000;
  if (m.isActive === "Yes" && !wholeDay) for (const t of times) head.push(`AA ${minute(t.start)}/${minute(t.end)}`);
  head.push(`AH ${openairLimit(p.upperLimit, true)}`, `AL ${openairLimit(p.lowerLimit, false)}`);
  const polygons = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
  return polygons.map((rings) => {
    // RFC 7946 exteriors are counter-clockwise; OpenAir lists points clockwise, closed
    const ring = [...rings[0]!].reverse();
    return [...head, ...ring.map(point)].join("\n");
  });
}

/** A country's OpenAir text without the header: its blocks, each ending in a blank line. */
export function openairText(features: readonly Feature[]): { text: string; blocks: number } {
  const blocks = features.flatMap(openairBlocks);
  return { text: blocks.map((b) => `${b}\n\n`).join(""), blocks: blocks.length };
}

/** Names and callsigns on one line, without characters OpenAir readers take for commands or comments. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ").trim();
