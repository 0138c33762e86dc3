// The explanations of one published version (src/resolve/explain.ts) in the store's internal part:
// `internal/explain/<version>.json.gz`, written once after the version (an unchanged re-run finds it there), read
// by `explain`, collected with its version by retention. Never public.
import { gunzipSync, gzipSync } from "node:zlib";
import { EXPLAIN_SCHEMA, ExplainDocument } from "../model/explain.js";
import type { ObjectStore } from "./store.js";

export const explainKey = (version: string) => `internal/explain/${version}.json.gz`;

export async function writeExplanations(store: ObjectStore, doc: ExplainDocument): Promise<void> {
  const key = explainKey(doc.version);
  if (await store.head(key)) return;
  await store.put(key, gzipSync(Buffer.from(JSON.stringify(doc))), {
    contentType: "application/json",
    contentEncoding: "gzip",
    cacheControl: "no-store",
  });
}

/** The explanations of a version, or undefined when none were stored (versions published before issue 15). */
export async function readExplanations(store: ObjectStore, version: string): Promise<ExplainDocument | undefined> {
  const bytes = await store.get(explainKey(version));
  if (!bytes) return undefined;
  const json: unknown = JSON.parse(gunzipSync(bytes).toString("utf8"));
  const schema = typeof json === "object" && json !== null && "schema" in json ? json.schema : undefined;
  if (schema !== EXPLAIN_SCHEMA)
    throw new Error(`${explainKey(version)}: schema ${JSON.stringify(schema)} is not supported`);
  return ExplainDocument.parse(json);
}
