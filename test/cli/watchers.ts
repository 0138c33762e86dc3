// Watchers as operators run them, for the fault and soak tests: the built CLI's `watch` in its own process, its JSON
// log lines collected; and what a test asks of the store it publishes into.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { VersionManifest } from "../../src/model/manifest.js";
import { ROOT } from "../helpers.js";

export interface Watcher {
  child: ChildProcess;
  /** The JSON log lines, parsed, in order. */
  lines: Array<{ time: string; msg: string; [k: string]: unknown }>;
}

/** `watch --config config --store store --metrics-port 0 …more`; `running` collects it so the test can end it. */
export function startWatcher(config: string, store: string, running: ChildProcess[], ...more: string[]): Watcher {
  const child = spawn(
    process.execPath,
    [
      ...[path.join(ROOT, "dist", "jobs", "cli.js"), "watch", "--config", config, "--store", store],
      ...["--metrics-port", "0", ...more],
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  running.push(child);
  const w: Watcher = { child, lines: [] };
  let rest = "";
  child.stderr!.on("data", (d: Buffer) => {
    const parts = (rest + String(d)).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) if (line.startsWith("{")) w.lines.push(JSON.parse(line));
  });
  return w;
}

/** The log lines of one message. */
export const said = (w: Watcher, msg: string) => w.lines.filter((l) => l.msg === msg);

export async function until(what: () => boolean, ms: number, why: string): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`${why}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The live version, having checked that every object its manifest names is in the store. */
export function whole(store: string): string {
  const pointer = JSON.parse(readFileSync(path.join(store, "v1", "current.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(store, pointer.manifest), "utf8")) as VersionManifest;
  for (const e of Object.values(manifest.countries)) expect(existsSync(path.join(store, e.key)), e.key).toBe(true);
  return pointer.version;
}

/** A version's manifest. */
export const manifestOf = (store: string, version: string): VersionManifest =>
  JSON.parse(readFileSync(path.join(store, "v1", "versions", `${version}.json`), "utf8"));
