// `make bench` (map part): the map page loading and drawing the Europe-scale publication (20 000 airspaces,
// 40 000 NOTAMs, 2 000 AUP rows) in Debian's headless Chromium through the origin (in its own process).
// Measures, five times in a fresh page, the time from pressing Load to the page's "drawn" mark plus two
// animation frames (the canvas is painted by then), with the page's own phases, for one country (DE) and for
// EUROPE, medians (goal under 1.5 s each), once the origin has made the map form (that time is reported too).
// Writes bench/out/map.json.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../jobs/cli.js";
import { generate } from "./generate.js";
import { generateAup, generateNotams } from "./generate-dynamic.js";
import { captureIo, launchChromium, ROOT, SHARED, sharedAirspaceMissing, spawnOrigin } from "./support.js";

const OUT = path.join(ROOT, "bench", "out", "map");
const DATE = "2026-09-14";
const RUNS = 5;

const STORE = path.join(OUT, "store");
const TOKENS = path.join(OUT, "tokens.json");

/** Generates the Europe-scale input and publishes it (run in a child process: see `run`). */
async function prepare(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const input = path.join(OUT, "input");
  const dynamic = path.join(OUT, "dynamic");
  generate(SHARED, input);
  generateNotams(SHARED, dynamic, DATE);
  generateAup(SHARED, dynamic, DATE);
  const published = await main(
    [
      ...["publish", "--airspaces", input, "--notams", path.join(dynamic, "notams.jsonl")],
      ...["--aup", path.join(dynamic, `eaup_rsa_${DATE}T0700Z.csv`), "--date", DATE, "--now", `${DATE}T10:00:00Z`],
      ...["--store", STORE, "--quiet"],
    ],
    captureIo(),
  );
  if (published !== 0) throw new Error("publish failed");
}

async function run(): Promise<void> {
  if (sharedAirspaceMissing("map")) return;
  // preparing in a child process keeps this one small: a heap still shrinking after a publish run steals a core
  // from the browser while the first page is timed
  const prepared = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "prepare"], { stdio: "inherit" });
  if (prepared.status !== 0) throw new Error("preparing the publication failed");
  spawnSync("sync"); // the publish run's writes reach the disk now, not while a page is timed
  let token = "";
  await main(
    ["tokens", "create", "--tokens", TOKENS, "--scope", "dynamic"],
    captureIo((s) => {
      token += s;
    }),
  );
  const origin = await spawnOrigin(STORE, TOKENS, { log: path.join(OUT, "origin.log") });
  // the origin makes the map form of a version when it switches to it, long before pilots load the page: the
  // pages are timed once it has, and what it took is reported beside them
  const ready = JSON.parse(await origin.logged(/"msg":"map form ready"/)) as { countries: number; ms: number };
  console.log(`origin: the map form of ${ready.countries} countries made in ${(ready.ms / 1000).toFixed(2)} s`);
  const browser = await launchChromium();
  type Run = { seconds: number; features: number; phases: Record<string, unknown> };
  /** Five fresh pages loading `countries`: pressing Load to the canvas painted (two animation frames). */
  const timed = async (countries: string, shot: string): Promise<Run[]> => {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${origin.url}/`);
      await page.waitForSelector(`#countries option[value=${countries}]`);
      await page.selectOption("#countries", countries);
      await page.fill("#token", token.trim());
      const t0 = performance.now();
      await page.click("button[type=submit]");
      await page.waitForSelector("body[data-loaded]", { timeout: 60_000 });
      await page.evaluate(() => {
        const raf = (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame;
        return new Promise<void>((r) => raf(() => raf(r)));
      });
      const seconds = (performance.now() - t0) / 1000;
      const inPage = await page.evaluate(() => {
        const m = (
          globalThis as unknown as {
            airspaceMap: { drawn(): number; phases(): Record<string, unknown> };
          }
        ).airspaceMap;
        return { drawn: m.drawn(), phases: m.phases() };
      });
      runs.push({ seconds: +seconds.toFixed(2), features: inPage.drawn, phases: inPage.phases });
      if (i === 0 && countries === "EUROPE") popups.push(...(await timePopups(page)));
      if (i === 0) await page.screenshot({ path: path.join(OUT, shot) });
      await page.close();
    }
    return runs;
  };
  const popups: { country: string; seconds: number }[] = [];
  try {
    const result: Record<string, unknown> = { mapFormMadeSeconds: ready.ms / 1000 };
    for (const [countries, goal] of [
      ["DE", 1.5],
      ["EUROPE", 1.5],
    ] as const) {
      const runs = await timed(countries, `${countries.toLowerCase()}.png`);
      const median = [...runs].sort((a, b) => a.seconds - b.seconds)[RUNS >> 1]!;
      result[countries] = { runs, medianSeconds: median.seconds, goal: `< ${goal} s` };
      console.log(`map page, ${countries} (${median.features} features) in headless Chromium: load to painted`);
      const ms = (r: Run, k: string) => `${Math.round(Number(r.phases[k]))} ms`;
      for (const r of runs)
        console.log(
          `  ${r.seconds.toFixed(2)} s: answer ${ms(r, "fetchMs")}, last byte ${ms(r, "downloadMs")} later (decoding` +
            ` ${r.phases.pieces} frames as they arrive), drawn in ${ms(r, "drawMs")}, fitted in ${ms(r, "fitMs")},` +
            ` page done at ${ms(r, "loadedMs")}, painted in ${ms(r, "paintMs")}`,
        );
      console.log(`median ${median.seconds.toFixed(2)} s (goal < ${goal} s)`);
      if (median.seconds >= goal) {
        console.log(`map: ${countries} MISSED its goal`);
        process.exitCode = 1;
      }
    }
    result.popups = popups;
    for (const p of popups) console.log(`popup in ${p.country}, its details shown after ${p.seconds.toFixed(2)} s`);
    writeFileSync(path.join(OUT, "..", "map.json"), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await browser.close();
    await origin.close();
  }
}

type MapHooks = { airspaceMap: { idsOf(country: string, n: number): string[]; open(id: string): void } };

/**
 * Popups in the largest country and in a small one, twice each: the first makes the origin read the country's
 * fragment, the second finds it kept. Seconds from asking to the details (the limits row) shown.
 */
async function timePopups(page: import("playwright-core").Page): Promise<{ country: string; seconds: number }[]> {
  const out: { country: string; seconds: number }[] = [];
  for (const country of ["GB", "DE"]) {
    const ids = await page.evaluate(([cc]) => (globalThis as unknown as MapHooks).airspaceMap.idsOf(cc!, 2), [
      country,
    ] as const);
    for (const id of ids) {
      const t0 = performance.now();
      await page.evaluate(([x]) => (globalThis as unknown as MapHooks).airspaceMap.open(x!), [id] as const);
      // the popup opens with the name at once ("Loading its details…"); the limits row comes with the properties
      await page.waitForFunction(
        () => {
          const doc = (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
          ).document;
          return doc.querySelector(".leaflet-popup-content")?.textContent.includes("Limits") === true;
        },
        undefined,
        { timeout: 60_000 },
      );
      out.push({ country, seconds: +((performance.now() - t0) / 1000).toFixed(2) });
      await page.keyboard.press("Escape");
    }
  }
  return out;
}

if (process.argv[2] === "prepare") await prepare();
else await run();
