import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishVersion } from "../../src/publish/publish.js";
import { currentManifest, readCollection } from "../../src/publish/read-back.js";
import { collectGarbage } from "../../src/publish/retention.js";
import { LocalStore } from "../../src/store/local-store.js";
import { tempDir } from "../helpers.js";
import { byCountry, feature } from "./fixtures.js";

const HOUR = 3_600_000;
// a version of the day of its `now`, as the scheduled job publishes today
const publish = (store: LocalStore, at: string, features = [feature("a1", "DE", 8)], date = at.slice(0, 10)) =>
  publishVersion(store, {
    byCountry: byCountry(features),
    date,
    publishedAt: Date.parse(at),
    sources: {},
    tier: "dynamic",
  });

describe("retention", () => {
  it("collects a version older than the age, after the grace, but for its day's record; the live version stays whole", async () => {
    const dir = tempDir();
    const store = new LocalStore(dir);
    const old = await publish(store, "2026-09-01T06:00:00Z", [feature("old", "DE", 8)]);
    const fresh = await publish(store, "2026-09-14T06:00:00Z", [feature("new", "DE", 9)]);
    const now = Date.parse("2026-09-14T07:00:00Z");
    const first = await collectGarbage(store, { now });
    expect(first).toEqual({ versionsDeleted: 0, objectsDeleted: 0, candidates: 3, daysDeleted: 0 });
    const second = await collectGarbage(store, { now: now + 2 * HOUR });
    // the old day's first collection stays (with the change sets it rebuilds the day); its fragment and OpenAir go
    expect(second.objectsDeleted).toBe(3);
    const de = old.manifest.countries.DE!;
    expect(existsSync(path.join(dir, de.key))).toBe(true);
    for (const k of [de.fragment, de.openair!.key, de.openair!.fragment])
      expect(existsSync(path.join(dir, k))).toBe(false);
    const manifest = (await currentManifest(store))!;
    expect(manifest.version).toBe(fresh.manifest.version);
    for (const e of Object.values(manifest.countries)) {
      expect(existsSync(path.join(dir, e.key))).toBe(true);
      expect(existsSync(path.join(dir, e.fragment))).toBe(true);
    }
    expect((await readCollection(store, manifest.countries.DE!.key)).features).toHaveLength(1);
    // every manifest is kept for the record
    expect(readdirSync(path.join(dir, "v1/versions")).sort()).toEqual(
      [`${old.manifest.version}.json`, `${fresh.manifest.version}.json`].sort(),
    );
  });

  it("keeps the record of a day for the record's age, then the whole day goes", async () => {
    const dir = tempDir();
    const store = new LocalStore(dir);
    await publish(store, "2026-09-01T06:00:00Z", [feature("old", "DE", 8)]);
    await publish(store, "2026-09-01T07:00:00Z", [feature("old", "DE", 9)]);
    await publish(store, "2026-09-14T06:00:00Z", [feature("new", "DE", 9)]);
    const at = (days: number) => Date.parse("2026-09-14T07:00:00Z") + days * 86_400_000;
    const recordMs = 30 * 86_400_000;
    await collectGarbage(store, { now: at(10), recordMs });
    const kept = await collectGarbage(store, { now: at(10) + 2 * HOUR, recordMs });
    expect(kept.versionsDeleted).toBe(0);
    expect(readdirSync(path.join(dir, "v1/changes/2026-09-01"))).toHaveLength(1);
    const gone = await collectGarbage(store, { now: at(20), recordMs });
    expect(gone).toMatchObject({ versionsDeleted: 2, daysDeleted: 1 });
    await collectGarbage(store, { now: at(20) + 2 * HOUR, recordMs });
    expect(await store.head("v1/days/2026-09-01/current.json")).toBeUndefined();
    expect(await store.list("v1/changes/2026-09-01/")).toEqual([]);
    expect(readdirSync(path.join(dir, "v1/versions"))).toHaveLength(1);
  });

  it("never deletes objects of a version younger than the age, nor the live one however old", async () => {
    const store = new LocalStore(tempDir());
    await publish(store, "2026-08-01T06:00:00Z");
    const r = await collectGarbage(store, { now: Date.parse("2026-09-14T06:00:00Z") + 5 * HOUR });
    expect(r).toEqual({ versionsDeleted: 0, objectsDeleted: 0, candidates: 0, daysDeleted: 0 });
  });

  it("keeps a version not older than the live one, however old by the clock: another run may be switching to it", async () => {
    const store = new LocalStore(tempDir());
    const mine = await publish(store, "2026-09-14T07:00:00Z", [feature("mine", "DE", 8)]);
    // the other run's manifest is written; its pointer flip comes after this collection read the pointer
    const pointer = await store.get("v1/current.json");
    const other = await publish(store, "2026-09-14T07:00:00Z", [feature("other", "DE", 9)]);
    await store.put("v1/current.json", pointer!);
    const r = await collectGarbage(store, { now: Date.parse("2026-11-25T09:00:00Z") });
    expect(r.versionsDeleted).toBe(0);
    expect(await store.head(`v1/versions/${other.manifest.version}.json`)).toBeDefined();
    // and its objects: it is not older than the live one, so it is a whole version, not only in the record
    await collectGarbage(store, { now: Date.parse("2026-11-25T12:00:00Z") });
    for (const e of Object.values(other.manifest.countries)) expect(await store.head(e.fragment)).toBeDefined();
    expect((await currentManifest(store))!.version).toBe(mine.manifest.version);
  });

  it("rewrites its candidate list only when it changed", async () => {
    const dir = tempDir();
    const store = new LocalStore(dir);
    await publish(store, "2026-09-01T06:00:00Z", [feature("old", "DE", 8)]);
    await publish(store, "2026-09-14T06:00:00Z", [feature("new", "DE", 9)]);
    const now = Date.parse("2026-09-14T07:00:00Z");
    await collectGarbage(store, { now });
    const file = path.join(dir, "internal/gc/v1-candidates.json");
    const written = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    // the old version's fragment and OpenAir pair (its collection stays: the first of its day)
    expect((await collectGarbage(store, { now: now + 60_000 })).candidates).toBe(3);
    expect(statSync(file).mtimeMs).toBe(written);
    await collectGarbage(store, { now: now + 2 * HOUR });
    expect(statSync(file).mtimeMs).toBeGreaterThan(written);
  });
});
