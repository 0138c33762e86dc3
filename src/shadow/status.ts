// The diagnostics document `v1/status/master-features.json` (docs/design.md §5, docs/contract.md §3 and §4.2). Public: counts and
// fixed reason codes only, never feature ids, queue payloads, keys or error text.
import { z } from "zod";
import { IsoInstant } from "../model/contract.js";
import { isoInstant } from "../model/time.js";

export const STATUS_KEY = "v1/status/master-features.json";

/** Why the status is degraded: one fixed code per condition of docs/contract.md §3, in the table's order. */
export const REASONS = ["publishLag", "queueAge", "backlog", "bootstrap", "unresolvedFailures", "parity"] as const;
export type Reason = (typeof REASONS)[number];

/** docs/contract.md §3 thresholds; a value degrades when it is strictly above its threshold. */
export const THRESHOLDS = {
  /** Publication lag, seconds (30 minutes). */
  publishLagSeconds: 30 * 60,
  /** Age of the oldest queue message, seconds (15 minutes). */
  oldestMessageAgeSeconds: 15 * 60,
  /** Messages waiting in the queue. */
  backlog: 100,
} as const;

const Int = z.number().int().min(0);

export const StatusDocument = z.strictObject({
  status: z.enum(["healthy", "degraded"]),
  /** The version of the latest shadow manifest; null before the first one. */
  shadowManifestVersion: z.string().nullable(),
  /** When the version the shadow path follows was published. */
  publishedAt: IsoInstant,
  publishLagSeconds: Int,
  queue: z.strictObject({
    /** 0 when the queue is empty. */
    oldestMessageAgeSeconds: Int,
    backlog: Int,
    unresolvedFailures: Int,
    deadLetters: Int,
  }),
  bootstrap: z.strictObject({ state: z.enum(["incomplete", "complete", "failed"]), loaded: Int, total: Int }),
  parity: z.strictObject({ state: z.enum(["ok", "degraded"]), checked: Int, mismatched: Int }),
  reasons: z.array(z.enum(REASONS)),
});
export type StatusDocument = z.infer<typeof StatusDocument>;

export type BootstrapState = StatusDocument["bootstrap"]["state"];

/** What the status is computed from: plain counts and instants (epoch ms). */
export interface StatusInputs {
  shadowManifestVersion: string | null;
  /** Publication instant of the version followed, epoch ms. */
  publishedAt: number;
  queue: {
    /** `enqueuedAt` of the oldest waiting message, epoch ms; undefined when none waits. */
    oldestEnqueuedAt?: number;
    backlog: number;
    unresolvedFailures: number;
    deadLetters: number;
  };
  bootstrap: { state: BootstrapState; loaded: number; total: number };
  parity: { checked: number; mismatched: number };
}

const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));

/** Applies docs/contract.md §3: degraded when any one condition holds; `reasons` lists the conditions that do. */
export function statusOf(inputs: StatusInputs, now: number): StatusDocument {
  const publishLagSeconds = seconds(now - inputs.publishedAt);
  const { oldestEnqueuedAt, backlog, unresolvedFailures, deadLetters } = inputs.queue;
  const oldestMessageAgeSeconds = oldestEnqueuedAt === undefined ? 0 : seconds(now - oldestEnqueuedAt);
  const parityState = inputs.parity.mismatched > 0 ? "degraded" : "ok";
  const holds: Record<Reason, boolean> = {
    publishLag: publishLagSeconds > THRESHOLDS.publishLagSeconds,
    queueAge: oldestMessageAgeSeconds > THRESHOLDS.oldestMessageAgeSeconds,
    backlog: backlog > THRESHOLDS.backlog,
    bootstrap: inputs.bootstrap.state !== "complete",
    unresolvedFailures: unresolvedFailures > 0,
    parity: parityState === "degraded",
  };
  const reasons = REASONS.filter((r) => holds[r]);
  return {
    status: reasons.length > 0 ? "degraded" : "healthy",
    shadowManifestVersion: inputs.shadowManifestVersion,
    publishedAt: isoInstant(inputs.publishedAt),
    publishLagSeconds,
    queue: { oldestMessageAgeSeconds, backlog, unresolvedFailures, deadLetters },
    bootstrap: { ...inputs.bootstrap },
    parity: { state: parityState, ...inputs.parity },
    reasons,
  };
}
