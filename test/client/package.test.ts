// The client as an app imports it (issue 51): `airspace-publisher/client` and `/client/folder` from the built package
// (package.json `exports`), in a Node process of its own (the Node that runs the suite: CI runs it on 20, 24 and 22),
// syncing from a real origin; its declarations are there for TypeScript users.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers.js";
import { publishSample, type Running, serve } from "../origin/harness.js";

const APP = `
import { createClient } from "airspace-publisher/client";
import { folderStorage } from "airspace-publisher/client/folder";
const [endpoint, token, out] = process.argv.slice(1);
const client = createClient({ endpoint, token, countries: ["DE", "CH"], storage: folderStorage(out) });
const first = await client.sync();
const again = await client.sync();
const eta = await client.activeAt(Date.now(), { band: { lowerFt: 2000, upperFt: 4500 } });
console.log(JSON.stringify({ first, again, features: (await client.features()).length, eta: eta.length }));
`;

describe("the built client package", () => {
  let origin: Running;
  let token: string;
  beforeAll(async () => {
    const published = await publishSample();
    origin = await serve({ store: published.store, tokens: published.tokensFile });
    token = published.dynamicToken;
  }, 120_000);
  afterAll(async () => origin?.close());

  it(`imports as airspace-publisher/client in Node ${process.versions.node} and keeps a folder`, async () => {
    const out = tempDir("client-app-");
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", APP, origin.url, token, out], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.first.full).toBe(true);
    expect(Object.keys(r.first.changed)).toEqual(["CH", "DE"]);
    expect(r.again).toMatchObject({ full: false, changed: {} });
    expect(r.features).toBeGreaterThan(0);
    expect(r.eta).toBe(r.features);
    expect(readFileSync(path.join(out, "DE.geojson"), "utf8")).toMatch(/^\{"type":"FeatureCollection"/);
    // declarations for TypeScript users, where package.json says they are
    const exports = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).exports;
    for (const entry of ["./client", "./client/folder", "./client/indexeddb"]) {
      expect(existsSync(path.join(ROOT, exports[entry].types)), entry).toBe(true);
      expect(existsSync(path.join(ROOT, exports[entry].default)), entry).toBe(true);
    }
  }, 60_000);
});
