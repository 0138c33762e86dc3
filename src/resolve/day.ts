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
  const memo = track ? resolvedBefore(ctx) : undefined;
  const features = airspaces.map((a) => {
    if (!track || !memo) {
      const r = resolveOne(ctx, inputOf(a, links, false));
      explanations?.set(a.id, r.explanation);
      return r.feature;
    }
    const input = inputOf(a, links, true);
    const was = memo.before?.get(a.id);
    const r = was && sameInput(was.input, input) && was.timed.window.holds(ctx.now) ? was : tracked(ctx, input);
    memo.now.set(a.id, r);
    ctx.window?.merge(r.timed.window);
    track.set(a.id, { window: r.timed.window, at: r.at });
    explanations?.set(a.id, r.timed.explanation);
    return r.timed.feature;
  });
  memo?.keep();
  return features;
}

/** What an airspace is resolved from besides the context: itself and its links. */
interface Input {
  a: NormalizedAirspace;
  notams: readonly DayNotam[] | undefined;
  unsure: readonly DayNotam[] | undefined;
  allocations: readonly DayAllocation[] | undefined;
  /** The allocations as JSON (made again by every reading of the plans). */
  allocationsJson: string;
  amcManaged: boolean;
}

/** An airspace resolved at one instant, and how to resolve it at another. */
interface Resolved {
  input: Input;
  timed: Timed<Feature>;
  at: Track<Feature>["at"];
}

function inputOf(a: NormalizedAirspace, links: DayLinks, compared: boolean): Input {
  const allocations = links.allocations?.get(a.id);
  return {
    a,
    notams: links.notams?.get(a.id),
    unsure: links.unsure?.get(a.id),
    allocations,
    allocationsJson: compared && allocations ? JSON.stringify(allocations) : "",
    amcManaged: links.amcManaged?.has(a.id) ?? false,
  };
}

/** The same airspace object with the same NOTAM objects (resolve/notams.ts keeps them) and allocations. */
function sameInput(x: Input, y: Input): boolean {
  const same = (p: readonly DayNotam[] | undefined, q: readonly DayNotam[] | undefined) =>
    p === q || (p !== undefined && q !== undefined && p.length === q.length && p.every((n, i) => n === q[i]));
  return (
    x.a === y.a &&
    same(x.notams, y.notams) &&
    same(x.unsure, y.unsure) &&
    x.allocationsJson === y.allocationsJson &&
    x.amcManaged === y.amcManaged
  );
}

/** Resolved now, with how to resolve it later (from its own inputs only: the day's links need not live on). */
function tracked(ctx: ActivityContext, input: Input): Resolved {
  const { day, sources } = ctx;
  const at = (now: number): Timed<Feature> => {
    const window = new NowWindow(now);
    return { ...resolveOne({ day, sources, now, window }, input), window };
  };
  return { input, timed: at(ctx.now), at };
}

/**
 * The airspaces this process resolved last in the same context (day and sources' standing), by id: `watch` resolves
 * 20 000 again for one changed NOTAM, and an airspace whose inputs are the same objects gives the same feature while
 * `now` stays in its window (the features then encode from memory, publish/artifacts.ts). A few contexts are kept:
 * a derivation resolves the public tier and the internal one (no sources) in turn.
 */
const lastResolved = new Map<string, ReadonlyMap<string, Resolved>>();
const CONTEXTS = 4;

function resolvedBefore(ctx: ActivityContext): {
  before: ReadonlyMap<string, Resolved> | undefined;
  now: Map<string, Resolved>;
  keep(): void;
} {
  const key = JSON.stringify([ctx.day.start, ctx.day.end, ctx.sources]);
  const before = lastResolved.get(key);
  const now = new Map<string, Resolved>();
  return {
    before,
    now,
    keep() {
      lastResolved.delete(key);
      lastResolved.set(key, now);
      for (const k of lastResolved.keys()) if (lastResolved.size > CONTEXTS) lastResolved.delete(k);
    },
  };
}

function resolveOne(ctx: ActivityContext, input: Input): { feature: Feature; explanation: Explanation } {
  const { a, notams, unsure, allocations, amcManaged } = input;
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
