// An in-process Io for CLI tests: captured stdout and stderr (not a terminal), a given stdin, a fixed clock.
import { PassThrough, Readable } from "node:stream";
import type { Io } from "../../jobs/io.js";

export function io(stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => {
    const s = new PassThrough() as unknown as NodeJS.WriteStream;
    s.write = ((chunk: string) => into.push(String(chunk)) > 0) as NodeJS.WriteStream["write"];
    return s;
  };
  const value: Io = {
    stdout: sink(out),
    stderr: sink(err),
    stdinStream: () => Readable.from([Buffer.from(stdin)]),
    now: () => Date.parse("2026-09-14T10:00:00Z"),
  };
  return { io: value, out: () => out.join(""), err: () => err.join("") };
}
