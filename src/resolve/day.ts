// Resolve one UTC day: every normalised airspace gets its activity (with its linked NOTAMs) and becomes a
// Feature. Time is an argument (STYLE habit 8): the caller passes the day and `now`.
import type { Feature } from "../model/contract.js";
import type { Explanation } from "../model/explain.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { ActivityContext } from "./activity.js";
import { airspaceDay } from "./airspace-activity.js";
import type { DayAllocation } from "./aup.js";
import { explainActivity } from "./explain.js";
import { airspaceFeature } from "./feature.js";
import type { DayNotam } from "./notams.js";
import { NowWindow, type Timed, type Track } from "./now-window.js";

export interface DayLinks {
  notams?: ReadonlyMap<string, DayNotam[]>;
  /** Activation NOTAMs naming an airspace's area, not certainly the airspace itself. */
  unsure?: ReadonlyMap<string, DayNotam[]>;
  allocations?: ReadonlyMap<string, DayAllocation[]>;
  /** Ids of airspaces whose designator appears in the AUP data. */
  amcManaged?: ReadonlySet<string>;
}

/**
 * `explanations`, when given, receives why each airspace has its state (for `explain`); `track`, when given, how
 * each was resolved, with its own window of `now` (merged into `ctx.window` too).
 */
export function resolveDay(
  airspaces: readonly NormalizedAirspace[],
  ctx: ActivityContext,
  links: DayLinks = {},
  explanations?: Map<string, Explanation>,
  track?: Map<string, Track<Feature>>,
): Feature[] {
  return airspaces.map((a) => {
    if (!track) {
      const r = resolveOne(a, ctx, links);
      explanations?.set(a.id, r.explanation);
      return r.feature;
    }
    const at = (now: number): Timed<Feature> => {
      const window = new NowWindow(now);
      return { ...resolveOne(a, { ...ctx, now, window }, links), window };
    };
    const r = at(ctx.now);
    ctx.window?.merge(r.window);
    track.set(a.id, { window: r.window, at });
    explanations?.set(a.id, r.explanation);
    return r.feature;
  });
}

function resolveOne(
  a: NormalizedAirspace,
  ctx: ActivityContext,
  links: DayLinks,
): { feature: Feature; explanation: Explanation } {
  const notams = links.notams?.get(a.id);
  const unsure = links.unsure?.get(a.id);
  const allocations = links.allocations?.get(a.id);
  const amcManaged = links.amcManaged?.has(a.id) ?? false;
  const day = airspaceDay(a, ctx, {
    ...(notams ? { notams } : {}),
    ...(unsure ? { unsure } : {}),
    ...(allocations ? { allocations } : {}),
    amcManaged,
  });
  const explanation = explainActivity(a, day.activity, {
    notams: [...day.notams.map((n) => n.NotamId), ...(day.activity.reasons ?? [])],
    aup: day.aupuups.map((x) => `${x.Designator} ${x.StartDT}–${x.EndDT}`),
    amcManaged,
  });
  return { feature: airspaceFeature(a, day), explanation };
}
