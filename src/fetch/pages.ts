// A paged API as one source (the FAA NOTAM API, sources config `paging: "faa"`): every page fetched (each tried
// again on transient failures like any download), checked, and joined into one answer the NOTAM reader takes. A page
// that fails, breaks off or does not read, or pages that do not add up to the answer's `totalCount`, refuse the whole
// answer: a NOTAM feed missing a page would read as "nothing activates these areas" (docs/design.md §4).
import { faaPage } from "../model/faa-page.js";
import type { SourceConfig } from "./config.js";
import { type Download, downloadRetried, type FetchDeps } from "./download.js";

/** More pages than this is a loop or a misconfigured page size, not a briefing. */
const MAX_PAGES = 500;
/** The FAA NOTAM API's largest page. */
const DEFAULT_PAGE_SIZE = "1000";

/** Every page of `source`, joined: `{pageSize, pageNum: 1, totalCount, totalPages: 1, items}`. */
export async function downloadPages(source: SourceConfig, deps: FetchDeps): Promise<Download> {
  const items: unknown[] = [];
  let first: (Download & { ok: true; status: 200 }) | undefined;
  let totalCount: number | undefined;
  let totalPages = 1;
  for (let k = 1; k <= totalPages; k++) {
    const url = new URL(source.url);
    if (!url.searchParams.has("pageSize")) url.searchParams.set("pageSize", DEFAULT_PAGE_SIZE);
    url.searchParams.set("pageNum", String(k));
    const got = await downloadRetried({ ...source, url: url.toString() }, deps, undefined);
    if (!got.ok) return { ...got, reason: `${got.reason} (page ${k})` };
    if (got.status !== 200) return { ok: false, reason: `http: ${got.status} to page ${k} of a paged answer` };
    const page = faaPage(got.bytes.toString("utf8"));
    if (!page.ok) return { ok: false, reason: `json: page ${k} is not an FAA NOTAM API answer (${page.reason})` };
    if (k === 1) {
      first = got;
      totalCount = page.page.totalCount;
      totalPages = Math.min(MAX_PAGES, Math.max(1, page.page.totalPages ?? 1));
    } else if (page.page.totalCount !== totalCount) {
      return { ok: false, reason: `incomplete: page ${k} counts ${page.page.totalCount} NOTAMs, page 1 ${totalCount}` };
    }
    items.push(...page.page.items);
  }
  if (totalCount !== undefined && items.length !== totalCount) {
    return { ok: false, reason: `incomplete: ${items.length} of ${totalCount} NOTAMs over ${totalPages} pages` };
  }
  const body = { pageSize: items.length, pageNum: 1, totalCount: items.length, totalPages: 1, items };
  const { etag: _, ...rest } = first!;
  return { ...rest, bytes: Buffer.from(JSON.stringify(body)) };
}
