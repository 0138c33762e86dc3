// "Active at my ETA between 2 000 and 4 500 ft" (docs/client.md): for a held feature, whether it is active at an
// instant and reaches into a vertical band, from its activation intervals and its limits (a schedule row's temporary
// limits where one covers the instant). `Unknown` stays unknown: the service could not say, and neither can we.
// Heights are compared in feet above mean sea level: flight levels as hundreds of feet (standard pressure taken as
// mean sea level), metres converted. A limit above ground is compared as if the ground were anywhere from sea level
// to 15 800 ft (the highest ground of Europe): a feature counts as reaching into the band when it may.

export interface Limit {
  value: number;
  /** 0 metres, 1 feet, 6 flight level. */
  unit: number;
  /** 0 ground, 1 mean sea level, 2 standard pressure. */
  referenceDatum: number;
}

export interface ActiveFeature {
  properties: {
    _id: string;
    upperLimit?: Limit | undefined;
    lowerLimit?: Limit | undefined;
    vendor?: {
      dynamicAirspaceMapping?: {
        isActive?: string;
        airspaceActivationTimes?: ReadonlyArray<{ start: string; end: string }>;
        dynamicScheduleAndVerticalLimits?: ReadonlyArray<{
          start: string;
          end: string;
          upperLimit?: Limit | undefined;
          lowerLimit?: Limit | undefined;
        }>;
      };
    };
  };
}

/** A vertical band in feet above mean sea level. */
export interface Band {
  lowerFt: number;
  upperFt: number;
}

export type Activity = "Yes" | "No" | "Unknown";

const HIGHEST_GROUND_FT = 15_800;
const FT_PER_M = 1 / 0.3048;

/** Whether `f` is active at `instant` (epoch ms), and within `band` when one is given. */
export function activeAt(f: ActiveFeature, instant: number, band?: Band): Activity {
  const mapping = f.properties.vendor?.dynamicAirspaceMapping;
  if (!mapping || mapping.isActive === "Unknown") return "Unknown";
  const covers = (i: { start: string; end: string }) => Date.parse(i.start) <= instant && instant < Date.parse(i.end);
  if (mapping.isActive !== "Yes" || !(mapping.airspaceActivationTimes ?? []).some(covers)) return "No";
  if (!band) return "Yes";
  const row = (mapping.dynamicScheduleAndVerticalLimits ?? []).find(covers);
  const lower = row?.lowerLimit ?? f.properties.lowerLimit;
  const upper = row?.upperLimit ?? f.properties.upperLimit;
  // a limit it does not state: the whole column
  const bottom = lower ? feet(lower).lowest : Number.NEGATIVE_INFINITY;
  const top = upper ? feet(upper).highest : Number.POSITIVE_INFINITY;
  return bottom < band.upperFt && top > band.lowerFt ? "Yes" : "No";
}

/** A limit in feet above mean sea level, as the lowest and highest it may be. */
function feet(l: Limit): { lowest: number; highest: number } {
  const ft = l.unit === 6 ? l.value * 100 : l.unit === 0 ? l.value * FT_PER_M : l.value;
  return l.referenceDatum === 0 ? { lowest: ft, highest: ft + HIGHEST_GROUND_FT } : { lowest: ft, highest: ft };
}
