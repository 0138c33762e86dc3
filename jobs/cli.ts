#!/usr/bin/env node
// The `airspace-publisher` command. Exit codes: 0 success, 1 failure (nothing was switched), 2 bad usage.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
// each command's module is loaded when it runs: a scheduled publish does not load the origin, replay or explain code
import { type Io, processIo } from "./io.js";
import { UsageError } from "./usage.js";

/** One worked example per command, shown after its --help and in the README's reference. */
const EXAMPLES: Record<string, string> = {
  publish:
    "airspace-publisher publish --airspaces fixtures/uk --notams fixtures/uk/uk_pib_2026-08-22T1116Z.xml.gz --date 2026-08-22 --now 2026-08-22T11:15:00Z",
  run: "airspace-publisher run --config sources.json --store s3://bucket/prefix",
  republish: "airspace-publisher republish --config sources.json --date 2026-08-22 --store s3://bucket/prefix",
  status: "airspace-publisher status --store artifacts",
  serve: "airspace-publisher serve --store artifacts --dev",
  tokens: "airspace-publisher tokens create --tokens tokens.json --scope dynamic --name app",
  explain: "airspace-publisher explain --store artifacts --id yaixm-d117-pendine",
  "explain-schedule": `airspace-publisher explain-schedule --b 2609010800 --c 2609302359 --d "MON-FRI 0800-1600" --day 2026-09-14`,
  validate: "airspace-publisher validate artifacts/v1/objects/<sha256>.geojson.gz",
  history:
    "airspace-publisher history --store artifacts --id yaixm-d323f-southern-mda --from 2026-08-22T00:00:00Z --to 2026-08-23T00:00:00Z",
  replay: "airspace-publisher replay --airspaces fixtures/uk --notams pibs/ --store /tmp/replay",
  watch: "airspace-publisher watch --config sources.json --store s3://bucket/prefix --report /var/lib/asp/report.json",
};
const example = (name: string) => `\nExample:\n  $ ${EXAMPLES[name]}\n`;

/** A repeatable option's values, in order. */
const collect = (v: string, prev: string[] = []) => [...prev, v];

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
  publishingCommands(cli, io, setCode);
  watchAndRecordCommands(cli, io, setCode);
  readingCommands(cli, io, setCode);
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

