// The map page in headless Chromium (Debian's, driven by playwright-core) against the origin serving a sample
// publication with its vector tiles: the bundled sample airspaces plus EBR04 with its real NOTAM and AUP rows
// (fixtures/decision). The page draws the tiles on canvas tiles in Leaflet, and the map form on its canvas when
// asked (`?draw=map-form`). Screenshots go to test-output/map/.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { booleanPointInPolygon, pointOnFeature } from "@turf/turf";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/support.js";
import { PAGE_FILES } from "../../jobs/web-assets.js";
import type { FeatureCollection } from "../../src/model/contract.js";
import type { ExplainDocument } from "../../src/model/explain.js";
import { utcDay } from "../../src/model/time.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { tileFeatureProperties } from "../../src/tiles/build.js";
import { activeAt, statusText, summarize } from "../../web/logic.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";
import { cli, type Running, serve } from "../origin/harness.js";

const DAY = "2022-02-23";
const CASE = path.join(FIXTURES, "decision", "aup-and-notam");
const EBR04 = "v1-89355";
const SHOTS = path.join(ROOT, "test-output", "map");

let origin: Running;
let browser: Browser;
let page: Page;
let token: string;
let europe: FeatureCollection;
let explained: ExplainDocument;
let store: string;

beforeAll(async () => {
  store = tempDir("map-store-");
  const r = await cli([
    "publish",
    ...["--airspaces", path.join(FIXTURES, "sample"), "--airspaces", path.join(CASE, "airspace.geojson")],
    ...[
      "--notams",
      path.join(CASE, "notams.jsonl"),
      "--aup",
      `${DAY}T0959=${path.join(CASE, "aup_2022-02-23T0959Z.csv")}`,
    ],
    ...["--date", DAY, "--now", `${DAY}T10:00:00Z`, "--store", store, "--quiet", "--tiles"],
  ]);
  if (r.code !== 0) throw new Error(r.err);
  const tokens = path.join(tempDir("map-tokens-"), "tokens.json");
  token = (await cli(["tokens", "create", "--tokens", tokens, "--scope", "dynamic"])).out.trim();
  const local = new LocalStore(store);
  const manifest = (await currentManifest(local))!;
  europe = await readEurope(local, manifest);
  explained = (await readExplanations(local, manifest.version))!;
  origin = await serve({ store, tokens });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await origin?.close();
});

const map = <T>(fn: string, arg?: string) =>
  page.evaluate(
    ([f, a]) => (globalThis as unknown as Record<string, Record<string, (x?: string) => unknown>>).airspaceMap![f]!(a),
    [fn, arg] as const,
  ) as Promise<T>;

/** The ids of the features the tiles draw at `zoom` (src/tiles/build.ts's minzoom), sorted. */
const shownAt = (zoom: number) =>
  europe.features
    .filter((f) => tileFeatureProperties(f, utcDay(DAY)!).minzoom <= zoom)
    .map((f) => f.properties._id)
    .sort();

async function load(withToken: string, query = ""): Promise<void> {
  await page.goto(`${origin.url}/${query}`);
  await page.waitForSelector("#countries option[value=EUROPE]");
  await page.fill("#token", withToken);
  await page.selectOption("#countries", "EUROPE");
  await page.click("#load button[type=submit]");
}

