// Small contract features for publish tests, built by the real resolver from hand-made airspaces.
import type { Feature } from "../../src/model/contract.js";
import { utcDay } from "../../src/model/time.js";
import type { NormalizedAirspace } from "../../src/normalize/airspace.js";
import { airspaceDay } from "../../src/resolve/airspace-activity.js";
import { airspaceFeature } from "../../src/resolve/feature.js";

export const DAY = utcDay("2026-09-14")!;

export function airspace(
  id: string,
  country: string,
  x: number,
  over: Partial<NormalizedAirspace> = {},
): NormalizedAirspace {
  return {
    id,
    name: `CTR ${id}`,
    type: 4,
    icaoClass: 3,
    country,
    fir: "EDGG",
    upperLimit: { value: 2500, unit: 1, referenceDatum: 1 },
    lowerLimit: { value: 0, unit: 1, referenceDatum: 0 },
    frequencies: [],
    byNotam: false,
    onDemand: false,
    onRequest: false,
    activeTimes: [],
    origin: { source: "test", record: 0 },
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [x, 50],
          [x + 0.1, 50],
          [x + 0.1, 50.1],
          [x, 50.1],
          [x, 50],
        ],
      ],
    },
    ...over,
  };
}

export function feature(id: string, country: string, x: number): Feature {
  const a = airspace(id, country, x);
  return airspaceFeature(a, airspaceDay(a, { day: DAY, now: DAY.start, sources: { notam: [], aup: [] } }));
}

export function byCountry(features: Feature[]): Map<string, { features: Feature[]; airspaceNotams: number }> {
  const m = new Map<string, { features: Feature[]; airspaceNotams: number }>();
  for (const f of features) {
    const b = m.get(f.properties.country) ?? { features: [], airspaceNotams: 0 };
    b.features.push(f);
    m.set(f.properties.country, b);
  }
  return m;
}
