// Node's flags for the command are said in four places: the bin's first line (jobs/cli.ts, what `npx`, cron and the
// systemd units run), the Makefile's CLI, the Containerfile's entrypoint, and the benchmarks (bench/support.ts), which
// must measure the command as it runs. They must say the same; and the bin's first line must start the command.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_NODE_FLAGS } from "../../bench/support.js";
import { ROOT } from "../helpers.js";

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const flagsIn = (words: readonly string[]) => words.filter((w) => w.startsWith("--"));

describe("the command's Node flags", () => {
  const shebang = read("jobs/cli.ts").split("\n")[0]!;

  it("are one list in the bin's first line, the Makefile, the Containerfile and the benchmarks", () => {
    expect(shebang).toMatch(/^#!\/usr\/bin\/env -S node( --\S+)+$/);
    const bin = flagsIn(shebang.split(" ").slice(3));
    expect(bin).toEqual(CLI_NODE_FLAGS);
    const make = read("Makefile").match(/^CLI := node (.*) dist\/jobs\/cli\.js$/m);
    expect(flagsIn(make?.[1]?.split(" ") ?? [])).toEqual(bin);
    const entry = read("Containerfile").match(/^ENTRYPOINT (\[.*\])$/m);
    const words = JSON.parse(entry?.[1] ?? "[]") as string[];
    expect(words.at(-1)).toBe("/opt/airspace-publisher/dist/jobs/cli.js");
    expect(flagsIn(words)).toEqual(bin);
  });

  it("start the built command as the kernel runs the bin (env -S)", () => {
    const words = shebang.slice(2).split(" ");
    const out = execFileSync(words[0]!, [...words.slice(1), path.join(ROOT, "dist/jobs/cli.js"), "--help"], {
      encoding: "utf8",
    });
    expect(out).toMatch(/^Usage: airspace-publisher /);
  });
});
