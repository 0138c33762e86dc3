// The last good copy of a source in the store (docs/design.md §5, `internal/…`): the body as fetched and a small
// meta document beside it. The body is written before the meta, so a meta always names a whole body; the
// body's SHA-256 is checked on every read, so a body without its meta (a crash between the two) is never used.
import { createHash } from "node:crypto";
import { z } from "zod";
import { tryJson } from "../model/json.js";
import { parseInstant } from "../model/time.js";
import type { ObjectStore } from "../store/store.js";

export const LAST_GOOD_SCHEMA = 1;

export const LastGoodMeta = z.object({
  schema: z.literal(LAST_GOOD_SCHEMA),
  /** When the copy was last confirmed current (a 200 or a 304), ISO 8601 UTC with milliseconds. */
  fetchedAt: z.string().refine((s) => parseInstant(s) !== undefined, "expected an ISO 8601 instant"),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
});
export type LastGoodMeta = z.infer<typeof LastGoodMeta>;

export const lastGoodKeys = (name: string) => ({
  body: `internal/sources/${name}/body`,
  meta: `internal/sources/${name}/meta.json`,
});

export type LastGood = { ok: true; meta: LastGoodMeta; fetchedAt: number } | { ok: false; why: string };

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The meta of the last good copy, when there is one and its body exists with the size the meta says. */
export async function readLastGood(store: ObjectStore, name: string): Promise<LastGood> {
  const keys = lastGoodKeys(name);
  const raw = await store.get(keys.meta);
  if (!raw) return { ok: false, why: `no ${keys.meta}` };
  const json = tryJson(raw.toString("utf8"));
  if (!json.ok) return { ok: false, why: `${keys.meta} is not JSON (${json.reason})` };
  const version = typeof json.value === "object" && json.value !== null ? Reflect.get(json.value, "schema") : undefined;
  if (version !== LAST_GOOD_SCHEMA) {
    return { ok: false, why: `${keys.meta}: schema ${JSON.stringify(version)} is not supported` };
  }
  const meta = LastGoodMeta.safeParse(json.value);
  if (!meta.success)
    return { ok: false, why: `${keys.meta} is not a last-good meta (${meta.error.issues[0]?.message})` };
  const head = await store.head(keys.body);
  if (head?.size !== meta.data.bytes) {
    return { ok: false, why: `${keys.body} ${head ? `has ${head.size} bytes, not ${meta.data.bytes}` : "is missing"}` };
  }
  return { ok: true, meta: meta.data, fetchedAt: parseInstant(meta.data.fetchedAt)! };
}

/** The body of the last good copy, or undefined when it is gone or is not the body the meta names. */
export async function readLastGoodBody(
  store: ObjectStore,
  name: string,
  meta: LastGoodMeta,
): Promise<Buffer | undefined> {
  const body = await store.get(lastGoodKeys(name).body);
  return body && sha256(body) === meta.sha256 ? body : undefined;
}

/**
 * Records a good fetch: the body first (only when its content changed), then the meta. A crash between the two
 * leaves a body whose hash the old meta does not match: it is ignored, never served under the wrong fetchedAt.
 */
export async function writeLastGood(
  store: ObjectStore,
  name: string,
  previous: LastGoodMeta | undefined,
  copy: { bytes: Buffer; fetchedAt: number; etag?: string | undefined; lastModified?: string | undefined },
): Promise<LastGoodMeta> {
  const keys = lastGoodKeys(name);
  const hash = sha256(copy.bytes);
  if (previous?.sha256 !== hash) await store.put(keys.body, copy.bytes, { contentType: "application/octet-stream" });
  const meta: LastGoodMeta = {
    schema: LAST_GOOD_SCHEMA,
    fetchedAt: new Date(copy.fetchedAt).toISOString(),
    ...(copy.etag !== undefined ? { etag: copy.etag } : {}),
    ...(copy.lastModified !== undefined ? { lastModified: copy.lastModified } : {}),
    sha256: hash,
    bytes: copy.bytes.length,
  };
  await store.put(keys.meta, Buffer.from(`${JSON.stringify(meta)}\n`), { contentType: "application/json" });
  return meta;
}
