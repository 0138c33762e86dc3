// Fetches one configured source with a last-known-good copy in the store (docs/design.md §4, §5).
// A transient failure (5xx, dropped connection, cut body) is tried again with backoff (the S3 store's retry helper).
// A good answer becomes the new last-good copy; a failed or broken one falls back to the last good copy,
// marked stale, so the resolver says `Unknown` instead of `No`. No last good copy: the run fails.
// fetch, the store and `now` are passed in: nothing here reads the clock or the environment.
import type { SourceConfig, SourceKind } from "./config.js";
import { type Download, downloadRetried, type FetchDeps } from "./download.js";
import { type LastGoodMeta, lastGoodKeys, readLastGood, readLastGoodBody, writeLastGood } from "./last-good.js";
import { downloadPages } from "./pages.js";

export type { FetchDeps } from "./download.js";

/** `download` (every page of a paged source), tried again on transient failures; the last failure is the answer. */
async function downloadSource(
  source: SourceConfig,
  deps: FetchDeps,
  previous: LastGoodMeta | undefined,
): Promise<Download> {
  if (source.paging === "faa") return downloadPages(source, deps);
  return downloadRetried(source, deps, previous);
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

export async function fetchSource(source: SourceConfig, deps: FetchDeps): Promise<FetchResult> {
  const lastGood = await readLastGood(deps.store, source.name);
  let previous = lastGood.ok ? lastGood.meta : undefined;
  let got = await downloadSource(source, deps, previous);
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
    got = await downloadSource(source, deps, undefined);
  }
  if (got.ok && got.status === 200) {
    await writeLastGood(deps.store, source.name, previous, got);
    // an API's answer (a paged source) is current when it is made: its HTTP Date stands for Last-Modified
    const modified = got.lastModified ?? (source.paging ? got.date : undefined);
    return result(source, deps.now, got.bytes, got.fetchedAt, "network", modified);
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
