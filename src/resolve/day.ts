// Resolve one UTC day: every normalised airspace gets its activity (with its linked NOTAMs) and becomes a
// Feature. Time is an argument (STYLE habit 8): the caller passes the day and `now`.
import type { Feature } from "../model/contract.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { ActivityContext } from "./activity.js";
import { airspaceDay } from "./airspace-activity.js";
import { airspaceFeature } from "./feature.js";
import type { DayNotam } from "./notams.js";

export function resolveDay(
  airspaces: readonly NormalizedAirspace[],
  ctx: ActivityContext,
  linked: ReadonlyMap<string, DayNotam[]> = new Map(),
): Feature[] {
  return airspaces.map((a) => airspaceFeature(a, airspaceDay(a, ctx, linked.get(a.id))));
}
