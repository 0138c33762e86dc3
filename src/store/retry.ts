// Retries with exponential backoff and full jitter (each wait uniform in [0, min(maxMs, baseMs·2ⁿ))), so many
// clients throttled at once do not come back in step. Used around every S3 command (the SDK's own retries are off)
// and every source download (src/fetch/fetch-source.ts); concurrency is p-queue's.
// Kept by hand (issue 17 §3): the loop is 25 lines, where p-retry has no per-try timeout and only 1–2× jitter, and
// the S3/HTTP classification below would stay ours; tested against real failing servers (a fault proxy before
// s3rver in test/store/s3-store.test.ts, a loopback HTTP server answering 503 and hanging in test/cli/run-real).

export interface RetryOptions {
  /** Tries in all, the first included. @default 5 */
  attempts: number;
  /** Limit of one try, ms: its signal aborts then and the try fails with a TimeoutError. @default no limit */
  timeoutMs?: number;
  /** Ceiling of the first wait, ms; doubles with each retry. @default 100 */
  baseMs: number;
  /** Largest ceiling of a wait, ms. @default 5000 */
  maxMs: number;
  /** Uniform source in [0, 1) for the jitter. @default Math.random */
  random: () => number;
  /** Whether a failure is worth another try. @default isTransient */
  retryable: (err: unknown) => boolean;
  /** Waits between tries (tests pass one that records instead of sleeping). @default setTimeout */
  sleep: (ms: number) => Promise<void>;
  /** Told about each failure that will be retried, before the wait. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

const DEFAULTS: RetryOptions = {
  attempts: 5,
  baseMs: 100,
  maxMs: 5000,
  random: Math.random,
  retryable: (err) => isTransient(err),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A try that did not finish within `timeoutMs`; transient like any other timeout. */
export class AttemptTimeoutError extends Error {
  override readonly name = "TimeoutError";
  constructor(timeoutMs: number, cause: unknown) {
    super(`no complete answer within timeoutMs ${timeoutMs}`, { cause });
  }
}

/** Runs `fn(attempt, signal)` (attempt counts from 1) until it resolves, fails for good, or tries run out. */
export async function retry<T>(
  fn: (attempt: number, signal: AbortSignal) => Promise<T>,
  options: Partial<RetryOptions> = {},
): Promise<T> {
  const o: RetryOptions = { ...DEFAULTS, ...options };
  if (!Number.isInteger(o.attempts) || o.attempts < 1) {
    throw new RangeError(`retry option \`attempts\`: expected an integer >= 1, received ${o.attempts}`);
  }
  for (let attempt = 1; ; attempt++) {
    const signal = o.timeoutMs === undefined ? new AbortController().signal : AbortSignal.timeout(o.timeoutMs);
    try {
      try {
        return await fn(attempt, signal);
      } catch (err) {
        throw signal.aborted ? new AttemptTimeoutError(o.timeoutMs ?? 0, err) : err;
      }
    } catch (error) {
      if (attempt >= o.attempts || !o.retryable(error)) throw error;
      const delayMs = Math.floor(o.random() * Math.min(o.maxMs, o.baseMs * 2 ** (attempt - 1)));
      o.onRetry?.({ attempt, delayMs, error });
      await o.sleep(delayMs);
    }
  }
}

const TRANSIENT_NAMES = new Set([
  "TimeoutError",
  "SlowDown",
  "Throttling",
  "ThrottlingException",
  "TooManyRequestsException",
  "RequestTimeout",
  "RequestTimeoutException",
  "InternalError",
  "ServiceUnavailable",
]);
const TRANSIENT_CODES = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "ECONNREFUSED", "EAI_AGAIN"]);

/**
 * Throttling (429, SlowDown), server errors (5xx but 501 Not Implemented), dropped connections and timeouts.
 * Reads the SDK's `$metadata.httpStatusCode`, the error's `name` and Node's `code`, also one level into `cause`.
 */
export function isTransient(err: unknown, depth = 0): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const status = httpStatus(err);
  if (status !== undefined && (status === 429 || (status >= 500 && status !== 501))) return true;
  if (TRANSIENT_NAMES.has(errorName(err))) return true;
  if (typeof e.code === "string" && TRANSIENT_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && /socket hang up/i.test(e.message)) return true;
  return depth < 1 && isTransient(e.cause, depth + 1);
}

/** The HTTP status an AWS SDK error carries, if any. */
export function httpStatus(err: unknown): number | undefined {
  const s = (err as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return typeof s === "number" ? s : undefined;
}

/** The error's name (the S3 error code for SDK errors), or "". */
export function errorName(err: unknown): string {
  const n = (err as { name?: unknown } | null)?.name;
  return typeof n === "string" ? n : "";
}
