// The checks of a replay (issue 23), run on a folder of snapshots: publish them in order into one store with `replay`,
// then on that store: change sets against the full download; catching up from every version of a day to any later
// one, in process and through the origin; the record rebuilt after retention has left only each day's first
// collections; `?at=` at 20 instants; `history` of a danger area; the map page in Chromium; tomorrow beside today;
// OpenAir read by openAIP's reader; the problems of bad `since`, `at` and `day`. replay.test.ts runs them on a day's
// slice of the hourly UK weekend (four PIBs over three days), replay-weekend.long.test.ts on all 74.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { Parser } from "@openaip/openair-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, movePointers } from "../../bench/support.js";
import type { ReplayRun } from "../../jobs/commands/replay.js";
import { ClientError, createClient, keyOf } from "../../src/client/client.js";
import { memoryStorage } from "../../src/client/storage.js";
import type { FeatureCollection } from "../../src/model/contract.js";
import type { VersionManifest } from "../../src/model/manifest.js";
import { composeFor } from "../../src/origin/changes.js";
import { FragmentCache, TierView } from "../../src/origin/published.js";
import { applyChange } from "../../src/publish/changes.js";
import { DayRecord } from "../../src/publish/record.js";
import { collectGarbage } from "../../src/publish/retention.js";
import { LocalStore } from "../../src/store/local-store.js";
import { type Alter, proxy } from "../client/proxy.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";
import { cli, type Running, request, serve } from "../origin/harness.js";

const SHARED = path.join(ROOT, "..", "shared", "data");
/** Every hourly UK PIB of 14–16 June 2024 (74 files), with YAIXM airspace of 2024-09. */
export const HOURLY = path.join(SHARED, "notam", "uk_pib_hourly_2024-06-14");
const YAIXM = ["gb_airspace_2024-09.yaml", "gb_service_2024-09.yaml"].map((f) =>
  path.join(SHARED, "airspace", "yaixm", f),
);
export const HAS_WEEKEND = existsSync(HOURLY);

/** Made once per process: a folder of snapshots. */
const once = (make: () => string) => {
  let dir: string | undefined;
  return () => {
    dir ??= make();
    return dir;
  };
};

/** The weekend's PIBs named (all of them when none is): a folder of their own unless all are asked for. */
export function weekendCase(
  names: readonly string[] | "all",
  expected: Omit<ReplayCase, "title" | "snapshots" | "airspaces">,
): ReplayCase {
  const all = names === "all";
  return {
    title: all
      ? "the hourly UK weekend (74 PIBs)"
      : `${names.length} hourly UK PIBs of the weekend (${names.join(", ")})`,
    snapshots: all
      ? () => HOURLY
      : once(() => {
          const dir = tempDir("replay-slice-");
          for (const n of names)
            copyFileSync(path.join(HOURLY, `uk_pib_${n}.xml.gz`), path.join(dir, `uk_pib_${n}.xml.gz`));
          return dir;
        }),
    airspaces: YAIXM,
    ...expected,
  };
}

/** Without the corpus: the bundled 2026 briefing three times, an hour apart (its Issued moved). */
export const bundledCase = (parseOpenAir: boolean): ReplayCase => ({
  title: "three copies of the bundled briefing",
  note: `replay: ${HOURLY} is absent; replaying three copies of the bundled briefing instead`,
  snapshots: once(() => {
    const dir = tempDir("replay-pibs-");
    const xml = gunzipSync(readFileSync(path.join(FIXTURES, "uk", "uk_pib_2026-08-22T1116Z.xml.gz"))).toString();
    for (const h of ["11", "12", "13"]) {
      const moved = xml.replace(/<Issued>[^<]*<\/Issued>/, `<Issued>2026-08-22T${h}:00:15+00:00</Issued>`);
      writeFileSync(path.join(dir, `uk_pib_2026-08-22T${h}00Z.xml.gz`), gzipSync(moved));
    }
    return dir;
  }),
  airspaces: [path.join(FIXTURES, "uk")],
  minPairs: 2,
  minRebuilt: 0,
  history: false,
  afternoon: false,
  parseOpenAir,
});

