// The origin's answers in a real browser: Debian's headless Chromium, driven by playwright-core, fetches from
// a page of the origin itself (same origin, so no CORS) and must see the merged collection (Chrome would drop
// all but the first of several gzip members).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/support.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import { LocalStore } from "../../src/store/local-store.js";
import { type Published, publishSample, type Running, serve } from "./harness.js";

let pub: Published;
let origin: Running;
let browser: Browser;

beforeAll(async () => {
  pub = await publishSample();
  origin = await serve({ store: pub.store, tokens: pub.tokensFile });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await origin?.close();
});

describe("in headless Chromium", () => {
  it("fetch() of one, several and EUROPE decodes to the merged collections", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin.url}/v1/status/master-features`); // any page of the origin: same-origin fetches
    const store = new LocalStore(pub.store);
    const europe = JSON.stringify(await readEurope(store, (await currentManifest(store))!));
    const got = await page.evaluate(
      async ({ token }) => {
        const out: Record<string, { status: number; encoding: string | null; text: string }> = {};
        for (const countries of ["DE", "fr,de", "EUROPE"]) {
          const r = await fetch(`/v1/data/airspaces?countries=${countries}`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          out[countries] = { status: r.status, encoding: r.headers.get("content-encoding"), text: await r.text() };
        }
        return out;
      },
      { token: pub.dynamicToken },
    );
    expect(got.EUROPE).toMatchObject({ status: 200, encoding: "gzip" });
    expect(got.EUROPE!.text).toBe(europe);
    const de = JSON.parse(got.DE!.text);
    const frde = JSON.parse(got["fr,de"]!.text);
    expect(de.features.length).toBeGreaterThan(0);
    expect(frde.features.length).toBe(
      de.features.length +
        JSON.parse(europe).features.filter((f: { properties: { country: string } }) => f.properties.country === "FR")
          .length,
    );
    await page.close();
  }, 60_000);
});
