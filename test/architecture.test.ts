// The layering of STYLE.md: imports point down, and nothing in src/ reads the process or the clock.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const SRC = path.join(ROOT, "src");
const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => path.join(e.parentPath, e.name));

/** Layer of a file: its folder under src/, or the file name for top-level orchestrators. */
const layerOf = (file: string) =>
  path
    .relative(SRC, file)
    .split(path.sep)[0]!
    .replace(/\.[jt]s$/, "");

/** Which layers each folder may import (besides itself). */
const FOLDERS: Record<string, string[]> = {
  model: [],
  geo: ["model"],
  schedule: ["model"],
  store: ["model"],
  notam: ["model", "geo", "ingest", "schedule"],
  aup: ["model", "ingest"],
  fetch: ["model", "store"],
  shadow: ["model", "publish", "store"],
  ingest: ["model", "geo"],
  normalize: ["model", "geo", "ingest"],
  resolve: ["model", "geo", "normalize", "notam", "schedule"],
  // the vector tiles of a version (issue 60): built from the published features, published with them, served
  tiles: ["model", "geo"],
  publish: ["model", "geo", "store", "tiles"],
  origin: ["model", "publish", "store", "tiles"],
  // the app's client (issue 51): runs in browsers too, so it takes only the model's pure pieces
  client: ["model"],
};

/**
 * The top-level files, lowest first: each may import every folder and the files before it, never one after it, so
 * that the day's publication (pipeline → derive → stages → …) has no circle.
 */
const TOP = [
  "report",
  "sources",
  "options",
  "ahead",
  "day-cache",
  "tier",
  "read-stage",
  "resolve-stage",
  "derive",
  "refresh",
  "pipeline",
];

const ALLOWED: Record<string, string[]> = {
  ...FOLDERS,
  ...Object.fromEntries(TOP.map((name, i) => [name, [...Object.keys(FOLDERS), ...TOP.slice(0, i)]])),
};

describe("architecture", () => {
  it("has the stage folders", () =>
    expect(Object.keys(FOLDERS).every((l) => files.some((f) => layerOf(f) === l))).toBe(true));

  it.each(files.map((f) => [path.relative(ROOT, f), f]))("%s imports only layers below it", (_, file) => {
    const layer = layerOf(file);
    const allowed = ALLOWED[layer];
    expect(allowed, `${layer} has no layer: add it to FOLDERS or TOP`).toBeDefined();
    const text = readFileSync(file, "utf8");
    const imported = [...text.matchAll(/(?:from |import\()"(\.{1,2}\/[^"]+)"/g)].map((m) =>
      layerOf(path.resolve(path.dirname(file), m[1]!)),
    );
    expect(imported.filter((l) => l !== layer && !allowed!.includes(l))).toEqual([]);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))("%s reads neither the process nor the clock", (_, file) => {
    const code = readFileSync(file, "utf8").replace(/^\s*(\/\/|\*).*$/gm, "");
    expect(code).not.toMatch(/process\.(env|argv|stdout|stderr|exit)|console\.|Date\.now\(|new Date\(\)/);
  });
});