/** What is replayed, and what its checks may expect of it. */
export interface ReplayCase {
  title: string;
  /** The folder of snapshots (made on first use). */
  snapshots: () => string;
  airspaces: readonly string[];
  /** Said once before the replay (a corpus that is absent, and what runs instead). */
  note?: string;
  /** More pairs of versions of a day than this are composed. */
  minPairs: number;
  /** At least this many collections are rebuilt from the record after retention. */
  minRebuilt: number;
  /** A danger area's history: more entries than `entries`, over at least `days` days; false where none changes. */
  history: { entries: number; days: number } | false;
  /** Whether a run after 15:00 UTC (publishing tomorrow) is among the snapshots. */
  afternoon: boolean;
  /** Whether openAIP's reader parses the served OpenAir (else it is compared with the object published). */
  parseOpenAir: boolean;
}

/** Today's pointer and the day's pointer of `store` moved to `version` (of that day), as if it were the live one. */
export function describeReplay(c: ReplayCase): void {
  let store: string;
  let runs: ReplayRun[];
  let record: DayRecord;
  let origin: Running;
  let token: string;
  let tokens: string;
  let pristine: string;
  const collections = new Map<string, string>();

  const country = (m: VersionManifest) => Object.keys(m.countries).sort();
  const text = (fc: FeatureCollection) => JSON.stringify(fc);
  const parsed = new Map<string, FeatureCollection>();
  /** A version's collection of a country as published (parsed once); an empty one where it had none. */
  const collectionOf = (version: string, cc: string): FeatureCollection => {
    const key = `${version}|${cc}`;
    let hit = parsed.get(key);
    if (!hit) {
      hit = JSON.parse(collections.get(key) ?? '{"type":"FeatureCollection","features":[]}') as FeatureCollection;
      parsed.set(key, hit);
    }
    return hit;
  };

  beforeAll(async () => {
    if (c.note) console.warn(c.note);
    store = tempDir("replay-store-");
    const report = path.join(tempDir("replay-report-"), "report.json");
    const snapshots = c.snapshots();
    const airspaces = c.airspaces.flatMap((a) => ["--airspaces", a]);
    const r = await cli([
      "replay",
      ...airspaces,
      "--notams",
      snapshots,
      "--store",
      store,
      "--report",
      report,
      // with vector tiles: a refresh patches the earlier archive, and the check against a replay without cache
      // below holds every manifest (each naming its archive's SHA-256) to what full builds give
      "--tiles",
      "--quiet",
    ]);
    if (r.code !== 0) throw new Error(r.err);
    runs = JSON.parse(readFileSync(report, "utf8")).runs;
    // as replayed, before any check's retention: the client's checks serve copies of it
    pristine = tempDir("replay-pristine-");
    cpSync(store, pristine, { recursive: true });
    record = new DayRecord(new LocalStore(store), "v1");
    // every version's collections as published, before any retention
    for (const day of await record.days()) {
      for (const m of await record.chain(day)) {
        for (const cc of country(m)) collections.set(`${m.version}|${cc}`, text(await record.collection(m, cc)));
      }
    }
    tokens = path.join(tempDir("replay-tokens-"), "tokens.json");
    token = (await cli(["tokens", "create", "--tokens", tokens, "--scope", "dynamic", "--name", "replay"])).out.trim();
    origin = await serve({ store, tokens });
  }, 1_200_000);
  afterAll(async () => origin?.close());

  const get = (target: string, headers: Record<string, string> = {}) =>
    request(origin.url, target, { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip", ...headers });
  const json = (body: Buffer) => JSON.parse(gunzipSync(body).toString("utf8"));

  describe(`replay of ${c.title}`, () => {
    it("publishes every run, today's version and, from 15:00 UTC, tomorrow's", () => {
      const files = readdirSync(c.snapshots()).filter((f) => f.endsWith(".xml.gz")).length;
      expect(runs).toHaveLength(files);
      for (const run of runs) {
        expect(run.versions[0]!.date).toBe(run.now.slice(0, 10));
        const afternoon = Number(run.now.slice(11, 13)) >= 15;
        expect(run.versions.length).toBe(afternoon ? 2 : 1);
      }
    });

    it("serves its map page: the status document, then the page loads in Chromium with no console error or failed request", async () => {
      const status = await fetch(`${origin.url}/v1/status/master-features`);
      expect(status.status).toBe(200);
      const browser = await launchChromium();
      const problems: string[] = [];
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        page.on("console", (m) => void (m.type() === "error" && problems.push(`console: ${m.text()}`)));
        page.on("pageerror", (e) => void problems.push(`page: ${e.message}`));
        page.on("requestfailed", (r) => void problems.push(`failed: ${r.url()}`));
        page.on("response", (r) => void (r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`)));
        await page.goto(`${origin.url}/`);
        await page.fill("#token", token);
        await page.selectOption("#countries", "EUROPE");
        await page.click("#load button[type=submit]");
        await page.waitForSelector("body[data-loaded]", { timeout: 30_000 });
      } finally {
        await browser.close();
      }
      expect(problems).toEqual([]);
    }, 60_000);

    it("publishes the same bytes incrementally as from scratch: collections, change sets, manifests, explanations", async () => {
      // the same replay into a store whose internal/cache is a file: no stage can keep or find anything
      const scratch = tempDir("replay-scratch-");
      mkdirSync(path.join(scratch, "internal"), { recursive: true });
      writeFileSync(path.join(scratch, "internal", "cache"), "not a folder: nothing is cached");
      const snapshots = c.snapshots();
      const airspaces = c.airspaces.flatMap((a) => ["--airspaces", a]);
      const r = await cli(["replay", ...airspaces, "--notams", snapshots, "--store", scratch, "--tiles", "--quiet"]);
      expect(r.code, r.err).toBe(0);
      const files = (dir: string) =>
        (readdirSync(dir, { recursive: true }) as string[])
          .filter((f) => /^(v1|internal[/\\]explain)[/\\].+\.(json|gz|deflate|pmtiles)$/.test(f))
          .sort();
      const incremental = files(store);
      expect(files(scratch)).toEqual(incremental);
      const changeSets = incremental.filter((f) => f.includes("changes"));
      expect(changeSets.length).toBeGreaterThan(0);
      expect(incremental.filter((f) => f.endsWith(".pmtiles")).length).toBeGreaterThan(1);
      const differ = incremental.filter(
        (f) => !readFileSync(path.join(store, f)).equals(readFileSync(path.join(scratch, f))),
      );
      expect(differ).toEqual([]);
      // and the incremental replay did reuse: its cache holds entries of each stage
      const cached = readdirSync(path.join(store, "internal", "cache"));
      expect(cached.sort()).toEqual(["ahead", "airspace-read", "country", "day", "head"]);
    }, 1_200_000);

    it("writes change sets of at most 5 % of the full GB download between consecutive hours (median, gzip)", () => {
      const ratios = runs
        .slice(1)
        .map((r) => r.versions[0]!)
        .filter((v) => v.changes.gzBytes > 0 || v.changes.added + v.changes.changed + v.changes.removed === 0)
        .map((v) => v.changes.gzBytes / v.gzBytes)
        .sort((a, b) => a - b);
      const median = ratios[Math.floor((ratios.length - 1) / 2)]!;
      mkdirSync(path.join(ROOT, "test-output"), { recursive: true });
      writeFileSync(
        path.join(ROOT, "test-output", "replay.json"),
        `${JSON.stringify({ runs: runs.length, medianChangeRatio: median, maxChangeRatio: ratios.at(-1) }, null, 2)}\n`,
      );
      expect(median).toBeLessThanOrEqual(0.05);
    });

    it("brings every version of a day to every later one exactly, composing the change sets", async () => {
      const view = new TierView(new LocalStore(store), "dynamic", new FragmentCache(64 << 20));
      const read = (key: string) => new LocalStore(store).get(key);
      let pairs = 0;
      for (const day of await record.days()) {
        const chain = await record.chain(day);
        for (let j = 1; j < chain.length; j++) {
          for (let i = 0; i < j; i++) {
            const [u, v] = [chain[i]!, chain[j]!];
            const composed = await composeFor(view, v, u.version, country(v), read);
            if (!("body" in composed)) throw new Error(`${u.version} → ${v.version}: ${JSON.stringify(composed)}`);
            const change = JSON.parse(composed.body.toString("utf8"));
            for (const cc of country(v)) {
              const before = collectionOf(u.version, cc);
              const after = applyChange(before, change.countries[cc], change.countries[cc].meta);
              expect(text(after) === collections.get(`${v.version}|${cc}`), `${u.version} → ${v.version} ${cc}`).toBe(
                true,
              );
            }
            pairs++;
          }
        }
      }
      expect(pairs).toBeGreaterThan(c.minPairs);
    }, 600_000);

    it("catches a client up through the origin from every version of each day to its live one", async () => {
      for (const day of await record.days()) {
        const chain = await record.chain(day);
        const live = chain.at(-1)!;
        for (const u of chain.slice(0, -1)) {
          const r = await get(`/v1/data/changes?countries=${country(live).join(",")}&since=${u.version}&day=${day}`);
          expect(r.status).toBe(200);
          expect(r.headers["x-data-version"]).toBe(live.version);
          const change = json(r.body);
          for (const cc of country(live)) {
            const before = collectionOf(u.version, cc);
            expect(text(applyChange(before, change.countries[cc], change.countries[cc].meta))).toBe(
              collections.get(`${live.version}|${cc}`),
            );
          }
        }
        expect((await get(`/v1/data/changes?countries=GB&since=${live.version}&day=${day}`)).status).toBe(304);
      }
    }, 300_000);

    it("answers ?at= with the version live then, at 20 instants across the weekend", async () => {
      const first = Date.parse(runs[0]!.now);
      const last = Date.parse(runs.at(-1)!.now) + 30 * 60_000;
      for (let k = 0; k < 20; k++) {
        const at = first + Math.floor(((last - first) * k) / 19);
        const live = runs.filter((r) => Date.parse(r.now) <= at).at(-1)!.versions[0]!.version;
        const iso = new Date(at).toISOString();
        const r = await get(`/v1/data/airspaces?countries=GB&at=${iso}`);
        expect([iso, r.status, r.headers["x-data-version"]]).toEqual([iso, 200, live]);
      }
    }, 120_000);

    it("keeps, after retention has left each day's first collections only, every version answerable and exact", async () => {
      const local = new LocalStore(store);
      const later = Date.parse(runs.at(-1)!.now) + 30 * 86_400_000;
      await collectGarbage(local, { now: later, keepMs: 86_400_000 });
      await collectGarbage(local, { now: later + 2 * 3_600_000, keepMs: 86_400_000 });
      const fresh = new DayRecord(local, "v1");
      let rebuilt = 0;
      for (const day of await fresh.days()) {
        for (const m of await fresh.chain(day)) {
          for (const cc of country(m)) {
            if (!(await local.head(m.countries[cc]!.key))) rebuilt++;
            expect(text(await fresh.collection(m, cc))).toBe(collections.get(`${m.version}|${cc}`));
          }
        }
      }
      expect(rebuilt).toBeGreaterThanOrEqual(c.minRebuilt);
    }, 300_000);

    it("lists a danger area's activations over the weekend with `history`", async () => {
      if (!c.history) return void expect(runs.length).toBe(3);
      // a danger area whose state changed during the weekend, found in the change sets
      const changed = new Set<string>();
      for (const day of await record.days()) {
        for (const m of await record.chain(day)) {
          const c = m.countries.GB?.changes;
          if (!c) continue;
          const set = json(readFileSync(path.join(store, c.key)));
          for (const f of set.changed) if (f.properties.type === 2) changed.add(f.properties._id);
        }
      }
      expect(changed.size).toBeGreaterThan(0);
      const id = [...changed].sort()[0]!;
      const from = `${runs[0]!.now.slice(0, 10)}T00:00:00Z`;
      const r = await cli([
        "history",
        "--store",
        store,
        "--id",
        id,
        "--from",
        from,
        "--to",
        `${runs.at(-1)!.now.slice(0, 10)}T23:59:59Z`,
        "--json",
      ]);
      expect(r.code, r.err).toBe(0);
      const entries = JSON.parse(r.out).entries as Array<{ version: string; isActive: string; day: string }>;
      expect(entries.length).toBeGreaterThan(c.history.entries);
      expect(new Set(entries.map((e) => e.day)).size).toBeGreaterThanOrEqual(c.history.days);
      for (const e of entries) expect(e.version).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    }, 120_000);

    it("serves tomorrow beside today: ?day=tomorrow at an instant after 15:00 UTC", async () => {
      const afternoon = runs.find((r) => r.versions.length === 2);
      if (!afternoon) return void expect(c.afternoon).toBe(false);
      const at = new Date(Date.parse(afternoon.now) + 60_000).toISOString();
      const today = await get(`/v1/data/airspaces?countries=GB&at=${at}`);
      const tomorrow = await get(`/v1/data/airspaces?countries=GB&day=tomorrow&at=${at}`);
      expect(today.headers["x-data-version"]).toBe(afternoon.versions[0]!.version);
      expect(tomorrow.headers["x-data-version"]).toBe(afternoon.versions[1]!.version);
    });

    const openairTitle = c.parseOpenAir
      ? "writes OpenAir that openAIP's reader takes, AA being the intervals"
      : "serves the day's OpenAir as published, a block for every feature not No (openAIP's reader: openair.test.ts)";
    it(openairTitle, async () => {
      const last = runs.at(-1)!.versions[0]!;
      const r = await get(`/v1/data/airspaces.openair?countries=GB&day=${last.date}`);
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
      const text = gunzipSync(r.body);
      const features = JSON.parse(collections.get(`${last.version}|GB`)!).features;
      const yes = features.filter(
        (f: { properties: { vendor: { dynamicAirspaceMapping: { isActive: string } } } }) =>
          f.properties.vendor.dynamicAirspaceMapping.isActive !== "No",
      );
      if (!c.parseOpenAir) {
        // the reader's own run over the UK's OpenAir (~25 s of CPU) is test/publish/openair.test.ts's
        const manifest = (await record.chain(last.date)).find((m) => m.version === last.version)!;
        const stored = await new LocalStore(store).get(manifest.countries.GB!.openair!.key);
        expect(text.equals(gunzipSync(stored!))).toBe(true);
        expect(text.toString("utf8").match(/^AC /gm)?.length ?? 0).toBeGreaterThanOrEqual(yes.length);
        return;
      }
      const file = path.join(tempDir("replay-openair-"), "gb.openair");
      writeFileSync(file, text);
      const parser = new Parser({ version: "2.0" });
      const parsed = await parser.parse(file);
      expect(parsed.success, JSON.stringify(parsed).slice(0, 300)).toBe(true);
      expect(parser.toGeojson().features.length).toBeGreaterThanOrEqual(yes.length);
    }, 120_000);

    it("keeps clients of today and tomorrow (src/client) byte-identical to the live collections after every version, by change sets", async () => {
      // the replayed store, each run's pointers moved in turn (today's, then tomorrow's when the run published it),
      // served by an origin of its own; a client of each day with one storage, and one of today with its own
      const mirror = tempDir("replay-client-");
      cpSync(pristine, mirror, { recursive: true });
      let skew = 0;
      const served = await serve({ store: mirror, tokens }, () => Date.now() + skew);
      const storage = memoryStorage();
      const make = (day: "today" | "tomorrow", s = storage) =>
        createClient({ endpoint: served.url, token, countries: ["GB"], day, storage: s });
      const clients = { today: make("today"), tomorrow: make("tomorrow"), alone: make("today", memoryStorage()) };
      const tally = { syncs: 0, full: 0, bytes: 0, fullBytes: 0, midnights: 0, aloneFull: 0 };
      let heldDay = "";
      try {
        for (const run of runs) {
          for (const [i, { version, date }] of run.versions.entries()) {
            const day = i === 0 ? "today" : "tomorrow";
            movePointers(mirror, version, day === "today");
            await served.refresh();
            // the origin re-reads a day's pointer other than today's once 5 s have passed on its clock
            skew += 10_000;
            const r = await clients[day].sync();
            const live = collections.get(`${version}|GB`)!;
            const held = await storage.load(keyOf("GB", day));
            expect([version, held?.text === live, held?.day]).toEqual([version, true, date]);
            expect(r.version).toBe(version);
            tally.syncs++;
            tally.bytes += r.bytes;
            tally.fullBytes += live.length;
            if (r.full) tally.full++;
            // a new day taken from tomorrow's chain, not downloaded again
            if (day === "today" && heldDay && date > heldDay && !r.full) tally.midnights++;
            if (day === "today") {
              heldDay = date;
              const alone = await clients.alone.sync();
              if (alone.full) tally.aloneFull++;
              expect((await clients.alone.collection("GB"))?.meta).toEqual(JSON.parse(live).meta);
            }
          }
        }
      } finally {
        await served.close();
      }
      // activity within the day held, and Unknown outside it (nothing published says what it is then)
      const inside = await clients.today.activeAt(`${heldDay}T12:00:00Z`, { band: { lowerFt: 0, upperFt: 5000 } });
      expect(inside.filter((x) => x.active === "Yes").length).toBeGreaterThan(0);
      expect(inside.filter((x) => x.active === "No").length).toBeGreaterThan(0);
      const after = await clients.today.activeAt(Date.parse(`${heldDay}T00:00:00Z`) + 86_400_000);
      expect(after.length).toBe(inside.length);
      expect(after.every((x) => x.active === "Unknown")).toBe(true);
      // one full download per day's chain: a day published as tomorrow first goes on by change sets after midnight
      // (else the client would download it twice); a client of today alone downloads in full at each new day (410)
      const days = [...new Set(runs.flatMap((r) => r.versions.map((v) => v.date)))];
      const tomorrows = new Set(runs.flatMap((r) => r.versions.slice(1).map((v) => v.date)));
      const todays = new Set(runs.map((r) => r.versions[0]!.date));
      expect(tally.syncs).toBe(runs.reduce((n, r) => n + r.versions.length, 0));
      expect(tally.full).toBe(days.length);
      expect(tally.midnights).toBe([...todays].filter((d) => tomorrows.has(d)).length);
      expect(tally.aloneFull).toBe(todays.size);
      expect(tally.bytes).toBeLessThan(tally.fullBytes);
      console.log(
        `client over ${tally.syncs} versions of ${days.length} days: ${tally.full} full downloads, ${tally.midnights} ` +
          `midnights by change sets; ${(tally.bytes / 1024).toFixed(0)} KiB read against ` +
          `${(tally.fullBytes / 1024).toFixed(0)} KiB of full downloads (${((100 * tally.bytes) / tally.fullBytes).toFixed(1)} %)`,
      );
    }, 900_000);

    it("refuses a change set altered on the wire (a full download follows) and keeps what it holds when a body is cut", async () => {
      const mirror = tempDir("replay-client-faults-");
      cpSync(pristine, mirror, { recursive: true });
      const served = await serve({ store: mirror, tokens });
      const alter: { current: Alter } = { current: (_, b) => b };
      const wire = await proxy(served.url, alter);
      const storage = memoryStorage();
      const client = createClient({ endpoint: wire.url, token, countries: ["GB"], storage });
      const point = async (version: string) => {
        movePointers(mirror, version);
        await served.refresh();
      };
      // the day with most runs (the weekend's first has one only)
      const today = (d: string) => runs.filter((r) => r.versions[0]!.date === d).map((r) => r.versions[0]!.version);
      const days = [...new Set(runs.map((r) => r.versions[0]!.date))];
      const day = days.reduce((best, d) => (today(d).length > today(best).length ? d : best));
      const [a, b, c3] = today(day);
      try {
        await point(a!);
        expect((await client.sync()).full).toBe(true);
        // the change to b with one more feature removed than the service says
        await point(b!);
        const held = JSON.parse((await storage.load("GB"))!.text) as FeatureCollection;
        alter.current = (at, body) => {
          if (!at.startsWith("/v1/data/changes")) return body;
          const answer = JSON.parse(body.toString("utf8"));
          answer.countries.GB.removed.push(held.features[0]!.properties._id);
          return Buffer.from(JSON.stringify(answer));
        };
        const refused = await client.sync();
        expect(refused.full).toBe(true);
        expect((await storage.load("GB"))!.text).toBe(collections.get(`${b}|GB`));
        // a change answer cut halfway: an error naming the URL, and b held as it was
        alter.current = (at, body) => (at.startsWith("/v1/data/changes") ? "cut" : body);
        await point(c3 ?? b!);
        if (c3) {
          const error = await client.sync().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ClientError);
          expect((error as ClientError).message).toContain(`${wire.url}/v1/data/changes?countries=GB&since=${b}`);
          expect((await storage.load("GB"))!.text).toBe(collections.get(`${b}|GB`));
        }
        // a full download cut halfway, from nothing: an error, nothing held
        alter.current = (at, body) => (at.startsWith("/v1/data/airspaces") ? "cut" : body);
        const empty = memoryStorage();
        const fresh = createClient({ endpoint: wire.url, token, countries: ["GB"], storage: empty });
        await expect(fresh.sync()).rejects.toThrow(/v1\/data\/airspaces\?countries=GB: the body was cut/);
        expect(await empty.load("GB")).toBeUndefined();
        // a wrong token: one clear error
        alter.current = (_, body) => body;
        const stranger = createClient({ endpoint: wire.url, token: "asp_wrong", countries: ["GB"] });
        await expect(stranger.sync()).rejects.toThrow(/refused the token \(401\)/);
      } finally {
        await wire.close();
        await served.close();
      }
    }, 300_000);

    it("answers bad since, at and day with RFC 9457 problems, never a 500", async () => {
      const day = runs.at(-1)!.versions[0]!.date;
      // a version of another day (the weekend's first; the bundled copies are all of one day)
      const otherDay = runs.flatMap((r) => r.versions).find((v) => v.date !== day);
      if (c.history) expect(otherDay, "a replay over several days has a version of another day").toBeDefined();
      const cases: Array<[string, number, string]> = [
        [`/v1/data/changes?countries=GB&since=yesterday`, 400, "since-malformed"],
        [`/v1/data/changes?countries=GB&since=20240101T000000Z-00000000&day=${day}`, 410, "since-gone"],
        ...(otherDay
          ? [
              [`/v1/data/changes?countries=GB&since=${otherDay.version}&day=${day}`, 410, "since-gone"] as [
                string,
                number,
                string,
              ],
            ]
          : []),
        [`/v1/data/changes?countries=GB&day=${day}`, 400, "since-malformed"],
        ["/v1/data/airspaces?countries=GB&at=yesterday", 400, "at-malformed"],
        ["/v1/data/airspaces?countries=GB&at=2999-01-01T00:00:00Z", 400, "at-future"],
        ["/v1/data/airspaces?countries=GB&at=2000-01-01T00:00:00Z", 404, "nothing-live-then"],
        ["/v1/data/airspaces?countries=GB&day=someday", 400, "day-malformed"],
        ["/v1/data/airspaces?countries=GB&day=2030-01-01", 404, "day-not-published"],
        ["/v1/data/airspaces?countries=GB&day=today&day=tomorrow", 400, "day-repeated"],
        ["/v1/data/changes?countries=GB&since=x&at=2024-06-15T10:00:00Z", 400, "changes-at"],
      ];
      for (const [target, status, slug] of cases) {
        const r = await request(origin.url, target, { Authorization: `Bearer ${token}` });
        expect([target, r.status, r.headers["content-type"]]).toEqual([target, status, "application/problem+json"]);
        expect(JSON.parse(r.body.toString()).type).toBe(`urn:airspace-publisher:problem:${slug}`);
      }
      const notPublished = await request(origin.url, "/v1/data/airspaces?countries=GB&day=2030-01-01", {
        Authorization: `Bearer ${token}`,
      });
      expect(JSON.parse(notPublished.body.toString()).detail).toContain(day);
    });
  });
}
