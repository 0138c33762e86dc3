// `run` and `republish` against a real HTTP server on loopback serving the sources: the scheduled job's
// path from fetching to the published version, and the stale fallback when a feed fails.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { runCommand } from "../../jobs/commands/run.js";
import { utcDay } from "../../src/model/time.js";
import { DayRecord } from "../../src/publish/record.js";
import { LocalStore } from "../../src/store/local-store.js";
import { checkArchive } from "../../src/tiles/check.js";
import { openArchive } from "../../src/tiles/read-back.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { io } from "./io.js";

let server: Server;
let base = "";
let notamsDown = false;
/** Whether the EAUP for tomorrow is out yet (15:00 UTC in summer). */
let tomorrowOut = false;
const ebr04 = readFileSync(path.join(FIXTURES, "decision", "aup-and-notam", "airspace.geojson"));
const rsa = readFileSync(path.join(FIXTURES, "aup-csv", "eaup_rsa_2022-02-23T0959Z.csv"));
const airspace = readFileSync(path.join(FIXTURES, "pipeline", "de-mixed", "de_asp.geojson"));
const notams = readFileSync(path.join(FIXTURES, "notam", "uk-pib.jsonl"));

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/de_asp.geojson")
      res.writeHead(200, { "content-type": "application/geo+json", "content-length": airspace.length }).end(airspace);
    else if (req.url === "/notams.jsonl" && !notamsDown)
      // a live feed: its Last-Modified is the as-of time of JSON lines, which state none themselves
      res
        .writeHead(200, { "content-length": notams.length, "last-modified": "Mon, 14 Sep 2026 09:45:00 GMT" })
        .end(notams);
    else if (req.url === "/ebr04.geojson") res.writeHead(200, { "content-length": ebr04.length }).end(ebr04);
    else if (req.url === "/rsa-today.csv")
      res.writeHead(200, { "last-modified": "Wed, 23 Feb 2022 09:59:00 GMT" }).end(rsa);
    else if (req.url === "/rsa-tomorrow.csv" && tomorrowOut)
      // the NM table for D+1: the same allocations, issued at 15:10
      res.writeHead(200, { "last-modified": "Wed, 23 Feb 2022 15:10:00 GMT" }).end(rsa);
    else if (req.url === "/rsa-tomorrow.csv") res.writeHead(404).end();
    else res.writeHead(503).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function config(): string {
  const file = path.join(tempDir(), "sources.json");
  const text = JSON.stringify({
    schema: 1,
    sources: [
      { name: "de", kind: "airspace", url: `${base}/de_asp.geojson`, country: "DE" },
      { name: "notams", kind: "notam", url: `${base}/notams.jsonl`, firs: ["EDGG", "EDMM", "EDWW"] },
    ],
  });
  writeFileSync(file, text);
  return file;
}

