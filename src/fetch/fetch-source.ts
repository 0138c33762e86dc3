// Fetches one configured source with a last-known-good copy in the store (DESIGN §4, §5).
// A transient failure (5xx, dropped connection, cut body) is tried again with backoff (the S3 store's retry helper).
// A good answer becomes the new last-good copy; a failed or broken one falls back to the last good copy,
// marked stale, so the resolver says `Unknown` instead of `No`. No last good copy: the run fails.
// fetch, the store and `now` are passed in: nothing here reads the clock or the environment.
import { type RetryOptions, retry } from "../publish/retry.js";
import type { ObjectStore } from "../publish/store.js";
import type { SourceConfig, SourceKind } from "./config.js";
import { type LastGoodMeta, lastGoodKeys, readLastGood, readLastGoodBody, writeLastGood } from "./last-good.js";
import { notWhole } from "./whole.js";

export interface FetchDeps {
  fetch: typeof fetch;
  store: ObjectStore;
  /** The run's reference instant, epoch ms: the fetchedAt of a fresh answer and the base of freshness. */
  now: number;
  /** Tries and waits for transient failures (5xx, a dropped connection, a body cut off); tests shorten them. */
  retry?: Partial<Pick<RetryOptions, "attempts" | "baseMs" | "sleep">>;
}

/** A transient failure is tried again: three tries, waits up to 0.5 s then 1 s (full jitter, src/publish/retry.ts). */
const RETRY = { attempts: 3, baseMs: 500 };
/** Server errors but 501, dropped or refused connections, bodies cut off: a later try may well succeed. */
const TRANSIENT = /^(http: HTTP 5(?!01)\d\d|network:|incomplete:)/;

class Transient extends Error {
  constructor(readonly failed: Download & { ok: false }) {
    super(failed.reason);
  }
}

/** `download`, tried again on transient failures; the last failure is the answer when the tries run out. */
async function downloadWithRetry(source: SourceConfig, deps: FetchDeps, previous: LastGoodMeta | undefined) {
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

export interface FetchResult {
  name: string;
  kind: SourceKind;
  bytes: Buffer;
  /** When the bytes were last confirmed current, epoch ms (a fallback keeps its original instant). */
  fetchedAt: number;
  /** The answer's Last-Modified, epoch ms: what the server says of its content's age (an as-of time for formats
   * that carry none in their content). Absent when the server does not say. */
  lastModified?: number;
  /** A fallback, or a copy older than `maxAgeMinutes` at `now`. */
  stale: boolean;
  /** `network`: a 200; `notModified`: a 304 confirmed the last good copy; `lastGood`: the fetch failed. */
  from: "network" | "notModified" | "lastGood";
  /** Why the copy is stale: `<code>: <explanation>` (timeout, network, http, too-large, incomplete, empty, gzip, json, age). */
  reason?: string;
}

/** The fetch failed and there is no usable last good copy: the run cannot go on with this source. */
export class SourceFetchError extends Error {
  override readonly name = "SourceFetchError";
  constructor(
    readonly source: string,
    readonly reason: string,
    options: { cause?: unknown },
  ) {
    super(`source "${source}": ${reason}; no last good copy to fall back on`, options);
  }
}

type Download =
  | { ok: true; status: 200; bytes: Buffer; etag?: string; lastModified?: string; fetchedAt: number }
  | { ok: true; status: 304; etag?: string; lastModified?: string; fetchedAt: number }
  | { ok: false; reason: string; cause?: unknown };

export async function fetchSource(source: SourceConfig, deps: FetchDeps): Promise<FetchResult> {
  const lastGood = await readLastGood(deps.store, source.name);
  let previous = lastGood.ok ? lastGood.meta : undefined;
  let got = await downloadWithRetry(source, deps, previous);
  if (got.ok && got.status === 304 && previous) {
    const body = await readLastGoodBody(deps.store, source.name, previous);
    if (body) {
      await writeLastGood(deps.store, source.name, previous, {
        bytes: body,
        fetchedAt: got.fetchedAt,
        etag: got.etag ?? previous.etag,
        lastModified: got.lastModified ?? previous.lastModified,
      });
      return result(source, deps.now, body, got.fetchedAt, "notModified", got.lastModified ?? previous.lastModified);
    }
    // the server has what we had, but our copy is gone or damaged: ask again for the whole body
    previous = undefined;
    got = await downloadWithRetry(source, deps, undefined);
  }
  if (got.ok && got.status === 200) {
    await writeLastGood(deps.store, source.name, previous, got);
    return result(source, deps.now, got.bytes, got.fetchedAt, "network", got.lastModified);
  }
  const reason = got.ok ? "http: 304 Not Modified to a request that was not conditional" : got.reason;
  const cause = got.ok ? {} : { cause: got.cause };
  if (!lastGood.ok) throw new SourceFetchError(source.name, `${reason} (${lastGood.why})`, cause);
  const body = await readLastGoodBody(deps.store, source.name, lastGood.meta);
  if (!body) {
    const why = `${lastGoodKeys(source.name).body} is not the body its meta names`;
    throw new SourceFetchError(source.name, `${reason} (${why})`, cause);
  }
  const { name, kind } = source;
  return { name, kind, bytes: body, fetchedAt: lastGood.fetchedAt, stale: true, from: "lastGood", reason };
}

function result(
  source: SourceConfig,
  now: number,
  bytes: Buffer,
  fetchedAt: number,
  from: "network" | "notModified",
  lastModified: string | undefined,
): FetchResult {
  const ageMinutes = (now - fetchedAt) / 60_000;
  const modified = lastModified === undefined ? Number.NaN : Date.parse(lastModified);
  const out: FetchResult = {
    name: source.name,
    kind: source.kind,
    bytes,
    fetchedAt,
    ...(Number.isNaN(modified) ? {} : { lastModified: modified }),
    stale: false,
    from,
  };
  if (ageMinutes <= source.maxAgeMinutes) return out;
  // an HTTP cache in front of the source may answer with a copy it has held for a while (the Age header)
  const reason = `age: the copy is ${Math.round(ageMinutes)} min old, more than maxAgeMinutes ${source.maxAgeMinutes}`;
  return { ...out, stale: true, reason };
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
  return { ok: true, status: 200, bytes, fetchedAt, ...validators };
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