/** publish, run and republish: the commands that publish a day. */
function publishingCommands(cli: Command, io: Io, setCode: (code: number) => void): void {
  cli
    .command("publish")
    .description("publish one UTC day into a store")
    .requiredOption(
      "--airspaces <[CC=]path>",
      "airspace file, directory or - (repeatable); CC names the country",
      collect,
    )
    .requiredOption("--date <YYYY-MM-DD>", "UTC day to publish")
    .option("--now <ISO>", "reference instant for isActive (default: the clock within the day, else its start)")
    .option("--store <DIR|s3://bucket/prefix>", "store: a directory or an S3 bucket", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint (else AWS_ENDPOINT_URL_S3, else AWS)")
    .option("--countries <CC,CC>", "publish only these countries")
    .option(
      "--notams <path>",
      "NOTAM file (EAD PIB XML, SOFIA-Briefing text, FAA NOTAM API JSON, ICAO text, JSON lines, gzip), directory or - (repeatable)",
      collect,
    )
    .option(
      "--notam-as-of <ISO>",
      "as-of time of NOTAM sources whose content states none (ICAO and SOFIA text, JSON lines, FAA JSON)",
    )
    .option("--notam-firs <FIR,FIR>", "FIRs briefed by NOTAM sources whose content does not say")
    .option(
      "--aup <[YYYY-MM-DD[Thhmm]=]path>",
      "AUP/UUP: NM RSA table (CSV) or B2B XML, file, directory or - (repeatable)",
      collect,
    )
    .option("--max-source-age <minutes>", "NOTAM and AUP sources older than this are stale (default 120)")
    .option("--variant <name>", "production (obstacle facets on NOTAM features) or development", "production")
    .option("--report <FILE>", "write the run report (JSON) here")
    .option("--static", "also publish the internal static tier (internal/static/v1)")
    .option("--retention-days <n>", "whole versions older than this are collected after publishing (default 7)")
    .option("--record-days <n>", "the record (every version, rebuildable) is kept this long (default 400)")
    .option("--quiet", "no progress or info logs")
    .addHelpText("after", example("publish"))
    .action(async (flags) => setCode(await (await import("./commands/publish.js")).publishCommand(flags, io)));
  for (const [name, description] of [
    ["run", "the scheduled job: fetch the configured sources, publish today (UTC), and tomorrow from 15:00 UTC"],
    ["republish", "publish a chosen day again from the configured sources (--date required)"],
  ] as const) {
    const command = cli
      .command(name)
      .description(description)
      .requiredOption("--config <FILE>", "sources config (docs/sources.example.json)")
      .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
      .option("--s3-endpoint <URL>", "S3-compatible endpoint")
      .option("--date <YYYY-MM-DD>", "UTC day (run: today)")
      .option("--now <ISO>", "reference instant")
      .option("--report <FILE>", "write the run report (JSON) here")
      .option("--retention-days <n>", "whole versions older than this are collected (default 7)")
      .option("--record-days <n>", "the record (every version, rebuildable) is kept this long (default 400)")
      .option("--quiet", "no progress or info logs");
    if (name === "run") {
      command.option(
        "--tomorrow <when>",
        "also publish tomorrow: auto (from 15:00 UTC), yes or no (default: auto; no with --date)",
      );
    }
    command.addHelpText("after", example(name)).action(async (flags) => {
      if (name === "republish" && !flags.date) throw new UsageError("republish needs --date YYYY-MM-DD");
      setCode(
        await (await import("./commands/run.js")).runCommand(flags, io, { fetch: globalThis.fetch, env: process.env }),
      );
    });
  }
}

/** watch (the publisher as a service), history and replay. */
function watchAndRecordCommands(cli: Command, io: Io, setCode: (code: number) => void): void {
  cli
    .command("watch")
    .description(
      "the publisher as a service: polls each source, publishes when something changed (SIGTERM: finish, exit 0)",
    )
    .requiredOption("--config <FILE>", "sources config (docs/sources.example.json; pollSeconds per source)")
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--report <FILE>", "write each publication's run report (JSON) here")
    .option("--metrics-port <PORT>", "port of /metrics (Prometheus text) and /healthz (default 9464; 0: any free)")
    .option("--metrics-host <HOST>", "address of the metrics port (default 127.0.0.1)")
    .option("--unhealthy-after <MINUTES>", "/healthz answers 503 after this long without a publication (default 180)")
    .option("--clock <ISO>", "run as if the clock read this instant at the start (rehearsals, tests, benchmarks)")
    .option("--retention-days <n>", "whole versions older than this are collected (default 7)")
    .option("--record-days <n>", "the record (every version, rebuildable) is kept this long (default 400)")
    .option("--quiet", "no progress or info logs")
    .addHelpText("after", example("watch"))
    .action(async (flags) => {
      const onStop = (stop: () => void) => {
        for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, stop);
      };
      const { watchCommand } = await import("./commands/watch.js");
      setCode(await watchCommand(flags, io, { fetch: globalThis.fetch, env: process.env, onStop }));
    });
  cli
    .command("history")
    .description("each change of a feature's state and intervals, with the version and time it was published")
    .requiredOption("--id <feature id>", "the feature's _id")
    .requiredOption("--from <ISO>", "from this instant")
    .requiredOption("--to <ISO>", "to this instant")
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--json", "JSON instead of text")
    .addHelpText("after", example("history"))
    .action(async (flags) => setCode(await (await import("./commands/history.js")).historyCommand(flags, io)));
  cli
    .command("replay")
    .description("publish a folder of dated NOTAM snapshots in order into one store, as the scheduled job met them")
    .requiredOption("--airspaces <[CC=]path>", "airspace file or directory (repeatable), read for every run", collect)
    .requiredOption("--notams <DIR>", "the snapshots, one briefing per file, in order of name")
    .option("--aup <[YYYY-MM-DD[Thhmm]=]path>", "AUP/UUP given to every run (repeatable)", collect)
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--delay <minutes>", "each run's now is the snapshot's as-of time plus this (default 5)")
    .option("--tomorrow <when>", "also publish tomorrow: auto (from 15:00 UTC), yes or no (default: auto)")
    .option("--max-source-age <minutes>", "NOTAM and AUP sources older than this are stale (default 120)")
    .option("--retention-days <n>", "whole versions older than this are collected (default 7)")
    .option("--record-days <n>", "the record (every version, rebuildable) is kept this long (default 400)")
    .option("--report <FILE>", "write every run's figures (JSON) here")
    .option("--quiet", "only the summary")
    .addHelpText("after", example("replay"))
    .action(async (flags) => setCode(await (await import("./commands/replay.js")).replayCommand(flags, io)));
}

