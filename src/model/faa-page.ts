// The FAA NOTAM API's page envelope (`{pageSize, pageNum, totalCount, totalPages, items}`), read by both the
// fetcher that follows the pages (fetch/pages.ts) and the NOTAM reader of the joined answer (notam/faa-json.ts).
import { isRecord, tryJson } from "./json.js";

/** The page's own counts, for the fetcher's paging and its check that every page came whole. */
export interface FaaPage {
  pageNum?: number;
  totalPages?: number;
  totalCount?: number;
  items: unknown[];
}

/** The page counts of an answer, or why it is not one. */
export function faaPage(text: string): { ok: true; page: FaaPage } | { ok: false; reason: string } {
  const json = tryJson(text);
  if (!json.ok) return { ok: false, reason: json.reason };
  const v = json.value;
  if (!isRecord(v) || !Array.isArray(v.items)) return { ok: false, reason: "not an object with an items array" };
  const num = (k: string) => (typeof v[k] === "number" && Number.isInteger(v[k]) ? (v[k] as number) : undefined);
  const page: FaaPage = { items: v.items };
  for (const k of ["pageNum", "totalPages", "totalCount"] as const) {
    const n = num(k);
    if (n !== undefined) page[k] = n;
  }
  return { ok: true, page };
}
