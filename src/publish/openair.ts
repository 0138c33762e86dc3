// OpenAir for gliding instruments (docs/design.md §8): Naviter's extended format, version 2.0 (`AC` class, `AY` type, `AA`
// activation times), one block per polygon of every feature that is or may be active on the day (`No` is left out).
// A `Yes` feature active for part of the day gets one `AA` per activation interval; `Unknown` gets none, so that
// instruments always show it (the safe side). The feature's `_id` is a comment above its block: openAIP's reader
// (2.13) refuses `AI`. Points in whole seconds, rings clockwise: openAIP's reader turns decimal minutes into seconds
// and refuses 12.999' as 60 seconds, and rounds them to seconds anyway.
//   AC D
//   AY CTR
//   AN ABERDEEN CTR
//   AF 119.055
//   AG ABERDEEN APPROACH
//   AH 1500ft AMSL
//   AL GND
//   DP 57:16:30N 002:29:45W …

import type { Position } from "../geo/planar.js";
import { ringSelfIntersects } from "../geo/self-intersection.js";
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

/**
 * `1500ft AMSL`, `FL095`, `1000ft AGL`, `GND`, `UNL` (FL 999 and above). Flight levels take three digits and a
 * height on the standard pressure is written as its flight level: openAIP's reader takes `FL` with two digits or
 * more, and `ft`/`m` only with AMSL or AGL.
 */
export function openairLimit(l: VerticalLimit, upper: boolean): string {
  const fl = (level: number) => (upper && level >= 999 ? "UNL" : `FL${String(Math.round(level)).padStart(3, "0")}`);
  if (l.unit === LimitUnit.FLIGHT_LEVEL) return fl(l.value);
  const feet = l.unit === LimitUnit.METER ? l.value / 0.3048 : l.value;
  if (l.referenceDatum === ReferenceDatum.STD) return fl(feet / 100);
  if (!upper && l.value === 0) return "GND";
  const unit = l.unit === LimitUnit.METER ? "m" : "ft";
  return `${Math.round(l.value)}${unit} ${l.referenceDatum === ReferenceDatum.GND ? "AGL" : "AMSL"}`;
}

/** `57:16:30N`, `002:29:45W`: whole seconds (under 16 m), the form every reader takes; `places` decimals if asked. */
function dms(value: number, width: number, pos: string, neg: string, places = 0): string {
  const hemisphere = value < 0 ? neg : pos;
  if (places === 0) {
    // every vertex of every published area passes here: integers and a table of two digits, no toFixed/padStart
    const total = Math.round(Math.abs(value) * 3600);
    const d = Math.floor(total / 3600);
    const deg = width === 3 && d < 100 ? (d < 10 ? `00${d}` : `0${d}`) : d < 10 ? `0${d}` : `${d}`;
    return `${deg}:${TWO[Math.floor((total % 3600) / 60)]}:${TWO[total % 60]}${hemisphere}`;
  }
  const scale = 10 ** places;
  const total = Math.round(Math.abs(value) * 3600 * scale);
  const whole = Math.floor(total / scale);
  const [d, m] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60)];
  const sec = ((whole % 60) + (total % scale) / scale).toFixed(places).padStart(places + 3, "0");
  return `${String(d).padStart(width, "0")}:${String(m).padStart(2, "0")}:${sec}${hemisphere}`;
}

/** `00` … `59` */
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));

const point = ([lon, lat]: readonly number[], places = 0) =>
  `DP ${dms(lat!, 2, "N", "S", places)} ${dms(lon!, 3, "E", "W", places)}`;

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
  return polygons.map((rings) => [...head, ...shape(rings[0]!)].join("\n"));
}

/** Smallest circle written for an area that whole seconds would collapse (a 0.005 NM UAS area): wider, the safe
 * side; openAIP's reader merges circle points closer than 200 m, so a smaller one is no polygon to it. */
const MIN_RADIUS_NM = 0.1;

/** Above this size an area whose whole seconds cross is written to the hundredth of a second, not as a circle. */
const CIRCLE_UP_TO_NM = 1;

