// openAIP API v2 airspace items (`GET https://api.core.openaip.net/api/airspaces`) to airspace records.
// Accepts the paged answer `{"limit":…,"totalCount":…,"totalPages":…,"page":…,"items":[…]}`, a bare array of
// items, or JSON lines with one item per line. Each item carries its GeoJSON `geometry` inline.

import { z } from "zod";
import type { ReadResult } from "../model/airspace.js";
import { type Diagnostic, excerpt } from "../model/diagnostic.js";
import { tryJson } from "../model/json.js";
import { airspaceFromOpenAipItem } from "./openaip-item.js";
import { placeholderDiagnostics } from "./placeholder.js";

/** The paged envelope; the item schema is the shared one in openaip-item.ts. */
export const OpenAipPage = z.looseObject({
  limit: z.number().int().nonnegative().optional(),
  totalCount: z.number().int().nonnegative().optional(),
  totalPages: z.number().int().nonnegative().optional(),
  page: z.number().int().nonnegative().optional(),
  items: z.array(z.unknown()),
});
export type OpenAipPage = z.infer<typeof OpenAipPage>;

interface Entry {
  item: unknown;
  line?: number;
  /** Set when the line was not JSON: the reason, reported in place of the record. */
  broken?: { reason: string; raw: string };
}

/** Reads one API answer, array or JSON-lines text; never throws on bad input. */
export function readOpenAipApi(text: string, source: string): ReadResult {
  const diagnostics: Diagnostic[] = [];
  const body = text.replace(/^\uFEFF/, "");
  const whole = tryJson(body);
  let entries: Entry[];
  if (whole.ok && Array.isArray(whole.value)) {
    entries = whole.value.map((item) => ({ item }));
  } else if (whole.ok && typeof whole.value === "object" && whole.value !== null && "items" in whole.value) {
    const page = OpenAipPage.safeParse(whole.value);
    if (!page.success) {
      const issue = page.error.issues[0];
      const message = `paged answer invalid at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`;
      return { records: [], diagnostics: [{ code: "api.page.invalid", severity: "skipped", message, source }] };
    }
    entries = page.data.items.map((item) => ({ item }));
    const { page: number, totalPages, totalCount } = page.data;
    if (totalPages !== undefined && totalPages > 1) {
      diagnostics.push({
        code: "api.page.partial",
        severity: "warning",
        message: `page ${number ?? "?"} of ${totalPages} (totalCount ${totalCount ?? "?"}): only this page's ${entries.length} items read`,
        source,
      });
    }
  } else if (whole.ok && typeof whole.value === "object" && whole.value !== null) {
    entries = [{ item: whole.value, line: 1 }];
  } else if (whole.ok || !/^\s*\{/.test(body)) {
    const shown = whole.ok ? JSON.stringify(whole.value) : body;
    const reason = whole.ok ? "not an object, array or JSON lines" : whole.reason;
    const message = `not openAIP API JSON (${reason}): "${excerpt(shown ?? "", 40)}"`;
    return { records: [], diagnostics: [{ code: "api.malformed", severity: "skipped", message, source }] };
  } else {
    entries = [];
    for (const [index, raw] of body.split(/\r?\n/).entries()) {
      if (raw.trim() === "") continue;
      const parsed = tryJson(raw);
      if (parsed.ok) entries.push({ item: parsed.value, line: index + 1 });
      else entries.push({ item: undefined, line: index + 1, broken: { reason: parsed.reason, raw } });
    }
  }

  const records: ReadResult["records"] = [];
  for (const [record, { item, line, broken }] of entries.entries()) {
    if (broken) {
      const message = `line is not JSON (${broken.reason})`;
      const at = { source, record, ...(line === undefined ? {} : { line }) };
      diagnostics.push({
        code: "api.line.malformed",
        severity: "skipped",
        message,
        ...at,
        excerpt: excerpt(broken.raw),
      });
      continue;
    }
    const geometry = typeof item === "object" && item !== null ? (item as { geometry?: unknown }).geometry : undefined;
    const result = airspaceFromOpenAipItem(item, geometry, { source, record, ...(line === undefined ? {} : { line }) });
    if (result.record) records.push(result.record);
    diagnostics.push(...result.diagnostics);
  }
  diagnostics.push(
    ...placeholderDiagnostics(
      entries.map((e) => e.item),
      source,
    ),
  );
  return { records, diagnostics };
}
