// One run of the publisher, as `publish`, `run` and `replay` make it (the commands only parse their flags and read
// their inputs): publish each day asked for, then the shadow path follows the version just published (so the
// origin's status document and the map page never answer 503), the map page's files are written beside the data,
// and retention runs at the run's `now` (a past day published keeps what it would have).
import { hostname } from "node:os";
import type { Logger } from "../src/model/logger.js";
import type { AirspaceInput, PublishDayOptions } from "../src/options.js";
import { publishDay } from "../src/pipeline.js";
import { collectGarbage } from "../src/publish/retention.js";
import type { RunReport } from "../src/report.js";
import { type Holder, type LeaseGuard, takePublisherLease } from "../src/store/publisher-lease.js";
import type { ObjectStore } from "../src/store/store.js";
import { codeVersion } from "./code-version.js";
import { followShadow } from "./shadow-step.js";
import { publishMapPage } from "./web-assets.js";

export interface RunDay {
  inputs: readonly AirspaceInput[];
  options: PublishDayOptions;
}

export interface RunPlan {
  store: ObjectStore;
  log: Logger;
  /** The run's clock (a replay's is the snapshot's instant). */
  clock: () => number;
  /** The machine's clock, which the store's publisher lease expires by. @default Date.now */
  wall?: () => number;
  /** The run's instant: retention ages versions from it. */
  now: number;
  /** The days to publish, in order (today first), each with its inputs. */
  days: readonly [RunDay, ...RunDay[]];
  /** How long whole versions and the record are kept, ms (`--retention-days`, `--record-days`). */
  retention: { keepMs: number; recordMs: number };
  /** The command, for the store's publisher lease: another publisher learns who holds the store. */
  command: string;
}

/**
 * Publishes the plan's days, then the shadow step, the map page and retention; the days' reports in order. The whole
 * run holds the store's publisher lease: `PublisherBusy` (naming the holder) while another publisher has it.
 */
export async function publishRun(plan: RunPlan): Promise<[RunReport, ...RunReport[]]> {
  const host = hostname();
  const wall = plan.wall ?? Date.now;
  const who = `${plan.command} on ${host}, pid ${process.pid}, since ${new Date(wall()).toISOString()}`;
  const lease = await takePublisherLease(plan.store, { who, host, pid: process.pid, clock: wall, gone });
  // both instants lie inside the hold (on the machine's clock): two publishers' spans never overlap
  const heldFrom = new Date().toISOString();
  try {
    return await publishHeld(plan, lease);
  } finally {
    const heldTo = new Date().toISOString();
    await lease.release();
    plan.log.info("publisher lease released", { heldFrom, heldTo });
  }
}

/** A holder on this machine whose process no longer runs (killed): its lease is taken over at once. */
function gone(holder: Holder): boolean {
  if (holder.host !== hostname() || holder.pid === undefined || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function publishHeld(plan: RunPlan, lease: LeaseGuard): Promise<[RunReport, ...RunReport[]]> {
  const { store, log, clock, now, retention } = plan;
  const deps = { store, log, lease, codeVersion: codeVersion() };
  const [first, ...later] = plan.days;
  const reports: [RunReport, ...RunReport[]] = [await publishDay(first.inputs, first.options, deps)];
  for (const { inputs, options } of later) reports.push(await publishDay(inputs, options, deps));
  await followShadow(store, log, clock);
  const page = await publishMapPage(store);
  if (page.length > 0) log.info("map page", { written: page.join(",") });
  const gc = await collectGarbage(store, { now, ...retention });
  const staticTier = plan.days.some((d) => d.options.staticTier);
  const gcStatic = staticTier ? await collectGarbage(store, { now, ...retention, tier: "static" }) : undefined;
  log.info("retention", { ...gc, ...(gcStatic ? { staticVersionsDeleted: gcStatic.versionsDeleted } : {}) });
  return reports;
}
