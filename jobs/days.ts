// Which days a scheduled run publishes (docs/design.md §8): today, and from 15:00 UTC tomorrow too. Shared by `run` and
// `replay`, so a replay publishes exactly what the scheduled job would have.
import { dayAfter, type UtcDay, utcDay } from "../src/model/time.js";
import { UsageError } from "./usage.js";

/** From this hour (UTC) of the day the scheduled job also publishes tomorrow: the EAUP for D+1 is out. */
export const TOMORROW_FROM_HOUR = 15;

export type TomorrowFlag = "auto" | "yes" | "no";

/** `--tomorrow`'s value, or `fallback` when it is not given; anything else is bad usage. */
export function tomorrowFlag(value: string | undefined, fallback: TomorrowFlag): TomorrowFlag {
  const flag = value ?? fallback;
  if (flag !== "auto" && flag !== "yes" && flag !== "no") {
    throw new UsageError(`--tomorrow takes auto, yes or no, got "${value}"`);
  }
  return flag;
}

/** The days a run at `now` publishes: `day`, and the day after it with `yes`, or with `auto` from 15:00 UTC. */
export function daysToPublish(day: UtcDay, now: number, flag: TomorrowFlag): UtcDay[] {
  const tomorrow = flag === "yes" || (flag === "auto" && now >= day.start + TOMORROW_FROM_HOUR * 3_600_000);
  return tomorrow ? [day, utcDay(dayAfter(day.date))!] : [day];
}
