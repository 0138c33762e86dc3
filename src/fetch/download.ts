// One answer of a configured source over HTTP: a GET with a per-request timeout and a size limit, conditional when a
// last good copy exists, checked whole (src/fetch/whole.ts), tried again with backoff on a transient failure (5xx, a
// dropped connection, a body cut off; the S3 store's retry helper). fetch and `now` are passed in.
import { type RetryOptions, retry } from "../store/retry.js";
import type { ObjectStore } from "../store/store.js";
import type { SourceConfig } from "./config.js";
import type { LastGoodMeta } from "./last-good.js";
import { notWhole } from "./whole.js";

export interface FetchDeps {
  fetch: typeof fetch;
  store: ObjectStore;
  /** The run's reference instant, epoch ms: the fetchedAt of a fresh answer and the base of freshness. */
  now: number;
  /** Tries and waits for transient failures (5xx, a dropped connection, a body cut off); tests shorten them. */
  retry?: Partial<Pick<RetryOptions, "attempts" | "baseMs" | "sleep">>;
}

/** A transient failure is tried again: three tries, waits up to 0.5 s then 1 s (full jitter, src/store/retry.ts). */
const RETRY = { attempts: 3, baseMs: 500 };
/** Server errors but 501, dropped or refused connections, bodies cut off: a later try may well succeed. */
const TRANSIENT = /^(http: HTTP 5(?!01)\d\d|network:|incomplete:)/;

class Transient extends Error {
  constructor(readonly failed: Download & { ok: false }) {
    super(failed.reason);
  }
}

export type Download =
  | { ok: true; status: 200; bytes: Buffer; etag?: string; lastModified?: string; date?: string; fetchedAt: number }
  | { ok: true; status: 304; etag?: string; lastModified?: string; fetchedAt: number }
  | { ok: false; reason: string; cause?: unknown };

/** `download`, tried again on transient failures; the last failure is the answer when the tries run out. */
export async function downloadRetried(source: SourceConfig, deps: FetchDeps, previous: LastGoodMeta | undefined) {
  try {
    return await retry(
      async () => {
        const got = await download(source, deps, previous);
        if (!got.ok && TRANSIENT.test(got.reason)) throw new Transient(got);
        return got;
      },
      { ...RETRY, ...deps.retry, retryable: (e) => e instanceof Transient },
    );
  } catch (e) {
    if (e instanceof Transient) return e.failed;
    throw e;
  }
}

/** One GET with a per-request timeout, reading at most maxBytes; conditional when a last good copy exists. */
async function download(source: SourceConfig, deps: FetchDeps, previous: LastGoodMeta | undefined): Promise<Download> {
  const headers = new Headers(source.headers ?? {});
  // the wire bytes, so Content-Length can be checked; an operator may ask for gzip in `headers`
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "identity");
  if (previous?.etag !== undefined) headers.set("if-none-match", previous.etag);
  if (previous?.lastModified !== undefined) headers.set("if-modified-since", previous.lastModified);
  const ms = source.timeoutMs;
  const signal = AbortSignal.timeout(ms);
  const failed = (e: unknown, what: string): Download => ({
    ok: false,
    reason: signal.aborted ? `timeout: no whole answer within ${ms} ms` : `${what} (${describe(e)})`,
    cause: e,
  });
  let response: Response;
  try {
    response = await deps.fetch(source.url, { headers, signal, redirect: "follow" });
  } catch (e) {
    return failed(e, "network: the request failed");
  }
  const fetchedAt = deps.now - ageMs(response.headers.get("age"));
  const validators = {
    ...optional("etag", response.headers.get("etag")),
    ...optional("lastModified", response.headers.get("last-modified")),
  };
  const answered = optional("date", response.headers.get("date"));
  if (response.status === 304 && previous) {
    await discard(response);
    return { ok: true, status: 304, fetchedAt, ...validators };
  }
  if (!response.ok) {
    await discard(response);
    return { ok: false, reason: `http: HTTP ${response.status} ${response.statusText}`.trimEnd() };
  }
  const encoded = (response.headers.get("content-encoding") ?? "identity").toLowerCase() !== "identity";
  const length = response.headers.get("content-length");
  const contentLength = !encoded && length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
  const tooLarge = `too-large: more than maxBytes ${source.maxBytes} bytes`;
  if (contentLength !== undefined && contentLength > source.maxBytes) {
    await discard(response);
    return { ok: false, reason: `${tooLarge} (Content-Length ${contentLength})` };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        total += r.value.byteLength;
        if (total > source.maxBytes) {
          await reader.cancel().catch(() => {});
          return { ok: false, reason: `${tooLarge}; stopped reading` };
        }
        chunks.push(r.value);
      }
    } catch (e) {
      return failed(e, `incomplete: the body broke off after ${total} bytes`);
    }
  }
  const bytes = Buffer.concat(chunks, total);
  const broken = await notWhole({
    bytes,
    contentLength,
    contentType: response.headers.get("content-type") ?? undefined,
    url: response.url || source.url,
  });
  if (broken) return { ok: false, reason: broken };
  return { ok: true, status: 200, bytes, fetchedAt, ...validators, ...answered };
}

/** `Age` (seconds an HTTP cache has held the answer) in ms; 0 when absent or malformed. */
const ageMs = (age: string | null) => (age !== null && /^\d+$/.test(age.trim()) ? Number(age.trim()) * 1000 : 0);

const optional = <K extends string>(key: K, value: string | null) =>
  (value === null ? {} : { [key]: value }) as { [P in K]?: string };

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9`: undici puts the useful part in `cause`. */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? e.cause.message : undefined;
  return cause && cause !== e.message ? `${e.message}: ${cause}` : e.message;
}