/** The commands that read a store or a file: status, serve, tokens, explain, explain-schedule, validate. */
function readingCommands(cli: Command, io: Io, setCode: (code: number) => void): void {
  cli
    .command("status")
    .description("the shadow path's diagnostics document; exit 0 healthy, 1 degraded or absent")
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--json", "the document as JSON instead of text")
    .addHelpText("after", example("status"))
    .action(async (flags) => setCode(await (await import("./commands/status.js")).statusCommand(flags, io)));
  cli
    .command("serve")
    .description("the /v1 origin over a store: any country set as one gzip answer, bearer tokens")
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--tokens <FILE>", "token file (airspace-publisher tokens create)")
    .option("--port <n>", "port (0: any free one)", "8080")
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--refresh-seconds <n>", "re-read the pointers, status and token file this often", "5")
    .option("--cache-mb <n>", "bound of the fragment cache in memory", "512")
    .option("--dev", "loopback only: make a development token and print the map page's URL with it")
    .addHelpText("after", example("serve"))
    .action(async (flags) => setCode(await (await import("./commands/serve.js")).serveCommand(flags, io)));
  cli
    .command("tokens")
    .description("manage the origin's bearer tokens: create (printed once), list, revoke")
    .argument("<action>", "create, list or revoke")
    .option("--tokens <FILE>", "token file")
    .option("--scope <scope>", "create: dynamic or static (static also reads dynamic)")
    .option("--name <text>", "create: a name for the token")
    .option("--id <tok_…>", "revoke: the token's id (from list)")
    .addHelpText("after", example("tokens"))
    .action(async (action: string, flags) =>
      setCode(await (await import("./commands/tokens.js")).tokensCommand(action, flags, io)),
    );
  cli
    .command("explain")
    .description("why a feature has its state: from a published store, or from the inputs")
    .requiredOption("--id <feature id>", "the feature's _id")
    .option("--store <DIR|s3://bucket/prefix>", "a published store")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--airspaces <[CC=]path>", "or: airspace inputs (repeatable)", collect)
    .option("--notams <path>", "NOTAM inputs (repeatable)", collect)
    .option("--notam-as-of <ISO>", "as-of time of NOTAM inputs whose content states none")
    .option("--notam-firs <FIR,FIR>", "FIRs briefed by NOTAM inputs whose content does not say")
    .option("--aup <[YYYY-MM-DD[Thhmm]=]path>", "AUP/UUP inputs (repeatable)", collect)
    .option("--date <YYYY-MM-DD>", "UTC day (with inputs)")
    .option("--now <ISO>", "reference instant (with inputs)")
    .option("--max-source-age <minutes>", "NOTAM and AUP sources older than this are stale (with inputs; default 120)")
    .option("--at <ISO>", "with --store: the version live at this instant (the record)")
    .option("--day <YYYY-MM-DD>", "with --store: that day's version (with --at: the one live then)")
    .option("--json", "JSON instead of text")
    .addHelpText("after", example("explain"))
    .action(async (flags) =>
      setCode(await (await import("./commands/explain.js")).explainCommand({ store: "artifacts", ...flags }, io)),
    );
  cli
    .command("explain-schedule")
    .description("what the Item D parser makes of a schedule on one UTC day")
    .option("--b <YYMMDDhhmm>", "Item B")
    .option("--c <YYMMDDhhmm|PERM>", "Item C (may end in EST)")
    .option("--d <text>", "Item D")
    .option("--day <YYYY-MM-DD>", "UTC day to expand")
    .option("--lat <deg>", "Q-line centre latitude, for SR/SS")
    .option("--lon <deg>", "Q-line centre longitude, for SR/SS")
    .option("--jsonl", 'one {"itemB","itemC","itemD","day","lat","lon"} per stdin line, one answer per output line')
    .option("--schedule", "also print the parsed schedule")
    .addHelpText("after", example("explain-schedule"))
    .action(async (flags) =>
      setCode(await (await import("./commands/explain-schedule.js")).explainScheduleCommand(flags, io)),
    );
  cli
    .command("validate")
    .description("check a FeatureCollection (.geojson or .geojson.gz) against the contract")
    .argument("<file>", "FeatureCollection file")
    .addHelpText("after", example("validate"))
    .action(async (file: string) => setCode(await (await import("./commands/validate.js")).validateCommand(file, io)));
  // commander checks required options before unknown ones: `publish --bogus` would be told about --airspaces
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