/**
 * A ring's lines: `DP` points, clockwise (RFC 7946 exteriors are counter-clockwise), closed, in whole seconds with
 * repeats and spikes dropped. When whole seconds leave fewer than three points, or make a ring cross itself that
 * did not, a small area becomes a circle around it (`V X=`, `DC`) and a larger one keeps hundredths of a second.
 */
function shape(ring: readonly (readonly number[])[]): string[] {
  const exact = [...ring].reverse() as Position[];
  const second = (v: number) => Math.round(v * 3600) / 3600;
  const rounded: Position[] = [];
  for (const [x, y] of exact) {
    const p: Position = [second(x!), second(y!)];
    const last = rounded[rounded.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) continue;
    // A B A: the spike back to where the ring was is no area
    const before = rounded[rounded.length - 2];
    if (before && before[0] === p[0] && before[1] === p[1]) rounded.pop();
    else rounded.push(p);
  }
  const open = rounded.length > 0 && (rounded[0]![0] !== rounded.at(-1)![0] || rounded[0]![1] !== rounded.at(-1)![1]);
  const closed = open ? [...rounded, rounded[0]!] : rounded;
  if (threeDistinct(rounded) && !(ringSelfIntersects(closed) && !ringSelfIntersects(exact)))
    return closed.map((p) => point(p));
  const lon = exact.reduce((n, p) => n + p[0]!, 0) / exact.length;
  const lat = exact.reduce((n, p) => n + p[1]!, 0) / exact.length;
  const cos = Math.cos((lat * Math.PI) / 180);
  const nm = Math.max(...exact.map((p) => Math.hypot((p[0]! - lon) * cos, p[1]! - lat) * 60));
  if (nm > CIRCLE_UP_TO_NM) return exact.map((p) => point(p, 2));
  const radius = Math.max(nm, MIN_RADIUS_NM);
  return [
    `* area of ${nm.toFixed(3)} NM radius, drawn as a circle of ${radius.toFixed(2)} NM`,
    `V X=${dms(lat, 2, "N", "S")} ${dms(lon, 3, "E", "W")}`,
    `DC ${radius.toFixed(2)}`,
  ];
}

/** Whether the points hold three distinct ones (a Set of them all cost more than the answer needs). */
function threeDistinct(points: readonly Position[]): boolean {
  // whole seconds as integers: one number per point (|lat| · 3600 < 10⁶)
  let a: number | undefined;
  let b: number | undefined;
  for (const p of points) {
    const k = Math.round(p[0]! * 3600) * 1e6 + Math.round(p[1]! * 3600);
    if (a === undefined) a = k;
    else if (k === a) continue;
    else if (b === undefined) b = k;
    else if (k !== b) return true;
  }
  return false;
}

/** A country's OpenAir text without the header: its blocks, each ending in a blank line, and how many each feature gave. */
export function openairText(features: readonly Feature[]): { text: string; blocks: number; counts: number[] } {
  return openairOf(features.map(openairBlocks));
}

/** A country's OpenAir text from its features' blocks, in order. */
export function openairOf(per: ReadonlyArray<readonly string[]>): { text: string; blocks: number; counts: number[] } {
  const blocks = per.flat();
  return { text: blocks.map((b) => `${b}\n\n`).join(""), blocks: blocks.length, counts: per.map((b) => b.length) };
}

/** The blocks of each feature in a country's OpenAir text, by the counts it was rendered with; undefined if they differ. */
export function blocksOf(text: string, counts: readonly number[]): string[][] | undefined {
  const blocks = text === "" ? [] : text.slice(0, -2).split("\n\n");
  if (blocks.length !== counts.reduce((n, c) => n + c, 0)) return undefined;
  const out: string[][] = [];
  let at = 0;
  for (const c of counts) {
    out.push(blocks.slice(at, at + c));
    at += c;
  }
  return out;
}

/** Names and callsigns on one line, without characters OpenAir readers take for commands or comments. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ").trim();
