// Retention (docs/design.md §5, §8), every age measured against the run's `now` (never the machine's clock, so a replay of
// past days keeps what the live service would have kept):
// - whole versions (their collections, fragments, OpenAir, vector tiles) for `keepMs`; the live one and any not older
//   than it always (a run publishing beside this one, on a store without a cross-process compare-and-swap, may switch
//   to its version after this collection read the pointer);
// - the record for `recordMs`: every manifest, the change sets, the explanations and each day's first collections and
//   vector tiles, which with the change sets rebuild every version of the day; then the day goes, pointer and all;
// - objects that no kept version names, once a previous collection found them unnamed at least `graceMs` earlier
//   (the grace keeps the objects of a run still uploading safe from a collection running at the same time).
import { z } from "zod";
import { Pointer, parseVersioned, VersionManifest } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import type { ObjectStore } from "../store/store.js";
import { tierPrefix } from "./artifacts.js";
import { explainKey } from "./explanations.js";
import { DayRecord, dayPointerKey } from "./record.js";

export interface RetentionOptions {
  /** The run's `now`, epoch ms: every age is measured from it. */
  now: number;
  /** Whole versions younger than this are kept. @default 7 days */
  keepMs?: number;
  /** The record (manifests, change sets, explanations, each day's first collections) is kept this long. @default 400 days */
  recordMs?: number;
  /** An unnamed object is deleted when it was found unnamed at least this long ago. @default 1 hour */
  graceMs?: number;
  tier?: Tier;
}

export interface RetentionResult {
  versionsDeleted: number;
  objectsDeleted: number;
  candidates: number;
  /** Days whose record was older than `recordMs` and went (pointer, change sets). */
  daysDeleted: number;
}

const Candidates = z.strictObject({ schema: z.literal(1), since: z.record(z.string(), z.number()) });
/** Per day of the record: its first version and the collections it keeps (a past day's first never changes). */
const Firsts = z.strictObject({
  schema: z.literal(1),
  days: z.record(z.string(), z.strictObject({ first: z.string(), keys: z.array(z.string()) })),
});
const DAY = 86_400_000;

/** `v1/versions/20260914T063000Z-….json` → `20260914T063000Z-…`. */
const versionOf = (key: string) => key.slice(key.lastIndexOf("/") + 1).replace(/\.json$/, "");

/** `20260914T063000Z-…` → epoch ms. */
function versionTime(version: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-/.exec(version);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
}

