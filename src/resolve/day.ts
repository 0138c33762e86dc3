// Resolve one UTC day: every normalised airspace gets its activity (with its linked NOTAMs) and becomes a
// Feature. Time is an argument (STYLE habit 8): the caller passes the day and `now`.
import type { Feature } from "../model/contract.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { ActivityContext } from "./activity.js";
import { airspaceDay } from "./airspace-activity.js";
import type { DayAllocation } from "./aup.js";
import { airspaceFeature } from "./feature.js";
import type { DayNotam } from "./notams.js";

export interface DayLinks {
  notams?: ReadonlyMap<string, DayNotam[]>;
  allocations?: ReadonlyMap<string, DayAllocation[]>;
  /** Ids of airspaces whose designator appears in the AUP data. */
  amcManaged?: ReadonlySet<string>;
}

export function resolveDay(
  airspaces: readonly NormalizedAirspace[],
  ctx: ActivityContext,
  links: DayLinks = {},
): Feature[] {
  return airspaces.map((a) => {
    const notams = links.notams?.get(a.id);
    const allocations = links.allocations?.get(a.id);
    const day = airspaceDay(a, ctx, {
      ...(notams ? { notams } : {}),
      ...(allocations ? { allocations } : {}),
      amcManaged: links.amcManaged?.has(a.id) ?? false,
    });
    return airspaceFeature(a, day);
  });
}
