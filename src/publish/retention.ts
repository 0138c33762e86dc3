// Retention (DESIGN §5): versions older than the configured age go, except the live one and any not older than it
// (a run publishing beside this one, on a store without a cross-process compare-and-swap, may switch to its
// version after this collection read the pointer; a republished past day is named by its past `now`); objects that no
// kept version names go too, but only when a previous collection already found them unnamed at least
// `graceMs` earlier. The grace keeps the objects of a run that is still uploading (its manifest not yet
// written) safe from a collection running at the same time.
import { z } from "zod";
import { Pointer, parseVersioned, VersionManifest } from "../model/manifest.js";
import type { Tier } from "../model/vocab.js";
import { tierPrefix } from "./artifacts.js";
import { explainKey } from "./explanations.js";
import type { ObjectStore } from "./store.js";

export interface RetentionOptions {
  /** The collection's instant, epoch ms. */
  now: number;
  /** Versions younger than this are kept. @default 7 days */
  keepMs?: number;
  /** An unnamed object is deleted when it was found unnamed at least this long ago. @default 1 hour */
  graceMs?: number;
  tier?: Tier;
}

export interface RetentionResult {
  versionsDeleted: number;
  objectsDeleted: number;
  candidates: number;
}

const Candidates = z.strictObject({ schema: z.literal(1), since: z.record(z.string(), z.number()) });
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
  const graceMs = options.graceMs ?? 3_600_000;
  const base = tierPrefix(options.tier ?? "dynamic");
  const pointerBytes = await store.get(`${base}/current.json`);
  if (!pointerBytes) return { versionsDeleted: 0, objectsDeleted: 0, candidates: 0 };
  const live = parseVersioned(Pointer, pointerBytes.toString("utf8"), `${base}/current.json`).manifest;
  const liveTime = versionTime(versionOf(live)) ?? Number.NEGATIVE_INFINITY;

  const referenced = new Set<string>();
  const old: string[] = [];
  for (const key of await store.list(`${base}/versions/`)) {
    const t = versionTime(versionOf(key));
    if (key !== live && t !== undefined && t < liveTime && now - t > keepMs) {
      old.push(key);
      continue;
    }
    const bytes = await store.get(key);
    if (!bytes) continue;
    const manifest = parseVersioned(VersionManifest, bytes.toString("utf8"), key);
    for (const e of Object.values(manifest.countries)) {
      referenced.add(e.key);
      referenced.add(e.fragment);
    }
  }

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
  return { versionsDeleted: old.length, objectsDeleted, candidates: Object.keys(since).length };
}

/** The candidates written by the last collection; undefined when there are none (or unreadable ones). */
async function readCandidates(store: ObjectStore, key: string): Promise<Record<string, number> | undefined> {
  const bytes = await store.get(key);
  if (!bytes) return undefined;
  const parsed = Candidates.safeParse(JSON.parse(bytes.toString("utf8")));
  return parsed.success ? parsed.data.since : undefined;
}
