// The resolve stage of a derivation: the airspaces of the countries asked for, each resolved for the day with its
// NOTAM and AUP links (and styled), beside the graphical NOTAMs of those countries; why each feature has its state.
import type { Feature } from "./model/contract.js";
import { type Explanation, notamExplanation } from "./model/explain.js";
import type { Logger } from "./model/logger.js";
import type { NormalizedAirspace } from "./normalize/airspace.js";
import { type PublishDayOptions, SelectionError } from "./options.js";
import type { Linked } from "./read-stage.js";
import { resolveDay } from "./resolve/day.js";
import type { NowWindow, Track } from "./resolve/now-window.js";

/** The airspaces of the countries asked for; a country none of the inputs holds is bad usage. */
export function selectCountries(
  airspaces: readonly NormalizedAirspace[],
  countries: readonly string[] | undefined,
): readonly NormalizedAirspace[] {
  if (!countries) return airspaces;
  const wanted = new Set(countries);
  const held = new Set(airspaces.map((a) => a.country));
  const absent = [...wanted].filter((c) => !held.has(c));
  if (absent.length > 0) {
    const have = [...held].sort().join(", ") || "none";
    throw new SelectionError(`--countries ${absent.join(",")}: no airspace of it in the inputs (they hold ${have})`);
  }
  return airspaces.filter((a) => wanted.has(a.country));
}

/** The selected airspaces resolved (with style) and the graphical NOTAMs of their countries; why each has its state. */
export function resolveStage(
  selected: readonly NormalizedAirspace[],
  linked: Linked,
  options: PublishDayOptions,
  run: { window: NowWindow; track?: Map<string, Track<Feature>>; log: Logger },
): { features: Feature[]; explanations: Map<string, Explanation> } {
  const { day, now, countries } = options;
  const { stage, aup } = linked;
  const wanted = countries ? new Set(countries) : undefined;
  const explanations = new Map<string, Explanation>();
  const links = {
    ...(stage ? { notams: stage.linked, unsure: stage.unsure } : {}),
    ...(aup ? { allocations: aup.linked } : {}),
    amcManaged: linked.amcManaged,
  };
  const features = [
    ...resolveDay(selected, { day, now, sources: linked.sources, window: run.window }, links, explanations, run.track),
    ...(stage?.features ?? []).filter((f) => !wanted || wanted.has(f.properties.country)),
  ];
  run.log.progress("resolve", features.length, features.length);
  // graphical NOTAMs explain themselves by their kind; stored too, so the origin answers for every feature
  for (const f of features)
    if (!explanations.has(f.properties._id)) explanations.set(f.properties._id, notamExplanation(f));
  return { features, explanations };
}