describe("run / republish", () => {
  it("from 15:00 UTC publishes tomorrow too: its AUP-managed areas Unknown until the EAUP for tomorrow is out", async () => {
    const store = tempDir();
    const cfg = path.join(tempDir(), "sources.json");
    writeFileSync(
      cfg,
      JSON.stringify({
        schema: 1,
        sources: [
          { name: "be", kind: "airspace", url: `${base}/ebr04.geojson`, country: "BE" },
          { name: "eaup", kind: "aup", url: `${base}/rsa-today.csv`, aupDay: "today" },
          { name: "eaup-tomorrow", kind: "aup", url: `${base}/rsa-tomorrow.csv`, aupDay: "tomorrow" },
        ],
      }),
    );
    const deps = { fetch: globalThis.fetch, env: {} };
    const record = new DayRecord(new LocalStore(store), "v1");
    const ebr04State = async (date: string) => {
      const m = (await record.head(date))!;
      const f = (await record.collection(m, "BE")).features[0]!;
      const d = f.properties.vendor.dynamicAirspaceMapping;
      return [d.isActive, d.airspaceActivationTimes.map((t) => `${t.start}/${t.end}`)];
    };
    const run = async (now: string) => {
      const t = io();
      const flags = { config: cfg, store, date: "2022-02-23", now, tomorrow: "auto" };
      expect(await runCommand(flags, t.io, deps), t.err()).toBe(0);
      return t;
    };
    // 14:45: today only, and tomorrow's table is not even asked for
    const morning = await run("2022-02-23T14:45:00Z");
    expect(morning.out()).toMatch(/live: today 2022-02-23 \S+, tomorrow not published by this run/);
    expect(await record.head("2022-02-24")).toBeUndefined();
    // 15:30, the table for tomorrow still 404: tomorrow is published, EBR04 Unknown on it; no error
    const early = await run("2022-02-23T15:30:00Z");
    expect(early.err()).toMatch(/source unavailable.*eaup-tomorrow/);
    expect(early.out()).toMatch(/live: today 2022-02-23 \S+, tomorrow 2022-02-24 \S+/);
    expect(await ebr04State("2022-02-24")).toEqual(["Unknown", []]);
    expect((await ebr04State("2022-02-23"))[0]).toBe("Yes");
    // 15:45, the table is out: tomorrow's EBR04 is decided by it, 09:00-22:00 UTC on the 24th
    tomorrowOut = true;
    await run("2022-02-23T15:45:00Z");
    expect(await ebr04State("2022-02-24")).toEqual(["Yes", ["2022-02-24T09:00:00Z/2022-02-24T22:00:00Z"]]);
    tomorrowOut = false;
  });

  it("with --tiles publishes vector tiles for today and, from 15:00 UTC, for tomorrow, with the day's activation", async () => {
    const store = tempDir();
    const t = io();
    const flags = {
      config: config(),
      store,
      date: "2025-06-20",
      now: "2025-06-20T15:30:00Z",
      tomorrow: "yes",
      tiles: true,
    };
    expect(await runCommand(flags, t.io, { fetch: globalThis.fetch, env: {} }), t.err()).toBe(0);
    const local = new LocalStore(store);
    const record = new DayRecord(local, "v1");
    for (const date of ["2025-06-20", "2025-06-21"]) {
      const m = (await record.head(date))!;
      expect(m.tiles, date).toBeDefined();
      const archive = await openArchive((await local.get(m.tiles!.key))!);
      const features = Object.keys(m.countries).length
        ? (await Promise.all(Object.keys(m.countries).map((cc) => record.collection(m, cc)))).flatMap((c) => c.features)
        : [];
      const r = await checkArchive(archive, features, utcDay(date)!);
      expect([r.missing, r.extra, r.properties, r.farther], date).toEqual([[], [], [], []]);
    }
  });

  it("fetches the sources and publishes; a failed feed falls back to its last good copy, marked stale", async () => {
    const store = tempDir();
    const cfg = config();
    const deps = { fetch: globalThis.fetch, env: {} };
    const t = io();
    expect(
      await runCommand(
        { config: cfg, store, date: "2026-09-14", now: "2026-09-14T09:50:00Z", quiet: true },
        t.io,
        deps,
      ),
    ).toBe(0);
    expect(t.out()).toMatch(/sources: notams fresh\n/);
    // and the internal static tier (docs/design.md §5): the airspaces alone, meta.tier static
    const staticPointer = JSON.parse(readFileSync(path.join(store, "internal/static/v1/current.json"), "utf8"));
    const staticManifest = JSON.parse(readFileSync(path.join(store, staticPointer.manifest), "utf8"));
    expect([staticManifest.tier, staticManifest.date, Object.keys(staticManifest.countries)]).toEqual([
      "static",
      "2026-09-14",
      ["DE"],
    ]);
    notamsDown = true;
    const u = io();
    expect(
      await runCommand(
        { config: cfg, store, date: "2026-09-14", now: "2026-09-14T09:55:00Z", quiet: true },
        u.io,
        deps,
      ),
    ).toBe(0);
    expect(u.out()).toMatch(/sources: notams stale \(its fetch failed; this is the last good copy\)/);
    expect(u.err()).toMatch(/source stale/);
    // the scheduled run keeps the shadow path: its status document is public and carries no ids
    const s = io();
    expect(await main(["status", "--store", store, "--json"], s.io)).toBe(0);
    const doc = JSON.parse(s.out());
    expect(doc).toMatchObject({ status: "healthy", bootstrap: { state: "complete" }, parity: { state: "ok" } });
    expect(s.out()).not.toMatch(/67dbee0fa7f2a48e4ee05187|internal\//);
    // people read text by default
    const h = io();
    expect(await main(["status", "--store", store], h.io)).toBe(0);
    expect(h.out()).toMatch(
      /^healthy\n {2}published 2026-09-14T09:55:00Z \(\d+ (s|min) ago\), version 20260914T095500Z-/,
    );
    expect(h.out()).toMatch(/\n {2}bootstrap complete: (\d+) of \1 features loaded\n/);
    notamsDown = false;
  });

  it("republish needs --date; a bad config is bad usage", async () => {
    expect(await main(["republish", "--config", config()], io().io)).toBe(2);
    const t = io();
    expect(await main(["run", "--config", "/nonexistent.json"], t.io)).toBe(2);
    expect(t.err()).toMatch(/--config: cannot read/);
  });

  it("a broken sources config exits 2 with one line naming the file and the field, and writes nothing", async () => {
    const dir = tempDir("bad-config-");
    const cases: Array<[string, string, RegExp]> = [
      ["no-schema.json", JSON.stringify({ sources: [] }), /: schema: expected 1 /],
      ["not-json.json", "{not json", /: \(file\): expected JSON, received /],
      [
        "bad-url.json",
        JSON.stringify({ schema: 1, sources: [{ name: "x", kind: "notam", url: "ftp://a" }] }),
        /: sources\[0\]\.url: expected an absolute http\(s\) URL, received "ftp:\/\/a"/,
      ],
    ];
    for (const [name, text, field] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const store = path.join(dir, `store-${name}`);
      for (const command of ["run", "republish"]) {
        const t = io();
        expect(await main([command, "--config", file, "--store", store, "--date", "2026-09-14"], t.io)).toBe(2);
        const lines = t.err().trimEnd().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(`^airspace-publisher: --config ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
        );
        expect(lines[0]).toMatch(field);
      }
      expect(existsSync(store)).toBe(false);
    }
  });
});
