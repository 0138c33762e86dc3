// Incremental publication (issue 24) on the real UK files and briefing of 2026-08-22: a run whose inputs are an
// earlier run's and whose `now` changes no feature publishes that run's objects again (no data object written);
// past an interval's end the features that changed come from those resolved ahead and only their country is
// serialised again; either way the bytes are those of a publication from scratch.
// A cache entry of other code (a new parser or rule version changes the code's digest) is rebuilt, never served.
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Ahead } from "../../src/ahead.js";
import type { DayHead } from "../../src/day-cache.js";
import type { Logger } from "../../src/model/logger.js";
import type { VersionManifest } from "../../src/model/manifest.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import { explainKey, readExplanations } from "../../src/publish/explanations.js";
import { LocalStore } from "../../src/store/local-store.js";
import { FIXTURES, tempDir } from "../helpers.js";

const DAY = utcDay("2026-08-22")!;
const UK = path.join(FIXTURES, "uk");
const AIRSPACE = ["gb_airspace_2026-06.yaml", "gb_rat_2026-06.yaml", "gb_service_2026-06.yaml"].map((name) => ({
  name,
  bytes: readFileSync(path.join(UK, name)),
}));
const PIB = { name: "uk_pib.xml.gz", bytes: readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz")) };

/** A store that lists the keys written to it. */
class WatchedStore extends LocalStore {
  written: string[] = [];
  override async put(key: string, body: Buffer, options?: Parameters<LocalStore["put"]>[2]) {
    this.written.push(key);
    return super.put(key, body, options);
  }
}

async function publish(store: WatchedStore, now: number, codeVersion?: string) {
  const said: string[] = [];
  let why: unknown;
  let changed = 0;
  const log: Logger = {
    info: (msg, fields) => {
      said.push(msg);
      if (msg === "derived") why = fields?.why;
      if (msg === "reused") changed = Number(fields?.changedFeatures);
    },
    warn() {},
    progress() {},
  };
  store.written = [];
  const report = await publishDay(
    AIRSPACE.map((a) => ({ ...a, fetchedAt: now })),
    // with the vector tiles: a refresh patches the earlier archive, and it must be what a build from scratch gives
    { day: DAY, now, sources: { notam: [], aup: [] }, notams: [{ ...PIB, fetchedAt: now }], tiles: true },
    { store, log, ...(codeVersion ? { codeVersion } : {}) },
  );
  const reused = said.includes("reused");
  return { report, reused, derived: said.includes("derived"), why, changed, written: store.written };
}

const manifestOf = (dir: string, version: string): VersionManifest =>
  JSON.parse(readFileSync(path.join(dir, "v1", "versions", `${version}.json`), "utf8"));
/** What a version publishes, leaving out where it stands in the day's record (and its change from the one before). */
// what a version says, not where it stands in the record: its changes and its tiles' rewrite count from the previous
const content = ({ previous: _, first: __, pointers: ___, ...m }: VersionManifest) => ({
  ...m,
  countries: Object.fromEntries(Object.entries(m.countries).map(([cc, { changes: ____, ...e }]) => [cc, e])),
  ...(m.tiles ? { tiles: (({ rewritten: _____, ...t }) => t)(m.tiles) } : {}),
});

/** The head the last run wrote: the publication the next starts from, its window and report. */
async function dayHead(dir: string): Promise<{ key: string; entry: DayHead }> {
  const store = new LocalStore(dir);
  const [key] = await store.list("internal/cache/head/2026-08-22/");
  return { key: key!, entry: JSON.parse(gunzipSync((await store.get(key!))!).toString("utf8")) };
}

/** The same inputs published from scratch at `now` into a new store: its manifest and explanations (once per `now`). */
const scratches = new Map<number, Promise<{ manifest: VersionManifest; explain: unknown }>>();
function fromScratch(now: number) {
  let hit = scratches.get(now);
  if (!hit) {
    hit = (async () => {
      const dir = tempDir("scratch-");
      const { report } = await publish(new WatchedStore(dir), now);
      return {
        manifest: manifestOf(dir, report.version),
        explain: await readExplanations(new LocalStore(dir), report.version),
      };
    })();
    scratches.set(now, hit);
  }
  return hit;
}

const T0 = Date.parse("2026-08-22T11:15:00Z");
let base: Promise<{ dir: string; first: Awaited<ReturnType<typeof publish>> }> | undefined;
/**
 * A store holding one publication at 11:15 by code-1, copied for each test that starts from it (published once:
 * the store is a folder, and what a run reads of it, keys and bytes, is the same in a copy).
 */
async function fromBase(prefix: string) {
  base ??= (async () => {
    const dir = tempDir("incremental-base-");
    return { dir, first: await publish(new WatchedStore(dir), T0, "code-1") };
  })();
  const { dir: from, first } = await base;
  const dir = tempDir(prefix);
  cpSync(from, dir, { recursive: true });
  return { dir, store: new WatchedStore(dir), first };
}

describe("incremental publication", () => {
  it("publishes an earlier run's objects again when now changes no feature, and past an interval's end only what changed", async () => {
    const { dir, store, first } = await fromBase("incremental-");
    const t0 = T0;
    expect(first.derived).toBe(true);
    const { entry } = await dayHead(dir);
    const [lo, hi] = entry.window;
    expect(lo).not.toBeNull();
    expect(hi).not.toBeNull();
    expect(lo!).toBeLessThanOrEqual(t0);
    expect(hi!).toBeGreaterThan(t0);

    // inside the window: nothing read, resolved or serialised; no data object written
    const inside = hi! - 1;
    const again = await publish(store, inside, "code-1");
    expect(again.reused).toBe(true);
    expect(again.changed).toBe(0);
    expect(again.written.filter((k) => k.startsWith("v1/objects/"))).toEqual([]);
    const scratchInside = await fromScratch(inside);
    expect(content(manifestOf(dir, again.report.version))).toEqual(content(scratchInside.manifest));
    const explained = await readExplanations(new LocalStore(dir), again.report.version);
    expect(explained).toEqual(scratchInside.explain);
    expect(again.report.version).not.toBe(first.report.version);

    // at each window's end a feature's last interval is over: it is taken from those resolved ahead, and only GB
    // (where it is) is serialised again; four steps on, each publication is what a derivation from scratch gives
    let from = again;
    for (let step = 0; step < 4; step++) {
      const { entry: e } = await dayHead(dir);
      const next = e.window[1]!;
      expect(next).toBeGreaterThan(Date.parse(from.report.now));
      const past = await publish(store, next, "code-1");
      expect(past.reused, String(past.why)).toBe(true);
      expect(past.changed).toBeGreaterThan(0);
      const objects = past.written.filter((k) => k.startsWith("v1/objects/"));
      expect(objects.length).toBeGreaterThan(0);
      const m = manifestOf(dir, past.report.version);
      const changed = Object.entries(m.countries).filter(([, c]) => c.changes);
      expect(changed.length).toBeGreaterThan(0);
      // objects written are those of the changed countries alone, and the version's tiles (some of them rewritten)
      const keys = new Set(changed.flatMap(([, c]) => [c.key, c.fragment, c.openair!.key, c.openair!.fragment]));
      keys.add(m.tiles!.key);
      expect(m.tiles!.rewritten!.tiles).toBeGreaterThan(0);
      expect(m.tiles!.rewritten!.tiles).toBeLessThan(m.tiles!.tiles);
      expect(objects.filter((k) => !keys.has(k))).toEqual([]);
      const scratch = await fromScratch(next);
      expect(content(m)).toEqual(content(scratch.manifest));
      expect(await readExplanations(new LocalStore(dir), past.report.version)).toEqual(scratch.explain);
      from = past;
    }

    // before the earlier run's now: derived
    const before = await publish(store, t0 - 60_000, "code-1");
    expect(before.why).toBe("now is before the earlier run's");
  }, 300_000);

  it("rebuilds, never serves, an entry of other code (a new parser or rule version), and serves its own", async () => {
    const { dir, store } = await fromBase("invalidate-");
    const t0 = T0;
    // the entry marked: a run that serves it reports the mark
    const { key, entry } = await dayHead(dir);
    entry.report.diagnostics.byCode["served.from.cache"] = 1;
    await store.put(key, gzipSync(JSON.stringify(entry)));

    const same = await publish(store, t0, "code-1");
    expect(same.reused).toBe(true);
    expect(same.report.diagnostics.byCode["served.from.cache"]).toBe(1);

    const other = await publish(store, t0, "code-2");
    expect(other.reused).toBe(false);
    expect(other.why).toBe("no earlier run of these inputs");
    expect(other.report.diagnostics.byCode["served.from.cache"]).toBeUndefined();
    // every entry of code-1 replaced by one of code-2 (one per folder)
    const after = await store.list("internal/cache/");
    expect(after).not.toContain(key);
    expect(after.filter((k) => k.startsWith("internal/cache/day/"))).toHaveLength(1);
    expect(content(manifestOf(dir, other.report.version))).toEqual(content((await fromScratch(t0)).manifest));
  }, 300_000);

  it("derives when the explanations a refresh would lay its changes over are gone (the day's first version's)", async () => {
    const { dir, store, first } = await fromBase("explain-gone-");
    const { entry } = await dayHead(dir);
    const inside = await publish(store, entry.window[1]! - 1, "code-1");
    expect(inside.reused).toBe(true);
    // the later version's delta is there, its base (the day's first) is not
    await store.delete(explainKey(first.report.version));
    const past = await publish(store, entry.window[1]!, "code-1");
    expect(past.reused).toBe(false);
    expect(past.why).toBe("its explanations are gone");
    expect(await readExplanations(new LocalStore(dir), past.report.version)).toEqual(
      (await fromScratch(entry.window[1]!)).explain,
    );
  }, 300_000);

  it("derives when a feature resolved ahead fails the contract, and publishes what a derivation gives", async () => {
    const { dir, store } = await fromBase("ahead-invalid-");
    const { entry } = await dayHead(dir);
    // every piece resolved ahead made invalid (an isActive the contract does not know), in place
    const keys = (await store.list("internal/cache/ahead/2026-08-22/")).filter((k) => k.endsWith(".json.gz"));
    expect(keys.length).toBeGreaterThan(0);
    let pieces = 0;
    for (const key of keys) {
      // an entry holds the records of a few chunks, a line of JSON each: feature id → its pieces
      const group = gunzipSync((await store.get(key))!)
        .toString("utf8")
        .split("\n");
      const ahead = group.map((text) => JSON.parse(text) as Record<string, Ahead>);
      for (const a of ahead.flatMap((chunk) => Object.values(chunk)))
        for (const p of a.next) {
          p.patch = { vendor: { dynamicAirspaceMapping: { isActive: ["Maybe"] } } };
          pieces++;
        }
      await store.put(key, gzipSync(ahead.map((chunk) => JSON.stringify(chunk)).join("\n")));
    }
    expect(pieces).toBeGreaterThan(0);
    const past = await publish(store, entry.window[1]!, "code-1");
    expect(past.reused).toBe(false);
    expect(String(past.why)).toMatch(/ resolved ahead fails the contract$/);
    const m = manifestOf(dir, past.report.version);
    expect(content(m)).toEqual(content((await fromScratch(entry.window[1]!)).manifest));
  }, 300_000);

  it.each([
    [
      "a layout whose lengths do not split its chunks (each chunk's first feature one longer, its second one shorter)",
      async (store: WatchedStore, key: string, entry: DayHead) => {
        for (const t of entry.tiers)
          for (const layout of Object.values(t.layouts))
            for (let k = 0; k + 1 < layout.lengths.length; k += 128) {
              layout.lengths[k]! += 1;
              layout.lengths[k + 1]! -= 1;
            }
        await store.put(key, gzipSync(JSON.stringify(entry)));
      },
      /'s chunk \d+ does not split into its features$/,
    ],
    [
      "records resolved ahead that are not JSON objects, or not one per chunk",
      async (store: WatchedStore) => {
        const keys = await store.list("internal/cache/ahead/2026-08-22/");
        for (const [n, k] of keys.entries()) {
          const lines = gunzipSync((await store.get(k))!)
            .toString("utf8")
            .split("\n");
          const bad = n % 2 === 0 ? lines.map((_, i) => ["{not json", "7", "null", "[]"][i % 4]!) : lines.slice(1);
          await store.put(k, gzipSync(bad.join("\n")));
        }
      },
      /'s features resolved ahead are gone$/,
    ],
    [
      "pieces resolved ahead whose patches name a property the published feature lacks",
      async (store: WatchedStore) => {
        for (const k of await store.list("internal/cache/ahead/2026-08-22/")) {
          const records = gunzipSync((await store.get(k))!)
            .toString("utf8")
            .split("\n")
            .map((text) => JSON.parse(text) as Record<string, Ahead>);
          for (const a of records.flatMap((r) => Object.values(r)))
            for (const p of a.next) p.patch = { vendor: { notThere: ["x"] } };
          await store.put(k, gzipSync(records.map((r) => JSON.stringify(r)).join("\n")));
        }
      },
      /'s pieces resolved ahead do not apply to it$/,
    ],
    [
      "a country's stored fragments that are not the bytes its entry names (GeoJSON, then OpenAir)",
      async (store: WatchedStore, _key: string, entry: DayHead) => {
        const [first, second] = Object.values(entry.tiers[0]!.countries);
        const swap = async (k: string) => {
          const bytes = (await store.get(k))!;
          await store.put(k, Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from([bytes.at(-1)! ^ 1])]));
        };
        await swap(first!.fragment);
        await swap((second ?? first)!.openair!.fragment);
      },
      /'s objects are gone$/,
    ],
  ])(
    "derives when the head, the entries resolved ahead or the stored objects are damaged: %s",
    async (_, damage, why) => {
      const { dir, store } = await fromBase("damaged-");
      const { key, entry } = await dayHead(dir);
      await damage(store, key, entry);
      const past = await publish(store, entry.window[1]!, "code-1");
      expect(past.reused).toBe(false);
      expect(String(past.why)).toMatch(why);
      const m = manifestOf(dir, past.report.version);
      expect(content(m)).toEqual(content((await fromScratch(entry.window[1]!)).manifest));
    },
    300_000,
  );

  it("derives when a source's standing changed, though the inputs did not", async () => {
    const { dir, store } = await fromBase("standing-");
    // three hours later the briefing (issued 11:16) is stale: conditional airspaces turn Unknown
    const later = Date.parse("2026-08-22T14:20:00Z");
    const r = await publish(store, later, "code-1");
    expect(r.reused).toBe(false);
    expect(r.why).toBe("a source's standing changed");
    expect(r.report.sourceStates.notam[0]?.standing).toBe("stale");
    expect(content(manifestOf(dir, r.report.version))).toEqual(content((await fromScratch(later)).manifest));
  }, 300_000);

  it("says when a run of the same inputs publishes something else next: nothing changes before it, something at it", async () => {
    const { store, first } = await fromBase("incremental-next-");
    const next = Date.parse(first.report.nextChangeAt ?? "");
    expect(next).toBeGreaterThan(T0);
    expect(next).toBeLessThan(DAY.end);
    const before = await publish(store, next - 1_000, "code-1");
    expect(before.reused).toBe(true);
    expect(before.changed).toBe(0);
    expect(before.report.nextChangeAt).toBe(first.report.nextChangeAt);
    const at = await publish(store, next, "code-1");
    // a feature changed (reused with changes) or a source's standing did (derived): either publishes something else
    const changedSomething = (at.reused && at.changed > 0) || at.why === "a source's standing changed";
    expect(changedSomething).toBe(true);
    expect(Date.parse(at.report.nextChangeAt ?? "9999")).toBeGreaterThan(next);
  }, 300_000);
});
