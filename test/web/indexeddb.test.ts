// The client's IndexedDB storage (src/client/storage-indexeddb.ts) in Chromium, bundled as the page bundles it, on a
// page of a loopback origin: a record of 20 Mi characters is kept in parts (Chromium refuses one value over ~133 MB
// serialised) and read back whole; a shorter one written over it leaves no part of the longer behind; records of
// two keys stay apart; a key never written is undefined.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/support.js";
import { ROOT } from "../helpers.js";

let browser: Browser;
let page: Page;
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html>"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const bundled = await build({
    entryPoints: [path.join(ROOT, "src", "client", "storage-indexeddb.ts")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "clientStorage",
    target: "es2020",
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.addScriptTag({ content: bundled.outputFiles[0]!.text });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe("indexedDbStorage in Chromium", () => {
  it("keeps a record of 20 Mi characters in parts, and a shorter one over it whole", async () => {
    const result = await page.evaluate(async () => {
      type Held = { version: string; day: string; digest: string; text: string };
      const { indexedDbStorage } = (
        globalThis as unknown as {
          clientStorage: {
            indexedDbStorage(name: string): {
              load(k: string): Promise<Held | undefined>;
              save(k: string, h: Held): Promise<void>;
            };
          };
        }
      ).clientStorage;
      const storage = indexedDbStorage("test-parts");
      // 20 Mi characters, each 1 Ki block different, so a part out of place or missing shows
      const blocks: string[] = [];
      for (let i = 0; i < 20 * 1024; i++) blocks.push(String(i).padStart(8, "0").repeat(128));
      const long = blocks.join("");
      await storage.save("GB", { version: "v1", day: "2026-08-22", digest: "d1", text: long });
      const back = await storage.load("GB");
      await storage.save("GB.tomorrow", { version: "t1", day: "2026-08-23", digest: "t", text: "tomorrow" });
      await storage.save("GB", { version: "v2", day: "2026-08-22", digest: "d2", text: "short" });
      const short = await storage.load("GB");
      // what the object store holds: the heads and one part each
      // (the browser's IndexedDB, typed loosely: the tests compile against Node's types)
      type Req<T> = { result: T; error: unknown; onsuccess: (() => void) | null; onerror: (() => void) | null };
      type Db = { transaction(s: string, m: string): { objectStore(s: string): { getAllKeys(): Req<string[]> } } };
      const idb = (globalThis as unknown as { indexedDB: { open(n: string, v: number): Req<Db> } }).indexedDB;
      const keys = await new Promise<string[]>((resolve, reject) => {
        const open = idb.open("test-parts", 1);
        open.onsuccess = () => {
          const req = open.result.transaction("countries", "readonly").objectStore("countries").getAllKeys();
          req.onsuccess = () => resolve([...req.result].sort());
          req.onerror = () => reject(req.error);
        };
      });
      return {
        longLength: long.length,
        backSame: back?.text === long,
        back: { ...back, text: undefined },
        short,
        tomorrow: await storage.load("GB.tomorrow"),
        never: await storage.load("FR"),
        keys,
      };
    });
    expect(result.longLength).toBe(20 * 1024 * 1024);
    expect(result.backSame).toBe(true);
    expect(result.back).toEqual({ version: "v1", day: "2026-08-22", digest: "d1" });
    expect(result.short).toEqual({ version: "v2", day: "2026-08-22", digest: "d2", text: "short" });
    expect(result.tomorrow).toEqual({ version: "t1", day: "2026-08-23", digest: "t", text: "tomorrow" });
    expect(result.never).toBeUndefined();
    expect(result.keys).toEqual(["GB", "GB#0000", "GB.tomorrow", "GB.tomorrow#0000"]);
  }, 60_000);
});
