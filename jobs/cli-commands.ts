// The commands of `airspace-publisher`, each registered by a function of its own: its options, its help example,
// and its action, which loads the command's module when it runs (a scheduled publish does not load the origin,
// replay or explain code).
import type { Command } from "commander";
import type { Io } from "./io.js";
import { UsageError } from "./usage.js";

/** Registers one command on the program; its action ends by setting the exit code. */
type Register = (cli: Command, io: Io, setCode: (code: number) => void) => void;

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
  sync: "airspace-publisher sync --endpoint http://127.0.0.1:8080 --token asp_… --countries GB --out airspaces --every 60",
};

/** A command's example, as its --help ends. */
export const example = (name: string) => `\nExample:\n  $ ${EXAMPLES[name]}\n`;

/** A repeatable option's values, in order. */
const collect = (v: string, prev: string[] = []) => [...prev, v];

const publish: Register = (cli, io, setCode) => {
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
    .option("--tiles", "also publish the version's vector tiles, one PMTiles archive of EUROPE (docs/tiles.md)")
    .option("--retention-days <n>", "whole versions older than this are collected after publishing (default 7)")
    .option("--record-days <n>", "the record (every version, rebuildable) is kept this long (default 400)")
    .option("--quiet", "no progress or info logs")
    .addHelpText("after", example("publish"))
    .action(async (flags) => setCode(await (await import("./commands/publish.js")).publishCommand(flags, io)));
};

/** `run` and `republish`: the scheduled job and an operator's chosen day, from the configured sources. */
function scheduled(cli: Command, io: Io, setCode: (code: number) => void, name: "run" | "republish", what: string) {
  return cli
    .command(name)
    .description(what)
    .requiredOption("--config <FILE>", "sources config (docs/sources.example.json)")
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--date <YYYY-MM-DD>", "UTC day (run: today)")
    .option("--now <ISO>", "reference instant")
    .option("--report <FILE>", "write the run report (JSON) here")
    .option("--retention-days <n>", "whole versions older than this are collected (default 7)")
    .option("--record-days <n>", "the record (every version, rebuildable) is kept this long (default 400)")
    .option("--tiles", "also publish each version's vector tiles, one PMTiles archive of EUROPE (docs/tiles.md)")
    .option("--quiet", "no progress or info logs")
    .action(async (flags) => {
      if (name === "republish" && !flags.date) throw new UsageError("republish needs --date YYYY-MM-DD");
      const { runCommand } = await import("./commands/run.js");
      setCode(await runCommand(flags, io, { fetch: globalThis.fetch, env: process.env }));
    });
}

const run: Register = (cli, io, setCode) => {
  scheduled(
    cli,
    io,
    setCode,
    "run",
    "the scheduled job: fetch the configured sources, publish today (UTC), and tomorrow from 15:00 UTC",
  )
    .option(
      "--tomorrow <when>",
      "also publish tomorrow: auto (from 15:00 UTC), yes or no (default: auto; no with --date)",
    )
    .addHelpText("after", example("run"));
};

const republish: Register = (cli, io, setCode) => {
  scheduled(
    cli,
    io,
    setCode,
    "republish",
    "publish a chosen day again from the configured sources (--date required)",
  ).addHelpText("after", example("republish"));
};

const watch: Register = (cli, io, setCode) => {
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
    .option("--tiles", "each version with its vector tiles, one PMTiles archive of EUROPE (docs/tiles.md)")
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
};

const history: Register = (cli, io, setCode) => {
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
};

const replay: Register = (cli, io, setCode) => {
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
    .option("--tiles", "every version with its vector tiles, one PMTiles archive of EUROPE (docs/tiles.md)")
    .option("--quiet", "only the summary")
    .addHelpText("after", example("replay"))
    .action(async (flags) => setCode(await (await import("./commands/replay.js")).replayCommand(flags, io)));
};

const status: Register = (cli, io, setCode) => {
  cli
    .command("status")
    .description("the shadow path's diagnostics document; exit 0 healthy, 1 degraded or absent")
    .option("--store <DIR|s3://bucket/prefix>", "store", "artifacts")
    .option("--s3-endpoint <URL>", "S3-compatible endpoint")
    .option("--json", "the document as JSON instead of text")
    .addHelpText("after", example("status"))
    .action(async (flags) => setCode(await (await import("./commands/status.js")).statusCommand(flags, io)));
};

const serve: Register = (cli, io, setCode) => {
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
};

const sync: Register = (cli, io, setCode) => {
  cli
    .command("sync")
    .description("keep <CC>.geojson in a folder current from a /v1 service: change sets, a full download when needed")
    .option("--endpoint <URL>", "the service (the origin or its CDN)")
    .option("--token <TOKEN>", "bearer token (default: $AIRSPACE_TOKEN)")
    .option("--countries <CC,CC>", "two-letter country codes")
    .option("--out <DIR>", "folder of <CC>.geojson (made when absent)")
    .option(
      "--day <today|tomorrow>",
      "today's chain or tomorrow's (from 15:00 UTC; kept as <CC>.tomorrow.geojson)",
      "today",
    )
    .option("--every <seconds>", "sync again this often until SIGINT or SIGTERM")
    .addHelpText("after", example("sync"))
    .action(async (flags) => setCode(await (await import("./commands/sync.js")).syncCommand(flags, io)));
};

const tokens: Register = (cli, io, setCode) => {
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
};

const explain: Register = (cli, io, setCode) => {
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
};

const explainSchedule: Register = (cli, io, setCode) => {
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
};

const validate: Register = (cli, io, setCode) => {
  cli
    .command("validate")
    .description("check a FeatureCollection (.geojson or .geojson.gz) against the contract")
    .argument("<file>", "FeatureCollection file")
    .addHelpText("after", example("validate"))
    .action(async (file: string) => setCode(await (await import("./commands/validate.js")).validateCommand(file, io)));
};

/** Every command, in the order of `--help` and of the README's reference. */
export const COMMANDS: readonly Register[] = [
  publish,
  run,
  republish,
  watch,
  history,
  replay,
  status,
  serve,
  sync,
  tokens,
  explain,
  explainSchedule,
  validate,
];
