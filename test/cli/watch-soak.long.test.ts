// `watch` through sources that fail for ten minutes (issue 44), with real processes (the built CLI) and a real HTTP
// server on loopback serving the real UK files of fixtures/uk. Three watchers, each on its own store, follow one
// briefing each; for ten minutes at once, one briefing answers 500, one never answers (each try ends at `timeoutMs`)
// and one sends a body cut in half. Throughout, each watcher runs on; its store stays whole and keeps the briefing's
// last good copy; its areas turn `Unknown` at the first failed poll and stay so; it publishes nothing more while the
// fault lasts but at an instant where a published state changes; it asks ever more rarely (backoff up to ten
// intervals) yet never stops asking, and holds no socket open. When the briefing answers again it is fresh within
// seconds. The ten minutes are real: a shorter fault would not reach the backoff's ceiling nor show it holding.
// This file runs first, beside the rest of the suite (vitest.config.ts).
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/report.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { manifestOf, said, startWatcher, until, type Watcher, whole } from "./watchers.js";

const FAULT_MS = 10 * 60_000;
/** Each watcher asks its briefing every second; a try that hangs ends after one. */
const POLL_SECONDS = 1;
const UK = path.join(FIXTURES, "uk");
const PIB = gunzipSync(readFileSync(path.join(UK, "uk_pib_2026-08-22T1116Z.xml.gz"))).toString("utf8");
/** The briefing as issued at `hhmm` on 2026-08-22: the same NOTAMs, another `Issued`. */
const issued = (hhmm: string) =>
  gzipSync(PIB.replace(/<Issued>[^<]*<\/Issued>/, `<Issued>2026-08-22T${hhmm}:15+00:00</Issued>`));
/** The watchers' clock at their start: the briefing of 11:00 is fresh until 13:00, long after the test. */
const CLOCK = "2026-08-22T11:00:20Z";

const FAULTS = ["500", "hang", "cut"] as const;
type Fault = (typeof FAULTS)[number];

const FILES: Record<string, Buffer> = {
  "/gb_airspace.yaml": readFileSync(path.join(UK, "gb_airspace_2026-06.yaml")),
  "/gb_service.yaml": readFileSync(path.join(UK, "gb_service_2026-06.yaml")),
};
/** Whether each briefing fails now. */
const failing: Record<Fault, boolean> = { "500": false, hang: false, cut: false };
/** When each briefing was asked for, epoch ms. */
const asked: Record<Fault, number[]> = { "500": [], hang: [], cut: [] };
/** The briefing requests still open on the server. */
const open: Record<Fault, number> = { "500": 0, hang: 0, cut: 0 };
const configs: Partial<Record<Fault, string>> = {};
let server: Server;
const running: ChildProcess[] = [];

function answer(fault: Fault, req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) {
  asked[fault].push(Date.now());
  open[fault]++;
  res.once("close", () => open[fault]--);
  const body = FILES[`/${fault}.xml.gz`]!;
  if (failing[fault] && fault === "500") return void res.writeHead(500).end("boom");
  if (failing[fault] && fault === "hang") return; // never answers: the fetch's timeout ends it
  if (failing[fault] && fault === "cut") {
    res.writeHead(200, { "content-length": body.length, etag: '"cut"' });
    return void res.write(body.subarray(0, body.length >> 1), () => res.destroy());
  }
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
  if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
  res.writeHead(200, { "content-length": body.length, etag }).end(body);
}

beforeAll(async () => {
  for (const f of FAULTS) FILES[`/${f}.xml.gz`] = issued("11:00");
  server = createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    const fault = FAULTS.find((f) => p === `/${f}.xml.gz`);
    if (fault) return answer(fault, req, res);
    const body = FILES[p];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const f of FAULTS) {
    configs[f] = path.join(tempDir(`watch-soak-${f}-cfg-`), "sources.json");
    const sources = [
      { name: "gb-yaixm", kind: "airspace", url: `${base}/gb_airspace.yaml`, country: "GB", maxAgeMinutes: 1e6 },
      { name: "gb-services", kind: "airspace", url: `${base}/gb_service.yaml`, country: "GB", maxAgeMinutes: 1e6 },
      { name: "uk-pib", kind: "notam", url: `${base}/${f}.xml.gz`, pollSeconds: POLL_SECONDS, timeoutMs: 1_000 },
    ];
    writeFileSync(configs[f]!, JSON.stringify({ schema: 1, sources }));
  }
});

