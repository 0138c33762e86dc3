// `run` against a real HTTP server on loopback serving the real UK files of fixtures/uk (YAIXM airspace and services,
// the NATS PIB XML) with ETag and Last-Modified (issue 16 §3). Each fault is injected on one path and gives its
// documented outcome (docs/design.md §4, docs/activation.md §2):
// - a NOTAM feed answering 500, hanging past its timeout or cut off mid-body: its last good copy, stale, and the
//   NOTAM-activated areas it would have made `No` become `Unknown`;
// - a 503 that clears: tried again with backoff, fresh;
// - a feed whose content is a day old (as-of from the PIB's own Issued): stale, `Unknown`;
// - a required airspace source that fails with no last good copy: exit 1, one line, the live version untouched.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import type { RunReport } from "../../src/report.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { io } from "./io.js";

const UK = path.join(FIXTURES, "uk");
const FILES: Record<string, Buffer> = {
  "/gb_airspace.yaml": readFileSync(path.join(UK, "gb_airspace_2026-06.yaml")),
  "/gb_service.yaml": readFileSync(path.join(UK, "gb_service_2026-06.yaml")),
  "/pib.xml.gz": readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz")),
};
const LAST_MODIFIED = "Sat, 22 Aug 2026 11:16:00 GMT";
type Mode = "ok" | "500" | "hang" | "cut" | "flaky";
const mode: Record<string, Mode> = {};
const seen: Array<{ path: string; ifNoneMatch?: string }> = [];

let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    seen.push({
      path: p,
      ...(req.headers["if-none-match"] ? { ifNoneMatch: String(req.headers["if-none-match"]) } : {}),
    });
    const body = FILES[p];
    if (!body) return void res.writeHead(404).end("not found");
    const etag = `"${body.length}"`;
    const m = mode[p] ?? "ok";
    if (m === "500") return void res.writeHead(500).end("boom");
    if (m === "flaky") {
      mode[p] = "ok";
      return void res.writeHead(503).end("busy");
    }
    if (m === "hang") return void setTimeout(() => res.destroyed || res.writeHead(200).end(body), 5_000).unref();
    if (m === "cut") {
      res.writeHead(200, { "content-length": body.length, etag: '"other"' });
      return void res.write(body.subarray(0, body.length >> 1), () => res.destroy());
    }
    if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { "content-length": body.length, etag, "last-modified": LAST_MODIFIED }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function config(airspace = "/gb_airspace.yaml", name = "gb-yaixm"): string {
  const file = path.join(tempDir("run-real-cfg-"), "sources.json");
  const sources = [
    { name, kind: "airspace", url: `${base}${airspace}`, country: "GB", maxAgeMinutes: 1440 },
    { name: "gb-services", kind: "airspace", url: `${base}/gb_service.yaml`, country: "GB", maxAgeMinutes: 1440 },
    { name: "uk-pib", kind: "notam", url: `${base}/pib.xml.gz`, timeoutMs: 1_000 },
  ];
  writeFileSync(file, JSON.stringify({ schema: 1, sources }));
  return file;
}

async function run(store: string, cfg: string, at = "2026-08-22T11:20:00Z") {
  const t = io();
  const report = path.join(store, "report.json");
  const code = await main(["run", "--config", cfg, "--store", store, "--report", report], {
    ...t.io,
    now: () => Date.parse(at),
  });
  const r = code === 0 ? (JSON.parse(readFileSync(report, "utf8")) as RunReport) : undefined;
  return { code, out: t.out(), err: t.err(), report: r };
}

/** What a feature of the report's publication says: read back from the store's EUROPE is heavy; the report's
 * activity counts per status are enough to see `No` turn into `Unknown`. */
const counts = (r: RunReport) => r.activity.isActive;

let good: RunReport;
const store = tempDir("run-real-store-");

