#!/usr/bin/env -S node --max-semi-space-size=16
// The `airspace-publisher` command. Exit codes: 0 success, 1 failure (nothing was switched), 2 bad usage.
// Run with the young generation of Node 20 (semi-spaces of 16 MiB): Node 24's V8 sizes it at 128 MiB, which alone
// took the Europe-scale publish past 1 GiB of RSS (docs/benchmarks.md). The Makefile and the Containerfile say the same.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { COMMANDS, example } from "./cli-commands.js";
import { type Io, processIo } from "./io.js";
import { UsageError } from "./usage.js";

function program(io: Io, setCode: (code: number) => void): Command {
  const cli = new Command("airspace-publisher")
    .description("Publishes airspaces and graphical NOTAMs as per-country GeoJSON artifacts")
    .exitOverride()
    .configureHelp({ helpWidth: 110 })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // `airspace-publisher: unknown option '--fo' (Did you mean --foo?); see airspace-publisher publish --help`
      outputError: (s, write) =>
        write(
          `airspace-publisher: ${s
            .replace(/^error: /, "")
            .trim()
            .replace(/\s*\n\s*/g, " ")}; see --help\n`,
        ),
    })
    .showHelpAfterError(false);
  for (const register of COMMANDS) register(cli, io, setCode);
  // commander checks required options before unknown ones: `publish --bogus` would be told about --airspaces
  cli.hook("preSubcommand", (root, sub) => {
    const bad = firstUnknownOption(sub, root.args.slice(1));
    if (bad === undefined) return;
    // commander's own message, with its "Did you mean"; its method is not in the typings
    const own = (sub as unknown as { unknownOption?: (flag: string) => never }).unknownOption;
    if (typeof own === "function") own.call(sub, bad);
    sub.error(`error: unknown option '${bad}'`, { code: "commander.unknownOption", exitCode: 2 });
  });
  return cli;
}

/** The first argument that looks like an option `cmd` does not have (values of its options skipped), if any. */
function firstUnknownOption(cmd: Command, args: readonly string[]): string | undefined {
  const known = new Map(
    cmd.options.flatMap((o) => [o.long, o.short].filter((f) => f !== undefined).map((f) => [f, o])),
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return undefined;
    if (!arg.startsWith("-") || arg === "-") continue;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name === "-h" || name === "--help") continue;
    const option = known.get(name);
    if (!option) return arg;
    if ((option.required || option.optional) && eq < 0) i++; // its value, which may be `-` (stdin)
  }
  return undefined;
}

/** Every command's --help, as the README's CLI reference holds it (test/cli/reference.test.ts keeps them equal). */
export function cliReference(): string {
  const quiet = { write: () => true } as unknown as NodeJS.WriteStream;
  const cli = program({ stdout: quiet, stderr: quiet, stdinStream: () => process.stdin, now: Date.now }, () => {});
  return cli.commands
    .map((c) => `\`\`\`\n${c.helpInformation().trimEnd()}\n${example(c.name()).trimEnd()}\n\`\`\``)
    .join("\n\n");
}

/** Runs the CLI in-process; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let code = 0;
  try {
    await program(io, (c) => {
      code = c;
    }).parseAsync([...argv], { from: "user" });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version are successes; everything else commander refuses is bad usage
      return err.exitCode === 0 || err.code === "commander.helpDisplayed" ? 0 : 2;
    }
    if (err instanceof UsageError || (err instanceof Error && (err as { usage?: boolean }).usage === true)) {
      io.stderr.write(`airspace-publisher: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`airspace-publisher: ${oneLine(err)}\n`);
    return 1;
  }
}

/** The error and its causes on one line, without a stack. */
function oneLine(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e !== undefined && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    parts.push(e instanceof Error ? e.message : String(e));
    if (!(e instanceof Error)) break;
  }
  return parts.join(": ");
}

/** True when this module is the program (also through npm's bin symlink), false when imported. */
function isEntryPoint(): boolean {
  try {
    return realpathSync(process.argv[1] ?? "") === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  // `… | head`: the reader went away, which is the reader's choice, not an error: stop quietly, exit 0
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") process.exit(0);
      throw err;
    });
  }
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
