// One palette for every feature (docs/design.md §4 dynamicStyle), in the spirit of ICAO VFR charts.
// The map page's legend is generated from PALETTE, so a colour changes in one place only.
import type { DynamicStyle } from "../model/contract.js";
import type { IsActive, PaintDirection } from "../model/vocab.js";
import { AirspaceType } from "../model/vocab.js";

export interface PaletteEntry {
  /** Legend label. */
  label: string;
  /** [r, g, b] */
  rgb: readonly [number, number, number];
  fillOpacity: number;
  lineWidth: number;
  lineDasharray: readonly number[];
  priority: number;
  paint: PaintDirection;
}

const entry = (
  label: string,
  rgb: PaletteEntry["rgb"],
  priority: number,
  extra: Partial<Omit<PaletteEntry, "label" | "rgb" | "priority">> = {},
): PaletteEntry => ({
  label,
  rgb,
  priority,
  fillOpacity: 0.15,
  lineWidth: 1.5,
  lineDasharray: [],
  paint: "none",
  ...extra,
});

export const PALETTE = {
  // as ICAO 1:500 000 charts draw them: controlled airspace blue, class E a thin magenta dash, CTRs a bold blue
  // dash, restricted and prohibited areas red and hatched, danger areas red-orange dashed (issue 17: class E and
  // A–D, CTR and restricted areas were one colour each)
  fir: entry("FIR / UIR / sector", [100, 116, 139], 0, { fillOpacity: 0, lineWidth: 1, lineDasharray: [8, 4] }),
  classE: entry("Class E", [192, 38, 211], 10, { fillOpacity: 0.04, lineWidth: 1, lineDasharray: [6, 4] }),
  classFG: entry("Class F / G", [100, 116, 139], 5, { fillOpacity: 0.05, lineWidth: 1 }),
  controlled: entry("Class A–D, TMA, CTA", [37, 99, 235], 20, { fillOpacity: 0.1 }),
  tmz: entry("TMZ", [71, 85, 105], 25, { fillOpacity: 0.08, lineDasharray: [6, 3] }),
  rmz: entry("RMZ", [14, 116, 144], 25, { fillOpacity: 0.08, lineDasharray: [2, 3] }),
  ctr: entry("CTR / ATZ / HTZ", [30, 64, 175], 40, { fillOpacity: 0.15, lineWidth: 2.5, lineDasharray: [10, 4] }),
  tra: entry("TRA / TSA", [124, 58, 237], 45, { fillOpacity: 0.12, lineDasharray: [8, 3, 2, 3] }),
  danger: entry("Danger area", [234, 88, 12], 50, { fillOpacity: 0.15, lineWidth: 2, lineDasharray: [8, 3] }),
  restricted: entry("Restricted area", [220, 38, 38], 55, {
    fillOpacity: 0.18,
    lineWidth: 2,
    paint: "backwardDiagonal",
  }),
  prohibited: entry("Prohibited area", [153, 27, 27], 60, {
    fillOpacity: 0.25,
    lineWidth: 2.5,
    paint: "forwardDiagonal",
  }),
  gliding: entry("Gliding / sporting sector", [202, 138, 4], 30, { fillOpacity: 0.15 }),
  military: entry("Military training area / route", [161, 98, 7], 35, { fillOpacity: 0.1, lineDasharray: [4, 2] }),
  other: entry("Other", [82, 82, 91], 15, { fillOpacity: 0.08, lineWidth: 1 }),
  restrictiveNotam: entry("Restrictive NOTAM", [239, 68, 68], 80, { fillOpacity: 0.25, lineWidth: 2, paint: "inside" }),
  activityNotam: entry("Activity NOTAM", [147, 51, 234], 75, { fillOpacity: 0.22, lineWidth: 2 }),
  airspaceNotam: entry("Airspace NOTAM", [234, 88, 12], 70, { fillOpacity: 0.2, lineWidth: 2, lineDasharray: [4, 2] }),
  obstacleNotam: entry("Obstacle NOTAM", [219, 39, 119], 85, { fillOpacity: 0.3, lineWidth: 2 }),
} as const satisfies Record<string, PaletteEntry>;
export type PaletteKey = keyof typeof PALETTE;

