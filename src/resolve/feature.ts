// A normalised airspace and its activity for the day → one contract Feature, keys in a fixed order
// so that the serialised bytes (and so the content hashes) depend on content only.
import type { Feature, FeatureProperties } from "../model/contract.js";
import { formatLimit, vendorType } from "../model/limits.js";
import { isoInstant } from "../model/time.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { AirspaceDay } from "./airspace-activity.js";
import { paletteKeyOf, styleFor } from "./style.js";

export function airspaceFeature(a: NormalizedAirspace, day: AirspaceDay): Feature {
  const { activity } = day;
  const intervals = day.intervals.map(([s, e]) => ({ start: isoInstant(s), end: isoInstant(e) }));
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
        dynamicScheduleAndVerticalLimits: day.rows,
        notams: day.notams,
        aupuups: day.aupuups,
        dynamicStyle: styleFor(paletteKeyOf(a.type, a.icaoClass), activity.isActive),
      },
    },
  };
  return { type: "Feature", properties, geometry: a.geometry };
}
