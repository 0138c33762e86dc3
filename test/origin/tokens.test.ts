import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashToken, newToken, TokenFile, verifyToken } from "../../src/origin/tokens.js";
import { tempDir } from "../helpers.js";
import { cli } from "./harness.js";

describe("tokens", () => {
  it("create prints the token once; the file (mode 0600) keeps only its hash and scopes", async () => {
    const file = path.join(tempDir(), "tokens.json");
    const a = await cli(["tokens", "create", "--tokens", file, "--scope", "static", "--name", "ops"]);
    expect(a.code).toBe(0);
    const token = a.out.trim();
    expect(token).toMatch(/^asp_[A-Za-z0-9_-]{43}$/);
    expect(a.err).toMatch(/^created tok_[0-9a-f]{12} \(dynamic, static\); the token is shown once/);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const data = TokenFile.parse(JSON.parse(text));
    expect(data.tokens).toEqual([
      expect.objectContaining({
        name: "ops",
        sha256: hashToken(token),
        scopes: ["dynamic", "static"],
        revokedAt: null,
      }),
    ]);
    const b = await cli(["tokens", "create", "--tokens", file, "--scope", "dynamic"]);
    expect(b.out.trim()).not.toBe(token);
    const list = await cli(["tokens", "list", "--tokens", file]);
    expect(list.out.trim().split("\n")).toHaveLength(2);
    expect(list.out).not.toContain("asp_");
  });

  it("revoke marks a token revoked; verification then refuses it; unknown ids and bad files are usage errors", async () => {
    const file = path.join(tempDir(), "tokens.json");
    const token = (await cli(["tokens", "create", "--tokens", file, "--scope", "dynamic"])).out.trim();
    const id = TokenFile.parse(JSON.parse(readFileSync(file, "utf8"))).tokens[0]!.id;
    expect(verifyToken(TokenFile.parse(JSON.parse(readFileSync(file, "utf8"))), token)?.id).toBe(id);
    expect((await cli(["tokens", "revoke", "--tokens", file, "--id", id])).code).toBe(0);
    const after = TokenFile.parse(JSON.parse(readFileSync(file, "utf8")));
    expect(after.tokens[0]!.revokedAt).toMatch(/Z$/);
    expect(verifyToken(after, token)).toBeUndefined();
    expect(await cli(["tokens", "revoke", "--tokens", file, "--id", "tok_000000000000"])).toMatchObject({ code: 2 });
    expect(await cli(["tokens", "create", "--tokens", file, "--scope", "admin"])).toMatchObject({ code: 2 });
    writeFileSync(file, "{}");
    const bad = await cli(["tokens", "list", "--tokens", file]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/is not a token file/);
  });

  it("verifies against every entry, the scopes of the one that matches", () => {
    const made = Array.from({ length: 5 }, (_, i) =>
      newToken(`t${i}`, i % 2 ? "static" : "dynamic", "2026-09-14T00:00:00Z"),
    );
    const file: TokenFile = { schema: 1, tokens: made.map((m) => m.entry) };
    for (const m of made) expect(verifyToken(file, m.token)).toBe(m.entry);
    expect(verifyToken(file, `${made[0]!.token}x`)).toBeUndefined();
    expect(verifyToken(file, "")).toBeUndefined();
  });
});