export async function collectGarbage(store: ObjectStore, options: RetentionOptions): Promise<RetentionResult> {
  const { now } = options;
  const keepMs = options.keepMs ?? 7 * DAY;
  const recordMs = Math.max(options.recordMs ?? 400 * DAY, keepMs);
  const graceMs = options.graceMs ?? 3_600_000;
  const base = tierPrefix(options.tier ?? "dynamic");
  const pointerBytes = await store.get(`${base}/current.json`);
  if (!pointerBytes) return { versionsDeleted: 0, objectsDeleted: 0, candidates: 0, daysDeleted: 0 };
  const live = parseVersioned(Pointer, pointerBytes.toString("utf8"), `${base}/current.json`).manifest;
  const liveTime = versionTime(versionOf(live)) ?? Number.NEGATIVE_INFINITY;
  const kept = (t: number, ms: number) => t >= liveTime || now - t <= ms;

  const referenced = new Set<string>();
  const old: string[] = [];
  for (const key of await store.list(`${base}/versions/`)) {
    const t = versionTime(versionOf(key));
    if (key !== live && t !== undefined && !kept(t, recordMs)) {
      old.push(key);
      continue;
    }
    // between the two ages a version is in the record only: its objects are not named by it any more
    if (key !== live && t !== undefined && !kept(t, keepMs)) continue;
    const bytes = await store.get(key);
    if (!bytes) continue;
    const manifest = parseVersioned(VersionManifest, bytes.toString("utf8"), key);
    for (const e of Object.values(manifest.countries)) {
      referenced.add(e.key);
      referenced.add(e.fragment);
      if (e.openair) for (const k of [e.openair.key, e.openair.fragment]) referenced.add(k);
    }
    if (manifest.tiles) referenced.add(manifest.tiles.key);
  }
  const days = await recordDays(store, base, now, recordMs, referenced);

  const candidatesKey = `internal/gc/${base.replace(/\//g, "_")}-candidates.json`;
  const stored = await readCandidates(store, candidatesKey);
  const previous = stored ?? {};
  const since: Record<string, number> = {};
  let objectsDeleted = 0;
  for (const key of await store.list(`${base}/objects/`)) {
    if (referenced.has(key)) continue;
    const first = previous[key] ?? now;
    if (now - first >= graceMs) {
      await store.delete(key);
      objectsDeleted++;
    } else since[key] = first;
  }
  for (const key of old) {
    await store.delete(key);
    // its explanations go with it (dynamic tier only has them)
    if (base === "v1") await store.delete(explainKey(versionOf(key)));
  }
  // written only when the candidates changed: an unchanged re-run writes nothing but the pointer
  const same =
    stored !== undefined &&
    Object.keys(since).length === Object.keys(stored).length &&
    Object.entries(since).every(([k, t]) => stored[k] === t);
  if (!same) {
    await store.put(candidatesKey, Buffer.from(`${JSON.stringify({ schema: 1, since })}\n`), {
      contentType: "application/json",
    });
  }
  return { versionsDeleted: old.length, objectsDeleted, candidates: Object.keys(since).length, daysDeleted: days };
}

/**
 * Names the first collections of every day of the record in `referenced`, and deletes the days older than it
 * (their pointer and change sets). Returns how many days went.
 */
async function recordDays(
  store: ObjectStore,
  base: string,
  now: number,
  recordMs: number,
  referenced: Set<string>,
): Promise<number> {
  const record = new DayRecord(store, base);
  const key = `internal/gc/${base.replace(/\//g, "_")}-firsts.json`;
  const bytes = await store.get(key);
  const parsed = bytes ? Firsts.safeParse(JSON.parse(bytes.toString("utf8"))) : undefined;
  const known = parsed?.success ? parsed.data.days : {};
  const days: z.infer<typeof Firsts>["days"] = {};
  let deleted = 0;
  for (const day of await record.days()) {
    // a day is in the record while its last minute is younger than the record's age
    if (now - (Date.parse(`${day}T00:00:00Z`) + DAY) > recordMs) {
      await store.delete(dayPointerKey(base, day));
      for (const k of await store.list(`${base}/changes/${day}/`)) await store.delete(k);
      deleted++;
      continue;
    }
    const head = await record.head(day);
    if (!head?.first) continue;
    let entry = known[day];
    if (entry?.first !== head.first) {
      const first = await record.manifest(head.first);
      // its collections, and its vector tiles (issue 60) like them
      const keys = first ? Object.values(first.countries).map((e) => e.key) : [];
      if (first?.tiles) keys.push(first.tiles.key);
      entry = { first: head.first, keys };
    }
    days[day] = entry;
    for (const k of entry.keys) referenced.add(k);
  }
  if (JSON.stringify(days) !== JSON.stringify(known)) {
    await store.put(key, Buffer.from(`${JSON.stringify({ schema: 1, days })}\n`), { contentType: "application/json" });
  }
  return deleted;
}

/** The candidates written by the last collection; undefined when there are none (or unreadable ones). */
async function readCandidates(store: ObjectStore, key: string): Promise<Record<string, number> | undefined> {
  const bytes = await store.get(key);
  if (!bytes) return undefined;
  const parsed = Candidates.safeParse(JSON.parse(bytes.toString("utf8")));
  return parsed.success ? parsed.data.since : undefined;
}