describe("run over HTTP with the real UK files", () => {
  it("publishes the UK: PIB as-of time from its content, its FIRs as coverage, NOTAM-activated areas No or Yes", async () => {
    const r = await run(store, config());
    expect(r.code, r.err).toBe(0);
    good = r.report!;
    expect(good.countries.GB!.airspaces).toBeGreaterThan(1000);
    const pib = good.sourceStates.notam[0]!;
    expect(pib).toMatchObject({ name: "uk-pib", standing: "fresh" });
    expect(new Date(pib.asOf!).toISOString()).toBe("2026-08-22T11:00:15.000Z");
    expect([...pib.coverage].sort()).toEqual(["EGGX", "EGPX", "EGTT"]);
    expect(good.activity.activationType.isActivatedByNOTAMAirspace).toBeGreaterThan(0);
    // without --quiet the run ends with publish's short summary
    expect(r.out).toMatch(
      /\n {2}GB +\d+ features: \d+ airspaces, \d+ graphical NOTAMs \(\d+ by evidence, \d+ by default\)\n/,
    );
    expect(r.out).toMatch(/\n {2}sources: uk-pib fresh\n/);
    expect(counts(good).No).toBeGreaterThan(50);
  }, 60_000);

  it("asks again conditionally: the unchanged files answer 304 and the run publishes the same", async () => {
    seen.length = 0;
    const r = await run(store, config());
    expect(r.code, r.err).toBe(0);
    expect(
      seen
        .filter((s) => s.ifNoneMatch)
        .map((s) => s.path)
        .sort(),
    ).toEqual(["/gb_airspace.yaml", "/gb_service.yaml", "/pib.xml.gz"]);
    expect(counts(r.report!)).toEqual(counts(good));
  }, 60_000);

  it.each([
    ["500", "http: HTTP 500"],
    ["hang", "timeout: no whole answer within 1000 ms"],
    ["cut", "incomplete"],
  ] as const)(
    "a PIB answering %s: its last good copy, stale; no area is No for want of a NOTAM",
    async (m, why) => {
      mode["/pib.xml.gz"] = m;
      try {
        const r = await run(store, config());
        expect(r.code, r.err).toBe(0);
        expect(r.out).toMatch(/sources: uk-pib stale \(its fetch failed; this is the last good copy\)/);
        expect(r.err).toContain(why);
        const now = counts(r.report!);
        // every No of the fresh run that rested on the PIB's silence is Unknown now
        expect(now.No).toBeLessThan(counts(good).No!);
        expect(now.Unknown).toBe((counts(good).Unknown ?? 0) + (counts(good).No! - now.No!));
      } finally {
        mode["/pib.xml.gz"] = "ok";
      }
    },
    60_000,
  );

  it("a 503 that clears is tried again with backoff: fresh", async () => {
    mode["/pib.xml.gz"] = "flaky";
    seen.length = 0;
    const r = await run(store, config());
    expect(r.code, r.err).toBe(0);
    expect(seen.filter((s) => s.path === "/pib.xml.gz").length).toBe(2);
    expect(r.out).toMatch(/sources: uk-pib fresh/);
    expect(counts(r.report!)).toEqual(counts(good));
  }, 60_000);

  it("a PIB whose own Issued time is a day old is stale whatever the fetch says: Unknown, never No", async () => {
    const r = await run(tempDir("run-real-late-"), config(), "2026-08-23T11:20:00Z");
    expect(r.code, r.err).toBe(0);
    expect(r.report!.sourceStates.notam[0]).toMatchObject({ name: "uk-pib", standing: "stale" });
    expect(r.out, r.out).toMatch(/sources: uk-pib stale \(/);
    expect(r.report!.activity.activationType.isNotActiveAirspace ?? 0).toBeLessThan(
      good.activity.activationType.isNotActiveAirspace!,
    );
  }, 60_000);

  it("a required airspace source failing with no last good copy: exit 1, one line, the live version untouched", async () => {
    const pointer = readFileSync(path.join(store, "v1", "current.json"));
    // a new source (its own name, so no last good copy of it yet) whose URL answers 404
    const r = await run(store, config("/gb_airspace_moved.yaml", "gb-yaixm-2026"));
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n").at(-1)).toMatch(
      /^airspace-publisher: source "gb-yaixm-2026": http: HTTP 404 Not Found .*no last good copy to fall back on$/,
    );
    expect(readFileSync(path.join(store, "v1", "current.json")).equals(pointer)).toBe(true);
  }, 60_000);
});