afterAll(async () => {
  for (const c of running) c.kill("SIGKILL");
  server?.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

interface Followed {
  fault: Fault;
  w: Watcher;
  store: string;
  report: string;
}

const reportOf = (f: Followed) => JSON.parse(readFileSync(f.report, "utf8")) as RunReport;
const done = (f: Followed) => said(f.w, "publication done");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("watch through sources that fail for ten minutes", () => {
  it(
    "500, a hang, a cut body: the last good copy, its areas Unknown from the first failed poll, nothing more published but at instants, asked ever more rarely but always; then fresh again",
    async () => {
      const followed: Followed[] = FAULTS.map((fault) => {
        const store = tempDir(`watch-soak-${fault}-`);
        const report = path.join(tempDir(`watch-soak-${fault}-report-`), "report.json");
        return {
          fault,
          store,
          report,
          w: startWatcher(configs[fault]!, store, running, "--report", report, "--clock", CLOCK),
        };
      });
      await until(() => followed.every((f) => done(f).length >= 1), 180_000, "the first publications");
      const fresh = new Map(followed.map((f) => [f.fault, reportOf(f)]));
      const goodSha = createHash("sha256").update(FILES["/500.xml.gz"]!).digest("hex");
      for (const f of followed) {
        expect(fresh.get(f.fault)!.sourceStates.notam[0]!.standing, f.fault).toBe("fresh");
        expect(fresh.get(f.fault)!.activity.isActive.No ?? 0, f.fault).toBeGreaterThan(0);
      }

      // the fault: ten minutes, checked every 15 s
      const before = new Map(followed.map((f) => [f.fault, f.w.lines.length]));
      const t0 = Date.now();
      for (const fault of FAULTS) failing[fault] = true;
      await until(
        () => followed.every((f) => done(f).length >= 2),
        30_000,
        "each watcher publishing its briefing as stale",
      );
      const firstUnknownS = (Date.now() - t0) / 1000;
      const stale = new Map(followed.map((f) => [f.fault, reportOf(f)]));
      for (const f of followed) {
        const r = stale.get(f.fault)!;
        const was = fresh.get(f.fault)!;
        expect(r.sourceStates.notam[0], f.fault).toMatchObject({ standing: "stale" });
        expect(r.sourceStates.notam[0]!.reason, f.fault).toMatch(/last good copy/);
        // the areas only a NOTAM could rule out are Unknown now, never No
        expect(r.activity.isActive.No ?? 0, f.fault).toBeLessThan(was.activity.isActive.No ?? 0);
        expect(r.activity.isActive.Unknown ?? 0, f.fault).toBeGreaterThan(was.activity.isActive.Unknown ?? 0);
      }
      while (Date.now() - t0 < FAULT_MS) {
        await sleep(15_000);
        for (const f of followed) {
          expect(f.w.child.exitCode, `${f.fault}: the watcher runs on`).toBeNull();
          const live = whole(f.store);
          expect(live, f.fault).toBe(done(f).at(-1)!.version);
          // the live version is made of the last good copy, stale
          expect(manifestOf(f.store, live).sources["uk-pib"], f.fault).toMatchObject({ sha256: goodSha, stale: true });
          expect(reportOf(f).sourceStates.notam[0]!.standing, f.fault).toBe("stale");
          expect(open[f.fault], `${f.fault}: briefing requests left open`).toBeLessThanOrEqual(1);
        }
      }
      const faultEnd = Date.now();
      for (const f of followed) {
        // while it failed: one publication for the stale briefing, then only at instants a published state changed
        const during = f.w.lines.slice(before.get(f.fault)).filter((l) => l.msg === "publishing");
        expect(during[0]!.because, f.fault).toBe("sources");
        expect(
          during.slice(1).every((l) => l.because === "instant"),
          `${f.fault}: ${during.map((l) => l.because)}`,
        ).toBe(true);
        // asked ever more rarely: at most three tries per fetch, fetches at least 5 s apart once the backoff is at its
        // ceiling of ten intervals (10 s, jittered to 5–10 s) …
        const times = asked[f.fault].filter((t) => t >= t0 && t < faultEnd);
        expect(times.length, f.fault).toBeLessThanOrEqual(3 * (FAULT_MS / 5_000 + 6));
        // … against 3 × 600 without backoff; yet never more than 30 s without asking
        const gaps = times.slice(1).map((t, i) => t - times[i]!);
        expect(Math.max(...gaps, faultEnd - times.at(-1)!), f.fault).toBeLessThanOrEqual(30_000);
      }

      // the briefing answers again, issued since: fresh within the backoff's ceiling and a publication
      const back = Date.now();
      for (const fault of FAULTS) {
        FILES[`/${fault}.xml.gz`] = issued("11:10");
        failing[fault] = false;
      }
      const after = new Map(followed.map((f) => [f.fault, done(f).length]));
      await until(
        () =>
          followed.every(
            (f) => done(f).length > after.get(f.fault)! && reportOf(f).sourceStates.notam[0]!.standing === "fresh",
          ),
        60_000,
        "each briefing fresh again",
      );
      const freshAgainS = (Date.now() - back) / 1000;
      for (const f of followed) {
        const r = reportOf(f);
        expect(r.activity.isActive.No ?? 0, f.fault).toBeGreaterThan(0);
        expect(r.activity.isActive.Unknown ?? 0, f.fault).toBeLessThan(
          stale.get(f.fault)!.activity.isActive.Unknown ?? 0,
        );
        f.w.child.kill("SIGTERM");
      }
      console.log(
        `watch soak: Unknown published ${firstUnknownS.toFixed(1)} s after the faults began; fresh again ` +
          `${freshAgainS.toFixed(1)} s after they ended; briefing requests in the ten minutes: ` +
          FAULTS.map((f) => `${f} ${asked[f].filter((t) => t >= t0 && t < faultEnd).length}`).join(", "),
      );
    },
    15 * 60_000,
  );
});
