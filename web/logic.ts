// What the map page decides, without the DOM: which features are active at a minute of the UTC day, whether
// limits meet an altitude band, which filters let a feature through, how to word limits and intervals. Tested
// in Node (test/web/logic.test.ts) and bundled into the page.
import type { Frequency, Feature as FullFeature, Interval, VerticalLimit } from "../src/model/contract.js";
import { type MapFeature, summaryOf } from "../src/origin/map-form.js";

export { feet, intervalsOf, isObstacle } from "../src/model/feature-facts.js";

/** What the page needs of a feature for its words: its properties (the geometry lives in the canvas's arrays). */
type Feature = Pick<FullFeature, "properties">;

/** What the page keeps of a feature while it is drawn, as the map form gives it (src/origin/map-form.ts). */
export type Summary = MapFeature;

/** The summary of a feature, as the origin's map form gives it; `country` names the collection it is in. */
export const summarize = (f: Feature, country = ""): Summary => ({ ...summaryOf(f), country });

export interface Filters {
  /** Airspace types shown; empty = all. */
  types: ReadonlySet<number>;
  /** Activation types shown; empty = all. */
  activationTypes: ReadonlySet<string>;
  /** Altitude band in feet (MSL, GND taken as 0). */
  bandFt: readonly [number, number];
  graphicalNotams: boolean;
  obstacles: boolean;
}

export const ALL: Filters = {
  types: new Set(),
  activationTypes: new Set(),
  bandFt: [0, 66_000],
  graphicalNotams: true,
  obstacles: true,
};

/** Whether [lower, upper] of the feature meets the band (touching counts). */
export function meetsBand(s: Summary, [lo, hi]: readonly [number, number]): boolean {
  return s.lowerFt <= hi && s.upperFt >= lo;
}

/** Whether the filters hide the feature altogether (a feature outside the band is faded, not hidden). */
export function hidden(s: Summary, filters: Filters): boolean {
  if (filters.types.size > 0 && !filters.types.has(s.type)) return true;
  if (filters.activationTypes.size > 0 && !filters.activationTypes.has(s.activationType)) return true;
  if (s.category === "graphicalNotam" && !filters.graphicalNotams) return true;
  if (s.obstacle && !filters.obstacles) return true;
  return false;
}

/**
 * An airspace whose answer is a default, not evidence (src/resolve/basis.ts): `isOtherActiveAirspace` is given by the
 * rows `other` (Yes: no activation rule applies), `hoursUnknown` and `conditionalUnknown` (Unknown), and by
 * `aipHoursMayExtend` when no fresh NOTAM source covers it (Unknown). Drawn apart from what evidence decided.
 */
export function byDefault(s: Pick<Summary, "category" | "activationType">): boolean {
  return s.category === "airspace" && s.activationType === "isOtherActiveAirspace";
}

/** Active at the instant: inside one of its intervals ([start, end)). */
export function activeAt(s: Summary, instant: number): boolean {
  const ms = s.intervals;
  for (let i = 0; i < ms.length; i += 2) if (ms[i]! <= instant && instant < ms[i + 1]!) return true;
  return false;
}

/** The schedule row in force at the instant, when it carries temporary limits. */
export function limitsAt(f: Feature, instant: number): { lower?: VerticalLimit; upper?: VerticalLimit } | undefined {
  const row = f.properties.vendor.dynamicAirspaceMapping.dynamicScheduleAndVerticalLimits.find(
    (r) => Date.parse(r.start) <= instant && instant < Date.parse(r.end),
  );
  if (!row || (!row.lowerLimit && !row.upperLimit)) return undefined;
  return { ...(row.lowerLimit ? { lower: row.lowerLimit } : {}), ...(row.upperLimit ? { upper: row.upperLimit } : {}) };
}

export function formatLimit(l: VerticalLimit): string {
  if (l.referenceDatum === 0 && l.value === 0) return "GND";
  if (l.unit === 6) return l.value >= 999 ? "UNL" : `FL${String(l.value).padStart(3, "0")}`;
  const unit = l.unit === 0 ? "m" : "ft";
  return `${l.value} ${unit} ${l.referenceDatum === 0 ? "AGL" : l.referenceDatum === 1 ? "MSL" : "STD"}`;
}

