import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LocalStore } from "../../src/store/local-store.js";
import { tempDir } from "../helpers.js";

describe("the local store's compare-and-swap across processes", () => {
  it.each([
    ["a process that no longer exists (a killed publisher)", "2147483646"],
    ["a publisher killed between creating its lock and writing its pid (empty)", ""],
  ])("breaks a lock file left by %s", async (_, holder) => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "v1"), { recursive: true });
    writeFileSync(path.join(dir, "v1", "current.json.lock"), holder);
    const store = new LocalStore(dir);
    expect(await store.putIfMatch("v1/current.json", Buffer.from("x"), {}, { absent: true })).toBe("written");
    expect(readdirSync(path.join(dir, "v1"))).toEqual(["current.json"]);
  });

  it("makes its lock with the pid already in it, and leaves no lock or temporary file after", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "v1"), { recursive: true });
    const store = new LocalStore(dir);
    const seen: string[] = [];
    // a lock file is never seen without its pid: sample the folder's locks while conditional puts follow one another
    const watch = setInterval(() => {
      for (const name of readdirSync(path.join(dir, "v1")).filter((n) => n.endsWith(".lock"))) {
        const text = readIfThere(path.join(dir, "v1", name));
        if (text !== undefined) seen.push(text);
      }
    }, 0);
    for (let i = 0; i < 200; i++) await store.putIfMatch(`v1/k${i}`, Buffer.from(String(i)), {}, { absent: true });
    clearInterval(watch);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((text) => text === String(process.pid))).toBe(true);
    expect(readdirSync(path.join(dir, "v1")).sort()).toEqual(Array.from({ length: 200 }, (_, i) => `k${i}`).sort());
  });

  it("a condition that no longer holds is a conflict", async () => {
    const store = new LocalStore(tempDir());
    expect(await store.putIfMatch("k", Buffer.from("a"), {}, { absent: true })).toBe("written");
    expect(await store.putIfMatch("k", Buffer.from("b"), {}, { absent: true })).toBe("conflict");
  });
});

/** A file's text, or undefined when it went away before it could be read. */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
