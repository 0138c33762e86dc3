// Command-line input specs to bytes: `[CC=]path` where path is a file, a directory (its data files, sorted) or
// `-` for standard input. A directory may hold other files too (README, PROVENANCE.md, expected output, tests):
// those are listed in `skipped`, one each, and files of a data extension are marked `listed` so that one no reader
// recognises is skipped with a diagnostic rather than failing the run.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { planMetaFrom } from "../src/aup/plan-meta.js";
import type { AirspaceInput } from "../src/options.js";
import type { DynamicInput } from "../src/sources.js";
import { UsageError } from "./usage.js";

// gzipped airspace files are read too; not `.xml.gz`, which in a folder beside airspace data is a NOTAM briefing (a PIB)
const AIRSPACE_EXTENSIONS =
  /\.(geojson|json|jsonl|txt|openair|aip|xml|yaml|yml)$|\.(geojson|json|txt|openair|aip|yaml|yml)\.gz$/i;
const NOTAM_EXTENSIONS = /\.(txt|jsonl|json|xml|gz)$/i;
const AUP_EXTENSIONS = /\.(csv|xml)$/i;

/** Files of listed directories that are not data, with why: the run report names each (`input.skipped`). */
export type Skipped = Array<{ name: string; why: string }>;

/** `fetchedAt` is the run's reference instant: a local file is as fresh as the run that reads it. */
export async function readAirspaceInputs(
  specs: readonly string[],
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
  skipped: Skipped = [],
): Promise<AirspaceInput[]> {
  const out: AirspaceInput[] = [];
  for (const spec of specs) {
    const m = /^([A-Za-z]{2})=(.+)$/.exec(spec);
    const country = m?.[1]?.toUpperCase();
    const target = m?.[2] ?? spec;
    for (const i of await readTarget(target, AIRSPACE_EXTENSIONS, "--airspaces", skipped, stdin, fetchedAt))
      out.push({ ...i, ...(country ? { country } : {}) });
  }
  const names = new Set<string>();
  for (const i of out) {
    if (names.has(i.name)) throw new UsageError(`--airspaces names "${i.name}" twice`);
    names.add(i.name);
  }
  return out;
}

/**
 * NOTAM sources: files (EAD PIB XML, SOFIA-Briefing text, FAA NOTAM API JSON, ICAO text, JSON lines, gzip),
 * directories of them, or `-`. `declared` is the operator's as-of time and FIRs, used only by sources whose content
 * does not say (docs/design.md §4): a file's mtime is never an as-of time.
 */
export async function readNotamInputs(
  specs: readonly string[],
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
  declared: { asOf?: number; firs?: readonly string[] } = {},
  skipped: Skipped = [],
): Promise<DynamicInput[]> {
  const out: DynamicInput[] = [];
  for (const spec of specs) {
    for (const i of await readTarget(spec, NOTAM_EXTENSIONS, "--notams", skipped, stdin, fetchedAt)) {
      out.push({
        ...i,
        ...(declared.asOf === undefined ? {} : { asOf: { at: declared.asOf, from: "declared" as const } }),
        ...(declared.firs ? { firs: declared.firs } : {}),
      });
    }
  }
  return out;
}

/**
 * The inputs a target names (a file, a directory's data files, or `-`: standard input), read at once: a refresh
 * waited 60 ms for 40 files read in turn.
 */
async function readTarget(
  target: string,
  extensions: RegExp,
  option: string,
  skipped: Skipped,
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
): Promise<Array<{ name: string; bytes: Buffer; fetchedAt: number; listed?: true }>> {
  const found = await expand(target, extensions, option, skipped);
  const read = await Promise.all(found.files.map((file) => (file === "-" ? stdin() : readFile(file))));
  return found.files.map((name, k) => ({
    name,
    bytes: read[k]!,
    fetchedAt,
    ...(found.listed ? { listed: true } : {}),
  }));
}

async function expand(
  target: string,
  extensions: RegExp,
  option: string,
  skipped: Skipped,
): Promise<{ files: string[]; listed: boolean }> {
  if (target === "-") return { files: ["-"], listed: false };
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    throw new UsageError(`${option}: no such file or directory "${target}"`);
  }
  if (!info.isDirectory()) return { files: [toPosix(target)], listed: false };
  const entries = await readdir(target, { recursive: true, withFileTypes: true });
  const all = entries
    .filter((e) => e.isFile())
    .map((e) => toPosix(path.join(e.parentPath, e.name)))
    .sort();
  const files = all.filter((f) => extensions.test(f));
  for (const f of all.filter((f) => !extensions.test(f))) {
    skipped.push({ name: f, why: `not a ${option} file (${option} reads ${describeExtensions(extensions)})` });
  }
  if (files.length === 0) throw new UsageError(`${option}: no matching files in directory "${target}"`);
  return { files, listed: true };
}

/** `/\.(csv|xml)$/i` → `.csv, .xml`. */
const describeExtensions = (re: RegExp) =>
  (/\(([^)]*)\)/.exec(re.source)?.[1] ?? "")
    .split("|")
    .map((e) => `.${e}`)
    .join(", ");

const toPosix = (p: string) => p.split(path.sep).join("/");

/** AUP/UUP sources: `[YYYY-MM-DD[Thhmm]=]path`; the prefix names the AUP day of a CSV table. */
export async function readAupInputs(
  specs: readonly string[],
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
  skipped: Skipped = [],
): Promise<DynamicInput[]> {
  const out: DynamicInput[] = [];
  for (const spec of specs) {
    const m = /^(\d{4}-\d{2}-\d{2}(?:T\d{2}:?\d{2}Z?)?)=(.+)$/.exec(spec);
    const plan = m ? planMetaFrom(m[1]!) : undefined;
    if (m && !plan) throw new UsageError(`--aup: "${m[1]}" is not an AUP day YYYY-MM-DD[Thhmm]`);
    for (const i of await readTarget(m?.[2] ?? spec, AUP_EXTENSIONS, "--aup", skipped, stdin, fetchedAt))
      out.push({ ...i, ...(plan ? { plan } : {}) });
  }
  return out;
}