/** `06:00–22:00` (UTC), the whole day `00:00–24:00`; a bound outside the day is shown with its date. */
export function formatInterval(i: Interval, day: string): string {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const t = (iso: string, end: boolean) =>
    iso.slice(0, 10) === day
      ? iso.slice(11, 16)
      : end && iso.slice(0, 16) === `${next}T00:00`
        ? "24:00"
        : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  return `${t(i.start, false)}–${t(i.end, true)}`;
}

/** `3 d 19 h`, `42 min`, `just now`: how long ago, never in thousands of minutes and never negative. */
export function ago(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 1) return "just now";
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h${m % 60 ? ` ${m % 60} min` : ""} ago`;
  const d = Math.floor(h / 24);
  return `${d} d${h % 24 ? ` ${h % 24} h` : ""} ago`;
}

/** `Langen Information 128.950 MHz` (the primary first). */
export function formatFrequencies(list: readonly Frequency[] | undefined): string[] {
  return [...(list ?? [])]
    .sort((a, b) => Number(b.primary === true) - Number(a.primary === true))
    .map((f) => `${f.name ? `${f.name} ` : ""}${f.value}${f.unit === 2 ? " MHz" : f.unit === 1 ? " kHz" : ""}`);
}

/** The activation types of docs/contract.md §2.7 as a pilot says them (the activation filter; the raw name stays the value). */
export const ACTIVATION_WORDS: Record<string, string> = {
  isActivatedByNOTAMAirspace: "Activated by NOTAM",
  isActivatedByAUPAirspace: "Activated in the AUP/UUP",
  isActivatedByAUPAndNOTAMAirspace: "Activated in the AUP/UUP and by NOTAM",
  isActive: "Active by its published hours or its type",
  isNotActiveAirspace: "Not active: outside its hours, or nothing activates it",
  isOtherActiveAirspace: "May be active: no fresh source says, or no rule known",
  isActiveRestrictiveNOTAM: "Restrictive NOTAM (its own area)",
  isActiveActivityNOTAM: "Activity NOTAM: parachuting, gliding, drones, shows…",
  isActiveAirspaceNOTAM: "Airspace NOTAM for an area not on the map",
  isActiveAirspaceDeactivationNOTAM: "Deactivation NOTAM for an area not on the map",
};

/**
 * The activation status in words with its reason: `because` when the origin gave `explain`'s, else from what the
 * feature itself carries: the activation type (docs/contract.md §2.7), the NOTAMs and AUP rows linked to it.
 */
export function statusText(f: Feature, because?: string): string {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  const head = m.isActive === "Yes" ? "Active" : m.isActive === "No" ? "Not active" : "May be active";
  if (because) return `${head}: ${because}`;
  const ids = m.notams.map((n) => n.NotamId).join(", ");
  const aup = [...new Set(m.aupuups.map((a) => a.Designator))].join(", ");
  const why: Record<string, string> = {
    isActive: "by its published hours",
    isNotActiveAirspace: "activated only by NOTAM or AUP, and the fresh sources covering it say nothing for today",
    isActivatedByNOTAMAirspace: `activated by NOTAM ${ids}`,
    isActivatedByAUPAirspace: `allocated in the AUP/UUP (${aup})`,
    isActivatedByAUPAndNOTAMAirspace: `allocated in the AUP/UUP (${aup}) and activated by NOTAM ${ids}`,
    isActiveRestrictiveNOTAM: `restrictive NOTAM ${ids}`,
    isActiveActivityNOTAM: `activity NOTAM ${ids}`,
    isActiveAirspaceDeactivationNOTAM: `deactivated by NOTAM ${ids} for the times it gives`,
    isActiveAirspaceNOTAM: `airspace NOTAM ${ids}`,
    isOtherActiveAirspace:
      m.isActive === "Unknown"
        ? "a NOTAM or the AUP may activate it, and no fresh source covering it says whether"
        : "by default: nothing says when it is active (no AIP hours, NOTAM or AUP decides it); treat as active",
  };
  return `${head}: ${why[m.activationType] ?? m.activationType}`;
}

/** The minute of the UTC day as `HH:MM`. */
export const hhmm = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** Draw order: low priority first, so higher-priority airspaces lie on top. */
export const byPriority = (a: Summary, b: Summary): number => a.priority - b.priority;