const BY_TYPE: Partial<Record<number, PaletteKey>> = {
  [AirspaceType.RESTRICTED]: "restricted",
  [AirspaceType.DANGER]: "danger",
  [AirspaceType.PROHIBITED]: "prohibited",
  [AirspaceType.CTR]: "ctr",
  [AirspaceType.MCTR]: "ctr",
  [AirspaceType.ATZ]: "ctr",
  [AirspaceType.MATZ]: "ctr",
  [AirspaceType.HTZ]: "ctr",
  [AirspaceType.TMZ]: "tmz",
  [AirspaceType.RMZ]: "rmz",
  [AirspaceType.TMA]: "controlled",
  [AirspaceType.CTA]: "controlled",
  [AirspaceType.AIRWAY]: "controlled",
  [AirspaceType.TRA]: "tra",
  [AirspaceType.TSA]: "tra",
  [AirspaceType.FIR]: "fir",
  [AirspaceType.UIR]: "fir",
  [AirspaceType.ACC_SECTOR]: "fir",
  [AirspaceType.FIS_SECTOR]: "fir",
  [AirspaceType.GLIDING_SECTOR]: "gliding",
  [AirspaceType.AERIAL_SPORTING]: "gliding",
  [AirspaceType.MTA]: "military",
  [AirspaceType.MTR]: "military",
  [AirspaceType.MRT]: "military",
  [AirspaceType.TFR]: "military",
  [AirspaceType.ALERT]: "danger",
  [AirspaceType.WARNING]: "danger",
  [AirspaceType.PROTECTED]: "restricted",
  [AirspaceType.OVERFLIGHT_RESTRICTION]: "restricted",
};

/** Palette key of an airspace by type, and by class for classified airspace of type 0 (Other). */
export function paletteKeyOf(type: number, icaoClass: number | undefined): PaletteKey {
  const byType = BY_TYPE[type];
  if (byType) return byType;
  if (icaoClass === undefined || icaoClass > 6) return "other";
  if (icaoClass <= 3) return "controlled";
  return icaoClass === 4 ? "classE" : "classFG";
}

/**
 * Opacity factors per activity: inactive airspaces fade but stay drawn (docs/contract.md §2.12), Unknown in between. Apart by
 * more than a shade: an inactive fill is a fifth of an active one (and `unknownActivity` marks Unknown besides).
 */
const FADE: Record<IsActive, { fill: number; line: number }> = {
  Yes: { fill: 1, line: 1 },
  Unknown: { fill: 0.6, line: 0.85 },
  No: { fill: 0.2, line: 0.35 },
};

const round2 = (x: number) => Math.round(x * 100) / 100;
const rgba = ([r, g, b]: PaletteEntry["rgb"], a: number) => `rgba(${r}, ${g}, ${b}, ${round2(a)})`;
/**
 * The colours of each palette key and activity, made once: a template's result is a chain of string pieces, and a
 * Europe-scale run held 48 000 features' two chains (24 MB) where a few dozen strings say the same.
 */
const colours = new Map<string, { fill: string; line: string }>();

export function styleFor(key: PaletteKey, isActive: IsActive): DynamicStyle {
  const p: PaletteEntry = PALETTE[key];
  const fade = FADE[isActive];
  const fillOpacity = round2(p.fillOpacity * fade.fill);
  const lineOpacity = round2(fade.line);
  const memo = `${key} ${isActive}`;
  let c = colours.get(memo);
  if (!c) {
    c = { fill: rgba(p.rgb, fillOpacity), line: rgba(p.rgb, lineOpacity) };
    colours.set(memo, c);
  }
  return {
    fillColor: c.fill,
    fillOpacity,
    lineColor: c.line,
    lineWidth: p.lineWidth,
    lineOpacity,
    lineDasharray: [...p.lineDasharray],
    // Unknown activity is marked so that clients can draw it apart from both Yes and No
    complexStyle: isActive === "Unknown" ? "unknownActivity" : null,
    priority: p.priority,
    Priority: p.priority,
    polygonPaintDirection: p.paint,
    PolygonPaintDirection: p.paint,
  };
}
