// The publication pipeline for one UTC day, in stage order (docs/design.md §1):
// ingest → normalise → link NOTAMs and AUP → resolve → validate → publish. Inputs are bytes and plain
// values; the entry points in jobs/ read files, the clock and the environment. The stages themselves are in
// derive.ts, loaded only when a run derives: a run that publishes an earlier one again (src/refresh.ts) does
// not load the readers, geodesy and resolver (a tenth of a Europe-scale refresh's start).
import { dayKey } from "./day-cache.js";
import { type AirspaceInput, type Deps, type PublishDayOptions, TWO_HOURS } from "./options.js";
import { StageCache } from "./publish/stage-cache.js";
import { publishAgain, reusable } from "./refresh.js";
import type { RunReport } from "./report.js";

/**
 * One day's publication as a chain of stages (issue 24): read → normalise → link → resolve (with style) →
 * validate and serialise per country → upload. With `deps.codeVersion` each stage reuses what an earlier run
 * derived from the same input: a source's reading, a country's objects, or, when nothing changed but `now`, the
 * whole run (src/refresh.ts). Every published byte is what the full derivation gives.
 */
export async function publishDay(
  inputs: readonly AirspaceInput[],
  options: PublishDayOptions,
  deps: Deps,
): Promise<RunReport> {
  const cache = deps.codeVersion ? new StageCache(deps.store, deps.codeVersion) : undefined;
  const maxAge = options.maxSourceAgeMs ?? TWO_HOURS;
  const key = cache ? dayKey(cache, inputs, options) : undefined;
  try {
    if (cache && key) {
      const found = await reusable(cache, deps.store, key, inputs, options, maxAge);
      if (!("miss" in found)) return await publishAgain(found, options, deps, cache, key);
      deps.log.info("derived", { why: found.miss });
    }
    const { derive } = await import("./derive.js");
    return await derive(inputs, options, deps, cache, key);
  } finally {
    // the stage cache's writes go on beside the run: none outlives it
    await cache?.settled();
  }
}