describe("the map page", () => {
  it("is written into the store beside the artifacts, and served by the origin at /", async () => {
    for (const name of PAGE_FILES) {
      expect(
        readFileSync(path.join(store, name)).equals(readFileSync(path.join(ROOT, "dist", "web", name))),
        name,
      ).toBe(true);
    }
    const page = await fetch(`${origin.url}/`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toBe(readFileSync(path.join(store, "index.html"), "utf8"));
  });

  it("draws every feature of the publication from its tiles, with its version and publication time", async () => {
    await load(token);
    await page.waitForSelector("body[data-loaded]");
    expect(await map<string>("drawing")).toBe("tiles");
    expect(await map<number>("drawn")).toBe(europe.features.length);
    // the tiles paint, in the view they were fitted to, every feature the tiles of that zoom hold and nothing else
    // (one narrower than 1/32 of a tile waits for a higher zoom)
    const zoom = await map<number>("tileZoom");
    expect(await map<string[]>("rendered")).toEqual(shownAt(zoom));
    expect(shownAt(zoom).length).toBeGreaterThan(0);
    // one frame per country of the map form, each feature knowing where its whole properties are
    const countries = Object.keys((await currentManifest(new LocalStore(store)))!.countries).sort();
    expect(await map<string[]>("countries")).toEqual(countries);
    expect(await page.textContent("#feature-count")).toBe(String(europe.features.length));
    expect(await page.textContent("#data-version")).toMatch(/^20220223T100000Z-[0-9a-f]{8}$/);
    expect(await page.textContent("#published")).toMatch(/^2022-02-23 10:00 UTC \(\d+ d( \d+ h)? ago\)$/);
    expect(await page.isVisible("#stale")).toBe(true); // published long ago
    // airspaces answered by default (rule `other` and the Unknown defaults) are drawn apart, as the legend says
    const defaults = europe.features.filter(
      (f) =>
        f.properties.featureCategory === "airspace" &&
        f.properties.vendor.dynamicAirspaceMapping.activationType === "isOtherActiveAirspace",
    );
    const drawnApart = await map<Array<{ id: string; dash: number[] }>>("byDefault");
    expect(drawnApart.map((d) => d.id).sort()).toEqual(defaults.map((f) => f.properties._id).sort());
    expect(drawnApart.length).toBeGreaterThan(0);
    for (const d of drawnApart)
      expect([
        [10, 4],
        [1, 4],
      ]).toContainEqual(d.dash);
    expect(await page.textContent("#legend")).toContain("Active by default: nothing says when (long dashes)");
    await page.screenshot({ path: path.join(SHOTS, "loaded.png") });
  });

  it.each([
    ["05:00", 300],
    ["10:00", 600],
    ["23:00", 1380],
  ])("highlights exactly the features active at %s", async (label, minute) => {
    await page.$eval(
      "#time",
      (el, v) => {
        const input = el as unknown as { value: string; dispatchEvent(e: Event): boolean };
        input.value = String(v);
        input.dispatchEvent(new Event("input"));
      },
      minute,
    );
    const instant = Date.parse(`${DAY}T00:00:00Z`) + minute * 60_000;
    const want = europe.features
      .filter((f) => activeAt(summarize(f), instant))
      .map((f) => f.properties._id)
      .sort();
    expect(await map<string[]>("highlighted")).toEqual(want);
    // the tiles' own intervals (s0/e0 …) say the same at that minute, of the features drawn at this zoom
    const drawn = new Set(shownAt(await map<number>("tileZoom")));
    await expect.poll(() => map<string[]>("rendered", "active")).toEqual(want.filter((id) => drawn.has(id)));
    expect(await page.textContent("#time-label")).toMatch(new RegExp(`^${label} UTC \\(\\d\\d:\\d\\d local\\)$`));
    expect(await page.textContent("#active-count")).toBe(String(want.length));
    if (minute === 600) expect(want).toContain(EBR04);
    if (minute !== 600) expect(want).not.toContain(EBR04);
    await page.screenshot({ path: path.join(SHOTS, `time-${label.replace(":", "")}.png`) });
  });

  it("paints from the tiles only what the filters and the chosen countries let through", async () => {
    const zoom = await map<number>("tileZoom");
    const shown = shownAt(zoom);
    // the type of the first feature drawn: some are of it, not all
    const typeOf = new Map(europe.features.map((f) => [f.properties._id, f.properties.type]));
    const type = typeOf.get(shown[0]!)!;
    const ofType = shown.filter((id) => typeOf.get(id) === type);
    expect(ofType.length).toBeLessThan(shown.length);
    await page.selectOption("#f-type", String(type));
    await map("settled");
    expect(await map<string[]>("rendered")).toEqual(ofType);
    await page.selectOption("#f-type", []);
    await map("settled");
    expect(await map<string[]>("rendered")).toEqual(shown);
    // one country: its features alone, though its tiles hold its neighbours' too
    await page.selectOption("#countries", "BE");
    await page.click("#load button[type=submit]");
    await page.waitForSelector("body[data-loaded]");
    const be = new Set(europe.features.filter((f) => f.properties.country === "BE").map((f) => f.properties._id));
    const beZoom = await map<number>("tileZoom");
    const want = shownAt(beZoom).filter((id) => be.has(id));
    expect(want.length).toBeGreaterThan(0);
    expect(shownAt(beZoom).length).toBeGreaterThan(want.length);
    expect(await map<string>("drawing")).toBe("tiles");
    expect(await map<string[]>("rendered")).toEqual(want);
    // Europe again, for the tests below
    await page.selectOption("#countries", "EUROPE");
    await page.click("#load button[type=submit]");
    await page.waitForSelector("body[data-loaded]");
  });

  it("shows the linked NOTAM and the AUP record in the feature's popup", async () => {
    await map("open", EBR04);
    // the page's own wording first, then explain's reason from the origin
    await page.waitForSelector('.popup .status[data-from="explain"]');
    const text = await page.locator(".popup").textContent();
    expect(text).toContain("EBR04 Elsenborn 01");
    expect(text).toContain("B4618/18");
    expect(text).toContain("D) FEB 23 0600-2200");
    expect(text).toContain("E) EBR04-ELSENBORN 01 ACT");
    expect(text).toMatch(/AUP EBR04/);
    // the status in words with its reason: the decision-table row and what it rests on, as explain says it
    expect(text).toContain(
      "Active: activated on the day by NOTAM B4618/18 06:00–22:00 UTC and by AUP/UUP allocation EBR04 " +
        "09:00–22:00 UTC (decision table: linked activation)",
    );
    expect(text).toContain("Restricted area");
    await page.screenshot({ path: path.join(SHOTS, "popup.png") });
  });

  it("shows the popup of features of either end of the collection (two countries' answers)", async () => {
    for (const f of [europe.features[0]!, europe.features.at(-1)!]) {
      await map("open", f.properties._id);
      await expect.poll(() => page.textContent(".popup h3").catch(() => null)).toBe(f.properties.name);
      await page.waitForSelector('.popup .status[data-from="explain"]');
      const text = await page.locator(".popup").textContent();
      expect(text).toContain(f.properties.vendor.formattedLowerLimit);
      expect(text).toContain(statusText(f, explained.features[f.properties._id]!.because));
      expect(text).not.toMatch(/Type\d/);
    }
  });

  it("opens the popup of the feature painted on top where the tiles are clicked", async () => {
    // Find zooms in on EBR04 and opens its popup; closed, a click on a point of it opens the top one there
    await page.fill("#search", "EBR04");
    await page.press("#search", "Enter");
    await page.waitForSelector(".leaflet-popup-close-button");
    await page.click(".leaflet-popup-close-button");
    await map("settled");
    const ebr04 = europe.features.find((f) => f.properties._id === EBR04)!;
    const at = pointOnFeature(ebr04).geometry.coordinates as [number, number];
    const zoom = await map<number>("tileZoom");
    const day = utcDay(DAY)!;
    // drawn there: airspaces, then graphical NOTAMs over them, each layer by priority
    const rank = (f: (typeof europe.features)[number]) =>
      [
        f.properties.featureCategory === "airspace" ? 0 : 1,
        Number((tileFeatureProperties(f, day) as Record<string, unknown>).priority ?? 0),
      ] as const;
    const under = europe.features.filter(
      (f) => tileFeatureProperties(f, day).minzoom <= zoom && booleanPointInPolygon(at, f as never),
    );
    const top = under.reduce((a, b) =>
      rank(b)[0] > rank(a)[0] || (rank(b)[0] === rank(a)[0] && rank(b)[1] >= rank(a)[1]) ? b : a,
    );
    const tops = under.filter((f) => rank(f)[0] === rank(top)[0] && rank(f)[1] === rank(top)[1]);
    expect(under.map((f) => f.properties._id)).toContain(EBR04);
    const [x, y] = await map<[number, number]>("pointOf", JSON.stringify(at));
    const box = (await page.locator("#map").boundingBox())!;
    await page.mouse.click(box.x + x, box.y + y);
    await expect.poll(() => page.textContent(".popup h3").catch(() => null)).not.toBeNull();
    expect(tops.map((f) => f.properties.name)).toContain(await page.textContent(".popup h3"));
  });

  it("draws a load asked for while the tiles of the view are still loading", async () => {
    // a load that waited for what was still loading, or for an event that had come already, would never mark the
    // page loaded (MapLibre's `load` did so once). The tiles are held back 1.5 s (Playwright on the network, the
    // origin cannot be slowed), Find zooms in so that new ones are asked for, and Load is pressed while they are held.
    await load(token);
    await page.waitForSelector("body[data-loaded]");
    let held = 0;
    await page.route("**/v1/tiles/*/**", async (route) => {
      held++;
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    try {
      await page.fill("#search", "EBR04");
      await page.press("#search", "Enter");
      await expect.poll(() => held).toBeGreaterThan(0);
      await page.click("#load button[type=submit]");
      await page.waitForSelector("body[data-loaded]", { timeout: 10_000 });
      expect(await map<string>("drawing")).toBe("tiles");
      expect(await map<string[]>("rendered")).toEqual(shownAt(await map<number>("tileZoom")));
    } finally {
      await page.unroute("**/v1/tiles/*/**");
    }
  });

  it("says so when tiles cannot be read: the map lacks what they hold", async () => {
    // the origin cannot be made to fail on its tiles alone, so Playwright answers them with 503
    await page.route("**/v1/tiles/*/**", (route) => route.fulfill({ status: 503, body: "" }));
    try {
      await load(token);
      await page.waitForSelector("body[data-loaded]");
      expect(await page.getAttribute("#message", "class")).toBe("error");
      expect(await page.textContent("#message")).toMatch(
        /^\d+ tiles? could not be read \(tile \d+\/\d+\/\d+: 503 .*\): the map lacks what they hold\. Load again\.$/,
      );
      expect(await map<string[]>("rendered")).toEqual([]);
    } finally {
      await page.unroute("**/v1/tiles/*/**");
    }
    // loaded again with the tiles served: drawn, no error
    await load(token);
    await page.waitForSelector("body[data-loaded]");
    expect(await page.getAttribute("#message", "class")).not.toBe("error");
    expect(await map<string[]>("rendered")).toEqual(shownAt(await map<number>("tileZoom")));
  });

  it("draws the last load when Load is pressed again before the first answer is in", async () => {
    await page.goto(`${origin.url}/`);
    await page.waitForSelector("#countries option[value=EUROPE]");
    await page.fill("#token", token);
    await page.selectOption("#countries", "EUROPE");
    await page.click("#load button[type=submit]");
    await page.click("#load button[type=submit]");
    await page.waitForSelector("body[data-loaded]");
    expect(await page.getAttribute("#message", "class")).not.toBe("error");
    expect(await map<number>("drawn")).toBe(europe.features.length);
  });

  it("draws the map form on the canvas when asked", async () => {
    await load(token, "?draw=map-form");
    await page.waitForSelector("body[data-loaded]");
    expect(await map<string>("drawing")).toBe("map form");
    expect(await map<number>("drawn")).toBe(europe.features.length);
    expect(await map<string[]>("rendered")).toEqual([]);
    expect(await page.isVisible("#map")).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, "map-form.png") });
  });

  it("says so when the answer is cut off, and draws none of it", async () => {
    // the origin cannot be made to cut its own answer, so Playwright stands in for the network: it hands the
    // page the origin's real answer without its last 5 000 bytes
    await page.route("**/v1/data/airspaces*", async (route) => {
      const real = await route.fetch();
      const body = await real.body();
      await route.fulfill({ response: real, body: body.subarray(0, body.length - 5000) });
    });
    try {
      await load(token);
      await page.waitForSelector("#message.error", { timeout: 10_000 });
      expect(await page.textContent("#message")).toMatch(/^The answer could not be read: .*cut off/);
      expect(await map<number>("drawn")).toBe(0);
    } finally {
      await page.unroute("**/v1/data/airspaces*");
    }
  });

  it("after a plain publish: the status document is served and the page loads with no console error or failed request", async () => {
    const status = await fetch(`${origin.url}/v1/status/master-features`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ bootstrap: { state: "complete" }, parity: { state: "ok" } });
    for (const query of ["", "?draw=map-form"]) {
      const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const problems: string[] = [];
      fresh.on(
        "console",
        (m) => void (["error", "warning"].includes(m.type()) && problems.push(`console: ${m.text()}`)),
      );
      fresh.on("pageerror", (e) => void problems.push(`page: ${e.message}`));
      fresh.on("requestfailed", (r) => void problems.push(`failed: ${r.url()}`));
      fresh.on("response", (r) => void (r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`)));
      try {
        await fresh.goto(`${origin.url}/${query}`);
        await fresh.fill("#token", token);
        await fresh.selectOption("#countries", "EUROPE");
        await fresh.click("#load button[type=submit]");
        await fresh.waitForSelector("body[data-loaded]", { timeout: 15_000 });
        expect(problems, query).toEqual([]);
      } finally {
        await fresh.close();
      }
    }
  });

  it("shows the origin's error for a wrong token", async () => {
    await load("asp_wrong-token");
    await page.waitForSelector("#message.error", { timeout: 5000 }).catch(async () => {
      throw new Error(`no error shown; #message says "${await page.textContent("#message")}"`);
    });
    expect(await page.textContent("#message")).toBe("401 Unauthorized: The token is not valid.");
    await page.screenshot({ path: path.join(SHOTS, "wrong-token.png") });
  });
});
