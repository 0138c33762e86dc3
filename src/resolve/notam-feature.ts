// NOTAMs not linked to an airspace become features of their own (docs/contract.md §2.3, §2.10; docs/design.md §4):
// R, V and obstacle NOTAMs as type 99 `graphicalNotam`; A and D NOTAMs as type 98 `airspace`.

import { bundledFirIndex } from "../geo/fir-index.js";
import type { Feature, FeatureProperties, VerticalLimit } from "../model/contract.js";
import { formatLimit, vendorType } from "../model/limits.js";
import { notamKey } from "../model/notam.js";
import { isoInstant } from "../model/time.js";
import type { ActivationType } from "../model/vocab.js";
import { AirspaceType } from "../model/vocab.js";
import { obstacleFacets } from "../notam/facets.js";
import type { NotamGeometry } from "../notam/geometry.js";
import { linkedNotam } from "./linked-notam.js";
import type { DayNotam } from "./notams.js";
import { activeAt, type NowWindow } from "./now-window.js";
import { type PaletteKey, styleFor } from "./style.js";

export type Variant = "production" | "development";

const GROUND: VerticalLimit = { value: 0, unit: 1, referenceDatum: 0 };
const UNLIMITED: VerticalLimit = { value: 999, unit: 6, referenceDatum: 2 };

const ROLE: Record<
  "R" | "V" | "A" | "D" | "obstacle",
  { type: number; activation: ActivationType; palette: PaletteKey }
> = {
  R: { type: AirspaceType.GRAPHICAL_NOTAM, activation: "isActiveRestrictiveNOTAM", palette: "restrictiveNotam" },
  V: { type: AirspaceType.GRAPHICAL_NOTAM, activation: "isActiveActivityNOTAM", palette: "activityNotam" },
  obstacle: { type: AirspaceType.GRAPHICAL_NOTAM, activation: "isOtherActiveAirspace", palette: "obstacleNotam" },
  A: { type: AirspaceType.NOTAM_AIRSPACE, activation: "isActiveAirspaceNOTAM", palette: "airspaceNotam" },
  D: { type: AirspaceType.NOTAM_AIRSPACE, activation: "isActiveAirspaceDeactivationNOTAM", palette: "airspaceNotam" },
};

/** What a NOTAM feature's state at another instant needs of its NOTAM (a resolved-ahead feature keeps only this). */
export type NotamTiming = Pick<DayNotam, "spans" | "kind" | "obstacle">;

const roleOf = (dn: NotamTiming) =>
  dn.kind === "R" || dn.kind === "V" || dn.kind === "A" || dn.kind === "D"
    ? ROLE[dn.kind]
    : dn.obstacle
      ? ROLE.obstacle
      : undefined;

export function notamFeature(
  dn: DayNotam,
  geometry: NotamGeometry,
  at: { now: number; window?: NowWindow },
  variant: Variant,
): Feature | undefined {
  const role = roleOf(dn);
  if (!role || !dn.country) return undefined;
  const { type, activation, palette } = role;
  const upper = dn.upper ?? UNLIMITED;
  const lower = dn.lower ?? GROUND;
  const isActive = activeAt(dn.spans, at);
  const intervals = dn.spans.map(([s, e]) => ({ start: isoInstant(s), end: isoInstant(e) }));
  const properties: FeatureProperties = {
    // one feature per NOTAM: notams.ts keeps the first reading of a NOTAM read twice
    _id: notamKey(dn.notam),
    name: nameOf(dn),
    type,
    featureCategory: type === AirspaceType.GRAPHICAL_NOTAM ? "graphicalNotam" : "airspace",
    country: dn.country,
    upperLimit: upper,
    lowerLimit: lower,
    vendor: {
      formattedUpperLimit: formatLimit(upper),
      formattedLowerLimit: formatLimit(lower),
      VendorType: vendorType(type),
      FIR_Ident: firOf(dn, geometry),
      dynamicAirspaceMapping: {
        isActive,
        activationType: activation,
        airspaceActivationTimes: intervals,
        dynamicScheduleAndVerticalLimits: intervals.map((i) => ({ ...i })),
        notams: [linkedNotam(dn, geometry)],
        aupuups: [],
        dynamicStyle: styleFor(palette, isActive),
      },
    },
    ...(variant === "production" ? obstacleFacets(dn.notam.itemE) : {}),
  };
  return { type: "Feature", properties, geometry: geometry.geometry };
}

/**
 * The feature that {@link notamFeature} made of `dn`, as it makes it at another instant: `now` enters it only
 * through `isActive` (and the style that follows it), so the rest is the same objects. A refresh resolves ~20 000
 * NOTAM features ahead; building each again (name, facets, FIR, linked record) was most of that time.
 */
export function notamFeatureAt(f: Feature, dn: NotamTiming, at: { now: number; window?: NowWindow }): Feature {
  const isActive = activeAt(dn.spans, at);
  const vendor = f.properties.vendor;
  const m = vendor.dynamicAirspaceMapping;
  if (m.isActive === isActive) return f;
  const role = roleOf(dn);
  if (!role) return f;
  const dynamicAirspaceMapping = { ...m, isActive, dynamicStyle: styleFor(role.palette, isActive) };
  return { ...f, properties: { ...f.properties, vendor: { ...vendor, dynamicAirspaceMapping } } };
}

/** The Q-line FIR; without one, the FIR holding most of the NOTAM's own area. */
function firOf(dn: DayNotam, geometry: NotamGeometry): string {
  const fir = dn.notam.q?.fir ?? "";
  if (/^[A-Z]{4}$/.test(fir)) return fir;
  const g = geometry.geometry;
  return bundledFirIndex().locate(g.type === "Polygon" ? [g.coordinates] : g.coordinates)?.fir.ident ?? "XXXX";
}

/** `A1234/26 EG D098D ACTIVATED …`: the id and the start of Item E, for labels. */
function nameOf(dn: DayNotam): string {
  const e = dn.notam.itemE.replace(/\s+/g, " ").trim();
  return `${dn.notam.id} ${e.length > 60 ? `${e.slice(0, 59)}…` : e}`.trim();
}
