// Resolve one UTC day: every normalised airspace gets its activity and becomes a Feature.
// Time is an argument (STYLE habit 8): the caller passes the day and `now`.
import type { Feature } from "../model/contract.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import { type ActivityContext, baseActivity } from "./activity.js";
import { airspaceFeature } from "./feature.js";

export function resolveDay(airspaces: readonly NormalizedAirspace[], ctx: ActivityContext): Feature[] {
  return airspaces.map((a) => airspaceFeature(a, baseActivity(a, ctx)));
}
