// A normalised airspace and its activity for the day → one contract Feature, keys in a fixed order
// so that the serialised bytes (and so the content hashes) depend on content only.
import type { Feature, FeatureProperties, ScheduleRow } from "../model/contract.js";
import { formatLimit, vendorType } from "../model/limits.js";
import { isoInstant } from "../model/time.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { Activity } from "./activity.js";
import { paletteKeyOf, styleFor } from "./style.js";

export function airspaceFeature(a: NormalizedAirspace, activity: Activity): Feature {
  const intervals = activity.spans.map(([s, e]) => ({ start: isoInstant(s), end: isoInstant(e) }));
  const rows: ScheduleRow[] = intervals.map((i) => ({ start: i.start, end: i.end }));
  const properties: FeatureProperties = {
    _id: a.id,
    name: a.name,
    type: a.type,
    featureCategory: "airspace",
    icaoClass: a.icaoClass,
    country: a.country,
    upperLimit: a.upperLimit,
    lowerLimit: a.lowerLimit,
    ...(a.frequencies.length > 0 ? { frequencies: a.frequencies } : {}),
    ...(a.remarks ? { remarks: a.remarks } : {}),
    vendor: {
      formattedUpperLimit: formatLimit(a.upperLimit),
      formattedLowerLimit: formatLimit(a.lowerLimit),
      VendorType: vendorType(a.type),
      FIR_Ident: a.fir,
      dynamicAirspaceMapping: {
        isActive: activity.isActive,
        activationType: activity.activationType,
        airspaceActivationTimes: intervals,
        dynamicScheduleAndVerticalLimits: rows,
        notams: [],
        aupuups: [],
        dynamicStyle: styleFor(paletteKeyOf(a.type, a.icaoClass), activity.isActive),
      },
    },
  };
  return { type: "Feature", properties, geometry: a.geometry };
}
