// The shadow manifest (docs/design.md §5): which hash of each feature's dynamic part the master features hold. It is split by
// country (issue 24): a head, `internal/shadow/manifest.json`, names each country's part, an object of id → hash
// whose key carries its content's SHA-256; a run reads the parts of the countries it reads, writes those that
// changed, and rewrites only the head (~5 KB at Europe scale, against 5.4 MB for the one manifest before). The head
// is the commit point: parts are written first, and those it no longer names deleted after it.
// A store written before the split holds one manifest with every feature's hash: it is read as one part, `legacy`,
// and the run writes the parts by country.
import { createHash } from "node:crypto";
import { z } from "zod";
import { IsoInstant } from "../model/contract.js";
import { isRecord } from "../model/json.js";
import { parseVersioned } from "../model/manifest.js";
import type { ObjectStore } from "../store/store.js";

export const SHADOW_MANIFEST_KEY = "internal/shadow/manifest.json";
export const PARTS_PREFIX = "internal/shadow/parts/";
const SCHEMA = 1;
const SHA256 = /^[0-9a-f]{64}$/;
const Sha256 = z.string().regex(SHA256);
/** The part of a store written before the split. */
export const LEGACY_PART = "legacy";

export const ShadowPart = z.strictObject({
  /** The part's object: `internal/shadow/parts/<label>.<16 hex digits of its SHA-256>.json`. */
  key: z.string().startsWith(PARTS_PREFIX),
  /** Ids it holds. */
  count: z.number().int().nonnegative(),
  /**
   * The published collection's SHA-256 whose features the part holds, every one in step: written only when no
   * message waited and parity held, so that a later run can carry a country whose collection has the same SHA-256
   * without reading it or its part (shadow/follow.ts).
   */
  collection: Sha256.optional(),
});
export type ShadowPart = z.infer<typeof ShadowPart>;

export const ShadowManifest = z.strictObject({
  schema: z.literal(SCHEMA),
  /** The published version this shadow state follows. */
  version: z.string(),
  builtAt: IsoInstant,
  /** Country → its part. */
  parts: z.record(z.string().regex(/^[A-Za-z]+$/), ShadowPart),
});
export type ShadowManifest = z.infer<typeof ShadowManifest>;

/** The shadow state as a run finds it: the head, and the parts a store before the split holds in its manifest. */
export interface PriorShadow {
  head: ShadowManifest;
  /** Parts held in the head itself (a store before the split), by label. */
  inline: ReadonlyMap<string, Record<string, string>>;
}

/** The shadow manifest, or undefined before the first. */
export async function readShadowManifest(store: ObjectStore): Promise<PriorShadow | undefined> {
  const body = await store.get(SHADOW_MANIFEST_KEY);
  if (!body) return undefined;
  return parseVersioned(PriorShape, body.toString("utf8"), SHADOW_MANIFEST_KEY);
}

/** A head by its schema; a manifest before the split by its fields' rules, its `features` as the legacy part. */
const PriorShape = z.unknown().transform((json, ctx): PriorShadow => {
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (!isRecord(json) || !("features" in json)) {
    const head = ShadowManifest.safeParse(json);
    return head.success ? { head: head.data, inline: new Map() } : fail(z.prettifyError(head.error));
  }
  const { features, countries: _, schema, version, builtAt } = json;
  const old = ShadowManifest.omit({ parts: true }).safeParse({ schema, version, builtAt });
  if (!old.success) return fail(z.prettifyError(old.error));
  const hashes = hashesOf(features);
  if (typeof hashes === "string") return fail(hashes);
  return { head: { ...old.data, parts: {} }, inline: new Map([[LEGACY_PART, hashes]]) };
});

/** id → SHA-256, checked by key (zod over ~10 000 entries, or one [id, hash] array each, cost more than the read). */
function hashesOf(features: unknown): Record<string, string> | string {
  if (!isRecord(features)) return "features: not an object";
  for (const id in features) {
    const h = features[id];
    if (typeof h !== "string" || !SHA256.test(h)) return `features.${id}: not a SHA-256`;
  }
  return features as Record<string, string>;
}

/** The hashes of every part the prior state names but those in `skip` (carried unread), by label. */
export async function readParts(
  store: ObjectStore,
  prior: PriorShadow | undefined,
  skip: ReadonlySet<string> = new Set(),
): Promise<Map<string, Record<string, string>>> {
  const out = new Map(prior?.inline ?? []);
  const wanted = Object.entries(prior?.head.parts ?? {}).filter(([label]) => !skip.has(label));
  await Promise.all(
    wanted.map(async ([label, part]) => {
      const body = await store.get(part.key);
      if (!body) throw new Error(`${part.key}: the shadow manifest names this part, and the store does not hold it`);
      const doc: unknown = JSON.parse(body.toString("utf8"));
      const hashes = isRecord(doc) && doc.schema === SCHEMA ? hashesOf(doc.features) : `schema is not ${SCHEMA}`;
      if (typeof hashes === "string") throw new Error(`${part.key}: ${hashes}`);
      out.set(label, hashes);
    }),
  );
  return out;
}

const JSON_HEADERS = { contentType: "application/json", cacheControl: "no-store" };

/**
 * Writes the parts (label → id → hash, ids sorted) that differ from the prior head's, then the head naming them and
 * `kept` (parts carried unread, as they were), then deletes the parts no longer named.
 */
export async function writeShadowManifest(
  store: ObjectStore,
  prior: PriorShadow | undefined,
  head: Omit<ShadowManifest, "parts">,
  parts: ReadonlyMap<string, { hashes: Record<string, string>; collection?: string | undefined }>,
  kept: Record<string, ShadowPart>,
): Promise<ShadowManifest> {
  const named: Record<string, ShadowPart> = { ...kept };
  const writes: Promise<void>[] = [];
  for (const [label, { hashes, collection }] of parts) {
    const body = Buffer.from(`${JSON.stringify({ schema: SCHEMA, features: hashes })}\n`);
    const key = `${PARTS_PREFIX}${label}.${createHash("sha256").update(body).digest("hex").slice(0, 16)}.json`;
    named[label] = { key, count: Object.keys(hashes).length, ...(collection ? { collection } : {}) };
    if (prior?.head.parts[label]?.key !== key) writes.push(store.put(key, body, JSON_HEADERS));
  }
  await Promise.all(writes);
  const manifest: ShadowManifest = {
    ...head,
    parts: Object.fromEntries(Object.entries(named).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  await store.put(SHADOW_MANIFEST_KEY, Buffer.from(`${JSON.stringify(manifest)}\n`), JSON_HEADERS);
  // parts no longer named (and any a run that failed before its head left): only when the set of keys changed
  const before = new Set(Object.values(prior?.head.parts ?? {}).map((p) => p.key));
  const now = new Set(Object.values(manifest.parts).map((p) => p.key));
  if (writes.length > 0 || [...before].some((k) => !now.has(k))) {
    const stale = (await store.list(PARTS_PREFIX)).filter((k) => !now.has(k));
    await Promise.all(stale.map((k) => store.delete(k)));
  }
  return manifest;
}
