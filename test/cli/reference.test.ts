// The CLI reference (docs/cli.md) is every command's own --help (commander's option list) with its worked example: this
// test compares them, so the reference cannot drift from the options that exist. `UPDATE_GOLDEN=1` rewrites it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliReference, main } from "../../jobs/cli.js";
import { ROOT, UPDATE } from "../helpers.js";
import { io } from "./io.js";

const REFERENCE = path.join(ROOT, "docs", "cli.md");
const START = "<!-- cli-reference:start (generated from --help; test/cli/reference.test.ts) -->";
const END = "<!-- cli-reference:end -->";

describe("the CLI reference (docs/cli.md)", () => {
  it("is every command's --help, word for word", () => {
    const text = readFileSync(REFERENCE, "utf8");
    const [before, rest] = text.split(START);
    const [held, after] = (rest ?? "").split(END);
    const expected = `\n${cliReference()}\n`;
    if (UPDATE && rest !== undefined) writeFileSync(REFERENCE, `${before}${START}${expected}${END}${after}`);
    else expect(held).toBe(expected);
  });

  it("names every option of every command, each command with an example", async () => {
    const reference = cliReference();
    for (const command of [
      "publish",
      "run",
      "republish",
      "status",
      "serve",
      "tokens",
      "explain",
      "explain-schedule",
      "validate",
    ]) {
      const t = io();
      expect(await main([command, "--help"], t.io)).toBe(0);
      const options = [...t.out().matchAll(/^\s+(?:-\w, )?(--[a-z0-9-]+)/gm)].map((m) => m[1]!);
      expect(options).toContain("--help");
      for (const o of options) expect(reference).toContain(o);
      expect(t.out()).toMatch(new RegExp(`Example:\\n {2}\\$ airspace-publisher ${command} `));
    }
    for (const o of ["--static", "--retention-days", "--s3-endpoint", "--countries", "--notam-firs"]) {
      expect(reference).toContain(o);
    }
  });
});
