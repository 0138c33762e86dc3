// `watch` under faults, with real processes (the built CLI) and a real HTTP server on loopback serving the real UK
// files of fixtures/uk: two watchers on one store never publish at once (the store's publisher lease); a watcher
// killed with SIGKILL in the middle of a publication leaves the store whole, and restarted, publishes the next change;
// SIGTERM finishes the publication under way. On a clock it is given (`--clock`): tomorrow from 15:00 UTC, the
// rollover at 00:00 UTC, a briefing ageing into stale on time. Sources that fail for ten minutes: watch-soak.test.ts.
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/report.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { manifestOf, said, startWatcher, until, type Watcher, whole } from "./watchers.js";

const UK = path.join(FIXTURES, "uk");
const PIB = gunzipSync(readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz"))).toString("utf8");
/** The briefing as issued at `hh`:00: the same NOTAMs, another `Issued`. */
const issue = (hh: number) =>
  gzipSync(PIB.replace(/<Issued>[^<]*<\/Issued>/, `<Issued>2026-08-22T${hh}:00:15+00:00</Issued>`));
const FILES: Record<string, Buffer> = {
  "/gb_airspace.yaml": readFileSync(path.join(UK, "gb_airspace_2026-06.yaml")),
  "/gb_service.yaml": readFileSync(path.join(UK, "gb_service_2026-06.yaml")),
  "/pib.xml.gz": issue(11),
};

let server: Server;
let config = "";
let seed = "";
const running: ChildProcess[] = [];

const watcherOn = (store: string, ...more: string[]) => startWatcher(config, store, running, ...more);

beforeAll(async () => {
  server = createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    const body = FILES[p];
    if (!body) return void res.writeHead(404).end();
    const etag = `"${body.length}-${body.subarray(-16).toString("hex")}"`;
    if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { "content-length": body.length, etag }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config = path.join(tempDir("watch-faults-cfg-"), "sources.json");
  const sources = [
    { name: "gb-yaixm", kind: "airspace", url: `${base}/gb_airspace.yaml`, country: "GB", maxAgeMinutes: 1e6 },
    { name: "gb-services", kind: "airspace", url: `${base}/gb_service.yaml`, country: "GB", maxAgeMinutes: 1e6 },
    { name: "uk-pib", kind: "notam", url: `${base}/pib.xml.gz`, pollSeconds: 0.5, timeoutMs: 1_000 },
  ];
  writeFileSync(config, JSON.stringify({ schema: 1, sources }));
  // the store a watcher leaves once it has published the briefing of 11:00 (on the machine's clock), copied for each
  // test below that starts from it: their watchers' first publication then reuses it, as a restarted watcher does
  FILES["/pib.xml.gz"] = issue(11);
  seed = tempDir("watch-faults-seed-");
  const w = watcherOn(seed);
  await until(() => said(w, "publication done").length === 1, 90_000, "the seed's publication");
  const exited = new Promise((r) => w.child.once("exit", r));
  w.child.kill("SIGTERM");
  await exited;
}, 120_000);

/** A store holding the seed's publication of the briefing of 11:00. */
function seeded(prefix: string): string {
  const store = tempDir(prefix);
  cpSync(seed, store, { recursive: true });
  return store;
}

afterAll(async () => {
  for (const c of running) c.kill("SIGKILL");
  server?.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("watch under faults", () => {
  it("two watchers on one store: never two publications at once, and the last briefing is published", async () => {
    FILES["/pib.xml.gz"] = issue(11);
    const store = seeded("watch-two-");
    const [a, b] = [watcherOn(store), watcherOn(store)];
    const done = () => said(a, "publication done").length + said(b, "publication done").length;
    await until(() => done() >= 1, 90_000, "a first publication");
    for (const hh of [12, 13, 14]) {
      const before = done();
      FILES["/pib.xml.gz"] = issue(hh);
      await until(() => done() > before, 60_000, `the briefing of ${hh}:00 published`);
    }
    // each watcher's holds of the store's publisher lease, as [from, to], both taken inside the hold: none of one
    // overlaps one of the other (the log's "publishing" comes before the lease is asked for, so spans from it may)
    const spans = (w: Watcher) =>
      said(w, "publisher lease released").map(
        (l) => [Date.parse(String(l.heldFrom)), Date.parse(String(l.heldTo))] as const,
      );
    const [sa, sb] = [spans(a), spans(b)];
    expect(sa.length + sb.length).toBeGreaterThanOrEqual(4);
    for (const [s1, e1] of sa) for (const [s2, e2] of sb) expect(e1 <= s2 || e2 <= s1, "overlapping").toBe(true);
    const waited = [
      ...said(a, "store held by another publisher; waiting"),
      ...said(b, "store held by another publisher; waiting"),
    ];
    expect(waited.every((l) => /^watch on .*, pid \d+/.test(String(l.holder)))).toBe(true);
    // the live version is whole and, once both have asked again, made of the last briefing
    const last = createHash("sha256").update(FILES["/pib.xml.gz"]!).digest("hex");
    const liveSha = () => {
      const manifest = manifestOf(store, whole(store));
      return manifest.sources["uk-pib"]!.sha256;
    };
    await until(() => liveSha() === last, 30_000, "the last briefing live");
    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
  }, 300_000);

  it("SIGKILL in the middle of a publication leaves the store whole; restarted, the watcher publishes the next change", async () => {
    FILES["/pib.xml.gz"] = issue(11);
    const store = seeded("watch-kill-");
    const first = watcherOn(store);
    await until(() => said(first, "publication done").length === 1, 90_000, "the first publication");
    const v1 = whole(store);
    FILES["/pib.xml.gz"] = issue(12);
    await until(() => said(first, "publishing").length === 2, 30_000, "the second publication begun");
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 400));
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    // the version live after the kill, the first or the one the killed run switched to, is whole
    expect(whole(store)).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    FILES["/pib.xml.gz"] = issue(13);
    const second = watcherOn(store);
    await until(() => said(second, "publication done").length >= 1, 90_000, "a publication after the restart");
    const live = whole(store);
    expect(live).not.toBe(v1);
    expect(said(second, "publication done").at(-1)!.version).toBe(live);
    second.child.kill("SIGTERM");
  }, 300_000);

  it("SIGTERM in the middle of a publication finishes it, then exits 0", async () => {
    FILES["/pib.xml.gz"] = issue(11);
    const store = seeded("watch-term-");
    const w = watcherOn(store);
    await until(() => said(w, "publication done").length === 1, 90_000, "the first publication");
    FILES["/pib.xml.gz"] = issue(15);
    await until(() => said(w, "publishing").length === 2, 30_000, "the second publication begun");
    const exited = new Promise<number | null>((r) => w.child.once("exit", (code) => r(code)));
    w.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // the publication under way was finished, not cut: it is the live version, and the store is whole
    const done = said(w, "publication done");
    expect(done).toHaveLength(2);
    expect(whole(store)).toBe(done[1]!.version);
  }, 120_000);
});

describe("watch on a clock it is given (--clock)", () => {
  const start = async (at: string) => {
    FILES["/pib.xml.gz"] = issue(11);
    const store = tempDir("watch-clock-");
    const report = path.join(tempDir("watch-clock-report-"), "report.json");
    const w = watcherOn(store, "--report", report, "--clock", at);
    const reportAfter = async (n: number) => {
      await until(() => said(w, "publication done").length >= n, 90_000, `publication ${n}`);
      return JSON.parse(readFileSync(report, "utf8")) as RunReport & { tomorrow?: RunReport };
    };
    return { store, w, reportAfter };
  };

  it("publishes tomorrow too from 15:00 UTC, not before", async () => {
    const { store, w, reportAfter } = await start("2026-08-22T14:59:57Z");
    const first = await reportAfter(1);
    expect(first.tomorrow).toBeUndefined();
    const second = await reportAfter(2);
    expect(second.date).toBe("2026-08-22");
    expect(second.tomorrow?.date).toBe("2026-08-23");
    expect(existsSync(path.join(store, "v1", "days", "2026-08-23", "current.json"))).toBe(true);
    w.child.kill("SIGTERM");
  }, 120_000);

  it("rolls over to the new day at 00:00 UTC", async () => {
    const { store, w, reportAfter } = await start("2026-08-22T23:59:57Z");
    expect((await reportAfter(1)).date).toBe("2026-08-22");
    const next = await reportAfter(2);
    expect(next.date).toBe("2026-08-23");
    expect(next.now >= "2026-08-23T00:00:00").toBe(true);
    const pointer = JSON.parse(readFileSync(path.join(store, "v1", "current.json"), "utf8"));
    expect(pointer.version).toBe(next.version);
    w.child.kill("SIGTERM");
  }, 120_000);

  it("ages a briefing that is no longer renewed into stale on time: its areas Unknown from that instant", async () => {
    // the briefing was issued 11:00:15Z; just after 13:00:15Z it is more than two hours old
    const { w, reportAfter } = await start("2026-08-22T13:00:11Z");
    const fresh = await reportAfter(1);
    expect(fresh.sourceStates.notam[0]!.standing).toBe("fresh");
    expect(fresh.nextChangeAt).toBe("2026-08-22T13:00:16Z");
    const aged = await reportAfter(2);
    expect(aged.now >= "2026-08-22T13:00:16").toBe(true);
    expect(said(w, "publication done")).toHaveLength(2); // one publication at the change, not one per millisecond
    expect(aged.sourceStates.notam[0]).toMatchObject({ standing: "stale" });
    expect(aged.activity.isActive.No ?? 0).toBeLessThan(fresh.activity.isActive.No ?? 0);
    w.child.kill("SIGTERM");
  }, 120_000);
});
