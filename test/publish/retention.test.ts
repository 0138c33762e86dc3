import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LocalStore } from "../../src/publish/local-store.js";
import { publishVersion } from "../../src/publish/publish.js";
import { currentManifest, readCollection } from "../../src/publish/read-back.js";
import { collectGarbage } from "../../src/publish/retention.js";
import { tempDir } from "../helpers.js";
import { byCountry, DAY, feature } from "./fixtures.js";

const HOUR = 3_600_000;
const publish = (store: LocalStore, at: string, features = [feature("a1", "DE", 8)]) =>
  publishVersion(store, {
    byCountry: byCountry(features),
    date: DAY.date,
    publishedAt: Date.parse(at),
    sources: {},
    tier: "dynamic",
  });

describe("retention", () => {
  it("drops versions older than the age and, after the grace, the objects no kept version names; the live version stays whole", async () => {
    const dir = tempDir();
    const store = new LocalStore(dir);
    await publish(store, "2026-09-01T06:00:00Z", [feature("old", "DE", 8)]);
    const fresh = await publish(store, "2026-09-14T06:00:00Z", [feature("new", "DE", 9)]);
    const now = Date.parse("2026-09-14T07:00:00Z");
    const first = await collectGarbage(store, { now });
    expect(first.versionsDeleted).toBe(1);
    expect(first.objectsDeleted).toBe(0); // only marked: the grace protects a run that may still be uploading
    expect(first.candidates).toBe(2);
    const second = await collectGarbage(store, { now: now + 2 * HOUR });
    expect(second.objectsDeleted).toBe(2);
    const manifest = (await currentManifest(store))!;
    expect(manifest.version).toBe(fresh.manifest.version);
    for (const e of Object.values(manifest.countries)) {
      expect(existsSync(path.join(dir, e.key))).toBe(true);
      expect(existsSync(path.join(dir, e.fragment))).toBe(true);
    }
    expect((await readCollection(store, manifest.countries.DE!.key)).features).toHaveLength(1);
    expect(readdirSync(path.join(dir, "v1/versions"))).toEqual([`${fresh.manifest.version}.json`]);
  });

  it("never deletes objects of a version younger than the age, nor the live one however old", async () => {
    const store = new LocalStore(tempDir());
    await publish(store, "2026-08-01T06:00:00Z");
    const r = await collectGarbage(store, { now: Date.parse("2026-09-14T06:00:00Z") + 5 * HOUR });
    expect(r).toEqual({ versionsDeleted: 0, objectsDeleted: 0, candidates: 0 });
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
    expect((await collectGarbage(store, { now: now + 60_000 })).candidates).toBe(2);
    expect(statSync(file).mtimeMs).toBe(written);
    await collectGarbage(store, { now: now + 2 * HOUR });
    expect(statSync(file).mtimeMs).toBeGreaterThan(written);
  });
});
