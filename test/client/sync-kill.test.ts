// `airspace-publisher sync` killed mid-write (issue 51): the CLI as a real process against a real origin, SIGKILLed as
// soon as it starts writing a file in its folder (inotify names the temporary file), and at random moments after.
// Each file in the folder is then a whole collection as published or absent, never a part; the next sync completes
// and leaves every file byte for byte the live collection, and no temporary file behind.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, watch } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rng } from "../../bench/generate.js";
import { ROOT, tempDir } from "../helpers.js";
import { publishSample, type Running, serve } from "../origin/harness.js";
import { SEED } from "../publish/crash-harness.js";

const CLI = path.join(ROOT, "dist/jobs/cli.js");
const COUNTRIES = ["AT", "BE", "CH", "DE", "FR"];
const KILLS = 8;

describe("sync killed mid-write", () => {
  let origin: Running;
  let token: string;
  const live = new Map<string, string>();

  beforeAll(async () => {
    const published = await publishSample();
    origin = await serve({ store: published.store, tokens: published.tokensFile });
    token = published.dynamicToken;
    for (const cc of COUNTRIES) {
      const r = await fetch(`${origin.url}/v1/data/airspaces?countries=${cc}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(r.status).toBe(200);
      live.set(cc, await r.text());
    }
  }, 120_000);
  afterAll(async () => origin?.close());

  const args = (out: string) => [
    CLI,
    "sync",
    ...["--endpoint", origin.url, "--token", token, "--countries", COUNTRIES.join(","), "--out", out],
  ];

  /** One sync into `out`, killed at `delayMs` after its first temporary file appears (or when it ends by itself). */
  const killedSync = (out: string, delayMs: number) =>
    new Promise<{ killed: boolean; tmpSeen: number }>((resolve) => {
      const child = spawn(process.execPath, args(out), { cwd: ROOT, stdio: "ignore" });
      let tmpSeen = 0;
      const watcher = watch(out, (_, name) => {
        if (!name?.endsWith(".tmp") || tmpSeen++ > 0) return;
        setTimeout(() => child.kill("SIGKILL"), delayMs);
      });
      child.on("exit", (_, signal) => {
        watcher.close();
        resolve({ killed: signal === "SIGKILL", tmpSeen });
      });
    });

  it(`leaves whole files or none after ${KILLS} kills (seed ${SEED}), and the next sync heals the folder`, async () => {
    const random = rng(SEED);
    const out = tempDir("sync-kill-");
    let killed = 0;
    let leftTmp = 0;
    for (let i = 0; i < KILLS; i++) {
      // with the record gone every country is downloaded and written again, over the whole files there are
      rmSync(path.join(out, ".airspace-sync.json"), { force: true });
      const r = await killedSync(out, i === 0 ? 0 : Math.floor(random() * 40));
      if (r.killed) killed++;
      const names = readdirSync(out);
      if (names.some((n) => n.endsWith(".tmp"))) leftTmp++;
      for (const cc of COUNTRIES) {
        const file = path.join(out, `${cc}.geojson`);
        if (existsSync(file)) expect(readFileSync(file, "utf8") === live.get(cc), `${cc} after kill ${i}`).toBe(true);
      }
      const state = path.join(out, ".airspace-sync.json");
      if (existsSync(state)) expect(() => JSON.parse(readFileSync(state, "utf8"))).not.toThrow();
    }
    // the kills landed while files were being written: some left a temporary file (a write cut before its rename)
    expect(killed).toBeGreaterThanOrEqual(KILLS / 2);
    expect(leftTmp).toBeGreaterThan(0);
    const healed = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, args(out), { cwd: ROOT, stdio: "ignore" }).on("exit", (code) => resolve(code));
    });
    expect(healed).toBe(0);
    for (const cc of COUNTRIES) expect(readFileSync(path.join(out, `${cc}.geojson`), "utf8")).toBe(live.get(cc));
    expect(readdirSync(out).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    console.log(`sync kills (seed ${SEED}): ${killed} of ${KILLS} killed mid-run, ${leftTmp} left a temporary file`);
  }, 180_000);
});
