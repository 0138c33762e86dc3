// `run` and `republish` against a real HTTP server on loopback serving the sources: the scheduled job's
// path from fetching to the published version, and the stale fallback when a feed fails.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { runCommand } from "../../jobs/commands/run.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { io } from "./io.js";

let server: Server;
let base = "";
let notamsDown = false;
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
    // and the internal static tier (DESIGN §5): the airspaces alone, meta.tier static
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
