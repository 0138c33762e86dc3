// Command-line input specs to bytes: `[CC=]path` where path is a file, a directory (its airspace files,
// sorted) or `-` for standard input.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { planMetaFrom } from "../src/aup/read.js";
import type { AirspaceInput } from "../src/pipeline.js";
import type { DynamicInput } from "../src/sources.js";
import { UsageError } from "./usage.js";

const AIRSPACE_EXTENSIONS = /\.(geojson|json|jsonl|txt|openair|aip|xml)$/i;
const NOTAM_EXTENSIONS = /\.(txt|jsonl|json|xml|gz)$/i;
const AUP_EXTENSIONS = /\.(csv|xml)$/i;

/** `fetchedAt` is the run's reference instant: a local file is as fresh as the run that reads it. */
export async function readAirspaceInputs(
  specs: readonly string[],
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
): Promise<AirspaceInput[]> {
  const out: AirspaceInput[] = [];
  for (const spec of specs) {
    const m = /^([A-Za-z]{2})=(.+)$/.exec(spec);
    const country = m?.[1]?.toUpperCase();
    const target = m?.[2] ?? spec;
    for (const file of await expand(target, AIRSPACE_EXTENSIONS, "--airspaces")) {
      const bytes = file === "-" ? await stdin() : await readFile(file);
      out.push({ name: file === "-" ? "-" : file, bytes, fetchedAt, ...(country ? { country } : {}) });
    }
  }
  const names = new Set<string>();
  for (const i of out) {
    if (names.has(i.name)) throw new UsageError(`--airspaces names "${i.name}" twice`);
    names.add(i.name);
  }
  return out;
}

/**
 * NOTAM sources: files (EAD PIB XML, ICAO text, JSON lines, gzip), directories of them, or `-`. `declared` is the
 * operator's as-of time and FIRs, used only by sources whose content does not say (DESIGN §4): a file's mtime
 * is never an as-of time.
 */
export async function readNotamInputs(
  specs: readonly string[],
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
  declared: { asOf?: number; firs?: readonly string[] } = {},
): Promise<DynamicInput[]> {
  const out: DynamicInput[] = [];
  for (const spec of specs) {
    for (const file of await expand(spec, NOTAM_EXTENSIONS, "--notams")) {
      out.push({
        name: file,
        bytes: file === "-" ? await stdin() : await readFile(file),
        fetchedAt,
        ...(declared.asOf === undefined ? {} : { asOf: { at: declared.asOf, from: "declared" as const } }),
        ...(declared.firs ? { firs: declared.firs } : {}),
      });
    }
  }
  return out;
}

async function expand(target: string, extensions: RegExp, option: string): Promise<string[]> {
  if (target === "-") return ["-"];
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    throw new UsageError(`${option}: no such file or directory "${target}"`);
  }
  if (!info.isDirectory()) return [toPosix(target)];
  const entries = await readdir(target, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && extensions.test(e.name))
    .map((e) => toPosix(path.join(e.parentPath, e.name)))
    .sort();
  if (files.length === 0) throw new UsageError(`${option}: no matching files in directory "${target}"`);
  return files;
}

const toPosix = (p: string) => p.split(path.sep).join("/");

/** AUP/UUP sources: `[YYYY-MM-DD[Thhmm]=]path`; the prefix names the AUP day of a CSV table. */
export async function readAupInputs(
  specs: readonly string[],
  stdin: () => Promise<Buffer>,
  fetchedAt: number,
): Promise<DynamicInput[]> {
  const out: DynamicInput[] = [];
  for (const spec of specs) {
    const m = /^(\d{4}-\d{2}-\d{2}(?:T\d{2}:?\d{2}Z?)?)=(.+)$/.exec(spec);
    const plan = m ? planMetaFrom(m[1]!) : undefined;
    if (m && !plan) throw new UsageError(`--aup: "${m[1]}" is not an AUP day YYYY-MM-DD[Thhmm]`);
    for (const file of await expand(m?.[2] ?? spec, AUP_EXTENSIONS, "--aup")) {
      const bytes = file === "-" ? await stdin() : await readFile(file);
      out.push({ name: file, bytes, fetchedAt, ...(plan ? { plan } : {}) });
    }
  }
  return out;
}
