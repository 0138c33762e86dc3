import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LocalStore } from "../../src/publish/local-store.js";
import { tempDir } from "../helpers.js";

describe("the local store's compare-and-swap across processes", () => {
  it("breaks a lock file left by a process that no longer exists (a killed publisher)", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "v1"), { recursive: true });
    writeFileSync(path.join(dir, "v1", "current.json.lock"), "2147483646");
    const store = new LocalStore(dir);
    expect(await store.putIfMatch("v1/current.json", Buffer.from("x"), {}, { absent: true })).toBe("written");
    expect(await store.list("v1/")).toEqual(["v1/current.json"]);
  });

  it("a condition that no longer holds is a conflict", async () => {
    const store = new LocalStore(tempDir());
    expect(await store.putIfMatch("k", Buffer.from("a"), {}, { absent: true })).toBe("written");
    expect(await store.putIfMatch("k", Buffer.from("b"), {}, { absent: true })).toBe("conflict");
  });
});
