// docs/tiles.md's ten-line MapLibre example, as an app developer would run it: the page on a site of its own (another
// port, so the tiles come across origins, by CORS), the origin serving the sample's tiles, Debian's headless Chromium
// with WebGL 2 in software (SwiftShader). MapLibre is served from node_modules where the example names unpkg.
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchWebGlChromium } from "../../bench/support.js";
import { ROOT } from "../helpers.js";
import { type Published, publishSample, type Running, serve } from "../origin/harness.js";

const doc = readFileSync(path.join(ROOT, "docs", "tiles.md"), "utf8");
const example = /## A MapLibre map in ten lines\n\n```html\n([\s\S]*?)```/.exec(doc)?.[1] ?? "";
const DIST = path.join(ROOT, "node_modules", "maplibre-gl", "dist");

let pub: Published;
let origin: Running;
let site: http.Server;
let siteUrl = "";
let browser: Browser;

beforeAll(async () => {
  pub = await publishSample();
  origin = await serve({ store: pub.store, tokens: pub.tokensFile });
  const page = example
    .replaceAll("https://unpkg.com/maplibre-gl@6/dist/", "/maplibre/")
    .replace("YOUR_TOKEN", pub.dynamicToken)
    .replace("https://data.example.org", origin.url)
    .replace("zoom: 4", "zoom: 6");
  site = http.createServer((req, res) => {
    const file = req.url?.startsWith("/maplibre/") ? path.join(DIST, path.basename(req.url.split("?")[0]!)) : undefined;
    if (req.url === "/")
      res.setHeader("Content-Type", "text/html").end(`<!doctype html><body style="margin:0">${page}</body>`);
    else if (file && existsSync(file))
      res.setHeader("Content-Type", file.endsWith(".css") ? "text/css" : "text/javascript").end(readFileSync(file));
    else if (req.url === "/favicon.ico") res.writeHead(204).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await launchWebGlChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => site?.close(r));
  await origin?.close();
});

describe("docs/tiles.md's MapLibre example", () => {
  it("is ten lines", () => {
    expect(example.trim().split("\n")).toHaveLength(10);
  });

  it("renders the sample's airspaces from the tiles in Chromium with software WebGL, with no console error", async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`${m.text()} ${m.location().url}`);
    });
    page.on("pageerror", (e) => errors.push(e.message));
    const tiles: number[] = [];
    page.on("response", (r) => {
      if (r.url().includes(".mvt")) tiles.push(r.status());
    });
    await page.goto(siteUrl);
    await page.waitForFunction(
      () => {
        const m = (globalThis as unknown as { map?: { loaded(): boolean; areTilesLoaded(): boolean } }).map;
        return m?.loaded() && m.areTilesLoaded();
      },
      undefined,
      { timeout: 60_000 },
    );
    const drawn = await page.evaluate(() => {
      const m = (
        globalThis as unknown as { map: { queryRenderedFeatures(): Array<{ properties: Record<string, unknown> }> } }
      ).map;
      const features = m.queryRenderedFeatures();
      return {
        count: features.length,
        ids: new Set(features.map((f) => f.properties._id)).size,
        active: features.filter((f) => f.properties.isActive === "Yes").length,
      };
    });
    expect(errors).toEqual([]);
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.every((s) => s === 200 || s === 204)).toBe(true);
    // what MapLibre rendered in the view, read back from its buckets: the sample's features, some of them active
    expect(drawn.ids).toBeGreaterThan(10);
    expect(drawn.active).toBeGreaterThan(0);
    await page.close();
  }, 120_000);
});
