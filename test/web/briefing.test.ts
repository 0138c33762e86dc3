// The map page as a pilot's briefing view (issue 17 §1), in headless Chromium against the real CLI: `make run`'s
// UK publication (fixtures/uk, 2026-08-22) served by `airspace-publisher serve --dev`, whose printed URL opens the
// page ready to use. The page's clock is set to 14:00 UTC that day, so "now" is inside the published day.
// Screenshots go to test-output/briefing/.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/support.js";
import { main } from "../../jobs/cli.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { io } from "../cli/io.js";
import { ROOT, tempDir } from "../helpers.js";

const SHOTS = path.join(ROOT, "test-output", "briefing");
const RUN_ARGS = /^RUN_ARGS := (.+)$/m.exec(readFileSync(path.join(ROOT, "Makefile"), "utf8"))![1]!.split(/\s+/);

let server: ChildProcess;
let store = "";
let url = "";
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  store = tempDir("briefing-");
  const args = RUN_ARGS.map((a) => (a.startsWith("fixtures/") ? path.join(ROOT, a) : a));
  const code = await main(["publish", ...args, "--store", store, "--quiet"], io().io);
  if (code !== 0) throw new Error(`publish failed with ${code}`);
  server = spawn("node", [path.join(ROOT, "dist/jobs/cli.js"), "serve", "--store", store, "--dev", "--port", "0"]);
  url = await new Promise<string>((resolve, reject) => {
    let err = "";
    server.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /^map page: (\S+#token=\S+) /m.exec(err);
      if (m) resolve(m[1]!);
    });
    server.once("exit", (c) => reject(new Error(`serve exited ${c}: ${err}`)));
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("console", (m) => void (m.type() === "error" && problems.push(`console: ${m.text()}`)));
  page.on("pageerror", (e) => void problems.push(`page: ${e.message}`));
  // Chromium ends a fetch answered without a body (the 304 of a change asked since the live version) as
  // "net::ERR_ABORTED" though the page's fetch resolves with it (playwright#32752): a request answered is not failed
  page.on("requestfailed", async (r) => {
    if ((await r.response())?.status() !== 304) problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("response", (r) => void (r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`)));
  await page.clock.setFixedTime(new Date("2026-08-22T14:00:00Z"));
  mkdirSync(SHOTS, { recursive: true });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  server?.kill();
});

const view = () =>
  page.evaluate(() =>
    (
      globalThis as unknown as {
        airspaceMap: { view(): { south: number; west: number; north: number; east: number } };
      }
    ).airspaceMap.view(),
  );

/** The popup of the first match of a search, once the origin's explanation has replaced the page's wording. */
async function find(text: string): Promise<string> {
  await page.fill("#search", text);
  await page.press("#search", "Enter");
  await page.waitForSelector('.popup .status[data-from="explain"]', { timeout: 10_000 });
  return (await page.locator(".popup").textContent()) ?? "";
}

/** What `airspace-publisher explain --id` says of a feature of the same store. */
async function because(id: string): Promise<string> {
  const cli = io();
  expect(await main(["explain", "--store", store, "--id", id, "--json"], cli.io)).toBe(0);
  return JSON.parse(cli.out()).because;
}

describe("the briefing view, first visit through serve --dev", () => {
  it("opens ready to use: the token from the URL, the published countries by name, the largest loaded and fitted", async () => {
    await page.goto(url);
    await page.waitForSelector("body[data-loaded]", { timeout: 30_000 });
    expect(page.url()).not.toContain("token=");
    const options = await page.$$eval("#countries option", (os) =>
      os.map((o) => [(o as unknown as { value: string }).value, o.textContent]),
    );
    // only what the store publishes, with names and feature counts; EUROPE is their sum
    expect(options.map(([v]) => v)).toEqual(["GB", "NO", "EUROPE"]);
    const [gb, no, europe] = options.map(([, label]) => label ?? "");
    expect(gb).toMatch(/^GB United Kingdom \(\d{4}\)$/);
    expect(no).toBe("NO Norway (1)");
    const n = (label: string) => Number(/\((\d+)\)$/.exec(label)?.[1]);
    expect(europe).toBe(`EUROPE, all 2 (${n(gb!) + n(no!)})`);
    expect(await page.$eval("#countries", (s) => (s as unknown as { value: string }).value)).toBe("GB");
    // fitted to what Great Britain publishes (its airspace and NOTAMs, some offshore), not a fixed view of Europe
    const v = await view();
    expect(v.south).toBeLessThan(50);
    expect(v.north).toBeGreaterThan(58.7);
    expect(v.west).toBeLessThan(-6);
    expect(v.east).toBeGreaterThan(1.7);
    expect(v.east - v.west).toBeLessThan(45);
    expect(v.north - v.south).toBeLessThan(25);
    await page.screenshot({ path: path.join(SHOTS, "first-visit.png") });
  });

  it("starts the time slider at now, marks it, and gives the local time beside UTC", async () => {
    expect(await page.$eval("#time", (el) => (el as unknown as { value: string }).value)).toBe(String(14 * 60));
    expect(await page.isVisible("#now-marker")).toBe(true);
    expect(await page.textContent("#time-label")).toMatch(/^14:00 UTC \(\d\d:\d\d local\)$/);
    expect(await page.textContent("#published")).toMatch(/^2026-08-22 11:15 UTC \(2 h 45 min ago\)$/);
  });

  it("answers 'is EG D323 active at 14:00 today, and why' through the search", async () => {
    const text = await find("EG D323");
    expect(text).toMatch(/^D323F SOUTHERN MDA/);
    expect(text).toContain("Danger area");
    // the reason is the one explain gives: which source is fresh, as of when, and that it briefs the area's FIR
    const why = await because("yaixm-d323f-southern-mda");
    expect(why).toMatch(/^conditional, every source .* fresh \(as of 2026-08-22T11:00:15Z\) and briefs EGTT$/);
    expect(text).toContain(`Not active: ${why}`);
    expect(text).not.toMatch(/fixtures|\.xml/);
    // YAIXM gives D323 no service: the popup says so rather than leaving the row out
    expect(text).toContain("Frequenciesnone in the source data: see the AIP");
    await page.screenshot({ path: path.join(SHOTS, "d323.png") });
  });

  it("shows a CTR's class, limits, whole-day hours and the frequency to call", async () => {
    const text = await find("ABERDEEN CTR");
    expect(text).toMatch(/^ABERDEEN CTR/);
    expect(text).toContain("TypeCTR");
    expect(text).toContain("ClassD");
    expect(text).toContain("00:00–24:00 UTC");
    expect(text).toContain("ABERDEEN APPROACH 119.055 MHz");
    expect(text).toContain(`Active: ${await because("yaixm-aberdeen-ctr")}`);
    expect(text).toContain("permanent airspace");
    await page.screenshot({ path: path.join(SHOTS, "aberdeen-ctr.png") });
  });

  it("names a NOTAM-activated area's NOTAM with its text", async () => {
    const text = await find("EG D702");
    expect(text).toMatch(/^D702 FORT GEORGE/);
    expect(text).toContain(
      "Active: activated on the day by NOTAM D3025/26 00:00–07:00 and 15:00–24:00 UTC (decision table: linked activation)",
    );
    expect(text).toContain("E) DANGER AREA EGD702 FORT GEORGE ACTIVATED");
  });

  it("names the NOTAM that cut a permanent airspace's day short", async () => {
    const text = await find("INVERNESS ATZ");
    const why = await because("yaixm-inverness-atz");
    expect(why).toBe(
      "active by its type 00:00–05:15 and 05:45–24:00 UTC; deactivated by NOTAM I4979/26 05:15–05:45 UTC",
    );
    expect(text).toContain(`Active: ${why}`);
  });

  it("speaks a pilot's words in the activation filter and the legend, not the contract's activation types", async () => {
    const options = await page.$$eval("#f-activation option", (os) =>
      os.map((o) => ({ value: (o as unknown as { value: string }).value, text: o.textContent ?? "" })),
    );
    expect(options).toHaveLength(10);
    expect(options.filter((o) => /^is[A-Z]/.test(o.text))).toEqual([]);
    expect(options).toContainEqual({ value: "isActivatedByNOTAMAirspace", text: "Activated by NOTAM" });
    expect(options.find((o) => o.value === "isNotActiveAirspace")?.text).toMatch(/^Not active: outside its hours/);
    const legend = (await page.textContent("#legend")) ?? "";
    expect(legend).toContain("May be active: no fresh source says (dotted outline)");
    expect(legend).not.toMatch(/\bis[A-Z][a-zA-Z]+/);
  });

  it("can explain every feature it draws: airspaces by the decision table, graphical NOTAMs by their kind", async () => {
    const local = new LocalStore(store);
    const manifest = (await currentManifest(local))!;
    const doc = (await readExplanations(local, manifest.version))!;
    const features = (await readEurope(local, manifest)).features;
    expect(features.filter((f) => !Object.hasOwn(doc.features, f.properties._id))).toEqual([]);
    const notams = features.filter((f) => f.properties.featureCategory === "graphicalNotam");
    expect(notams.length).toBe(509);
    const unexplained = notams.filter(
      (f) => !/^an? \w+ NOTAM with|NOTAM that names/.test(doc.features[f.properties._id]!.because),
    );
    expect(unexplained.map((f) => f.properties._id)).toEqual([]);
  });

  it("had no console error, failed request or error answer on the way", () => {
    expect(problems).toEqual([]);
  });
});

describe("tomorrow beside today (issue 23 §1)", () => {
  it("offers Tomorrow once it is published, switches to it and back, and explains tomorrow's features", async () => {
    const before = problems.length;
    // the 15:30 run publishes tomorrow too: the same sources, decided for 2026-08-23
    const args = RUN_ARGS.map((a) => (a.startsWith("fixtures/") ? path.join(ROOT, a) : a));
    const tomorrowArgs = args.map((a) =>
      a === "2026-08-22" ? "2026-08-23" : a === "2026-08-22T11:15:00Z" ? "2026-08-22T15:30:00Z" : a,
    );
    expect(await main(["publish", ...tomorrowArgs, "--store", store, "--quiet"], io().io)).toBe(0);
    const local = new LocalStore(store);
    const today = (await currentManifest(local))!;
    expect(today.date).toBe("2026-08-22");
    const tomorrowRadio = 'input[name="day"][value="tomorrow"]';
    // the origin re-reads the day's pointer every few seconds: reload until the page offers tomorrow
    // (reload, not goto: the same address with its #token is a same-document navigation that reloads nothing)
    for (let tries = 0; tries < 20; tries++) {
      await page.reload();
      await page.waitForSelector("body[data-loaded]", { timeout: 30_000 });
      if (!(await page.isDisabled(tomorrowRadio))) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(await page.textContent("#tomorrow-date")).toBe("(2026-08-23)");
    await page.check(tomorrowRadio);
    await page.waitForSelector(`body[data-loaded]:not([data-loaded="${today.version}"])`, { timeout: 30_000 });
    const tomorrowVersion = await page.getAttribute("body", "data-loaded");
    expect(tomorrowVersion).not.toBe(today.version);
    expect(await page.textContent("#day-title")).toBe("tomorrow, 2026-08-23");
    const text = await find("ABERDEEN CTR");
    expect(text).toContain("permanent airspace");
    await page.screenshot({ path: path.join(SHOTS, "tomorrow.png") });
    await page.check('input[name="day"][value="today"]');
    await page.waitForSelector(`body[data-loaded="${today.version}"]`, { timeout: 30_000 });
    expect(await page.textContent("#day-title")).toBe("today, 2026-08-22");
    expect(problems.slice(before)).toEqual([]);
  }, 120_000);
});

describe("the page's data through the client (issue 51)", () => {
  const sync = async () => JSON.parse((await page.getAttribute("body", "data-sync")) ?? "null");
  it("comes back after a new version by a change set, and goes to tomorrow again by one or by nothing", async () => {
    const before = problems.length;
    const local = new LocalStore(store);
    const first = (await currentManifest(local))!;
    const full = first.countries.GB!.bytes;
    // the 15:45 run: today again (its briefing now four hours old: conditional areas become Unknown), and tomorrow
    const args = RUN_ARGS.map((a) => (a.startsWith("fixtures/") ? path.join(ROOT, a) : a));
    const at1545 = args.map((a) => (a === "2026-08-22T11:15:00Z" ? "2026-08-22T15:45:00Z" : a));
    expect(await main(["publish", ...at1545, "--store", store, "--quiet"], io().io)).toBe(0);
    const tomorrowArgs = at1545.map((a) => (a === "2026-08-22" ? "2026-08-23" : a));
    expect(await main(["publish", ...tomorrowArgs, "--store", store, "--quiet"], io().io)).toBe(0);
    const next = (await currentManifest(local))!;
    expect(next.version).not.toBe(first.version);
    // coming back: the page holds GB of today in IndexedDB and takes the change set
    await page.check('input[name="day"][value="today"]');
    for (let tries = 0; tries < 20; tries++) {
      await page.reload();
      await page.waitForSelector("body[data-loaded]", { timeout: 30_000 });
      if ((await page.getAttribute("body", "data-loaded")) === next.version) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(await page.getAttribute("body", "data-loaded")).toBe(next.version);
    const back = await sync();
    expect(back).toMatchObject({ version: next.version, day: "2026-08-22", full: false });
    expect(back.changed.GB.changed + back.changed.GB.added + back.changed.GB.removed).toBeGreaterThan(0);
    expect(back.bytes).toBeLessThan(full / 5);
    // tomorrow once more: held since the switch before, so a change set (or nothing), not a download in full
    await page.check('input[name="day"][value="tomorrow"]');
    await page.waitForSelector(`body[data-loaded]:not([data-loaded="${next.version}"])`, { timeout: 30_000 });
    const tomorrow = await sync();
    expect(tomorrow).toMatchObject({ day: "2026-08-23", full: false });
    expect(tomorrow.bytes).toBeLessThan(full / 5);
    expect(await page.textContent("#day-title")).toBe("tomorrow, 2026-08-23");
    expect(Number(await page.textContent("#feature-count"))).toBeGreaterThan(1000);
    expect(problems.slice(before)).toEqual([]);
    console.log(
      `page through the client: back after a new version ${(back.bytes / 1024).toFixed(1)} KiB, tomorrow again ` +
        `${(tomorrow.bytes / 1024).toFixed(1)} KiB; GB in full ${(full / 1024).toFixed(0)} KiB`,
    );
  }, 120_000);
});
