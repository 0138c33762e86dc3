// Shared test helpers: where the real corpus is, golden-file comparison, a throwaway store folder.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURES = path.join(ROOT, "fixtures");
/** The shared corpus beside the checkout (`../shared/data`), when present. */
export const SHARED_DATA = path.resolve(ROOT, "..", "shared", "data");
export const HAS_SHARED = existsSync(SHARED_DATA);

/** Says clearly that corpus-wide checks only ran on the bundled fixtures. */
export function warnNoShared(what: string): void {
  if (!HAS_SHARED) console.warn(`${what}: ${SHARED_DATA} is absent; checked the bundled fixtures only`);
}

export const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** Compares `actual` with the golden JSON file, or rewrites it when UPDATE_GOLDEN=1. */
export function expectGolden(file: string, actual: unknown): void {
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (UPDATE || !existsSync(file)) {
    if (!UPDATE) throw new Error(`golden file ${file} is missing; run with UPDATE_GOLDEN=1 and review it`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, "utf8")));
}

export function tempDir(prefix = "asp-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}
