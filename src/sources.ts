// The dynamic sources of a run (NOTAMs, AUP/UUP) read, with what each can prove (docs/design.md §4, docs/activation.md):
// its as-of time from its content (a PIB's `Issued`, a plan's issue time) or, for formats that carry none, a
// declaration (the operator's, an HTTP answer's Last-Modified/Date); the FIRs it briefs from its content (a PIB's
// FIR list, the RSA table's FIR column and designators) or declared. Never the clock or a file's mtime.

import { type PlanMeta, readAupSource } from "./aup/read.js";
import { bundledFirIndex } from "./geo/fir-index.js";
import { SourceError } from "./ingest/read.js";
import type { AupPlan } from "./model/aup.js";
import type { DiagnosticSink } from "./model/diagnostic.js";
import type { SourceEntry } from "./model/manifest.js";
import type { Notam } from "./model/notam.js";
import { isoInstant } from "./model/time.js";
import { readNotamSource } from "./notam/read.js";
import type { SourceFacts } from "./resolve/evidence.js";

export interface DynamicInput {
  name: string;
  bytes: Uint8Array;
  /** When the source was fetched or read, epoch ms: the manifest's `fetchedAt`, never evidence of freshness. */
  fetchedAt: number;
  /** An as-of time from outside the content, for formats that carry none (operator, HTTP answer). */
  asOf?: { at: number; from: "declared" | "http" };
  /** The FIRs the source briefs, declared, for formats that do not say (sources config `firs`, `--notam-firs`). */
  firs?: readonly string[];
  /** AUP tables only: the plan's AUP day and issue time, when the file name does not say. */
  plan?: PlanMeta;
  /** The fetch failed and this is the last good copy: stale whatever its age. */
  stale?: boolean;
  /** Found by listing a directory: a file no reader recognises is skipped (`input.skipped`), not fatal. */
  listed?: boolean;
}

/** A broken data file (cut, corrupt) fails even when listed: only files that are not data at all are skipped. */
const BROKEN = /truncated|malformed|json\.invalid|gzip/;

/**
 * Whether a listed input whose read failed is one to skip: a README, an expected-output JSON, a test file found
 * beside the data in a directory. Records one `input.skipped` diagnostic naming it; a broken data file still fails.
 */
export function skipListed(input: { name: string; listed?: boolean }, error: unknown, sink: DiagnosticSink): boolean {
  if (!input.listed || !(error instanceof SourceError) || BROKEN.test(error.code)) return false;
  sink.add({
    code: "input.skipped",
    severity: "warning",
    source: input.name,
    message: `${input.name}: skipped, not a data file of this kind (${error.message.replace(`${input.name}: `, "")})`,
  });
  return true;
}

export interface ReadSources {
  notams: Notam[];
  plans: AupPlan[];
  manifest: Record<string, SourceEntry>;
  /** Per source, what it can prove; standing is decided against `now` by the pipeline. */
  facts: SourceFacts[];
}

/** Reads NOTAM and AUP inputs; a source of which nothing can be read fails the run (SourceError). */
export function readDynamicSources(
  inputs: { notams?: readonly DynamicInput[]; aup?: readonly DynamicInput[] },
  sink: DiagnosticSink,
  readAgain = true,
): ReadSources {
  const out: ReadSources = { notams: [], plans: [], manifest: {}, facts: [] };
  for (const i of inputs.notams ?? []) readNotamInput(i, sink, out, readAgain);
  for (const i of inputs.aup ?? []) readAupInput(i, sink, out);
  coverPlanChain(inputs.aup ?? [], out);
  return out;
}

/** Adds one source's facts and its manifest entry. */
function record(out: ReadSources, i: DynamicInput, facts: SourceFacts, sha256: string): void {
  out.facts.push(facts);
  out.manifest[i.name] = {
    kind: facts.kind,
    fetchedAt: isoInstant(i.fetchedAt),
    effective: null,
    stale: i.stale === true,
    sha256,
    records: facts.records,
    asOf: facts.asOf === undefined ? null : isoInstant(facts.asOf),
    asOfFrom: facts.asOfFrom,
    coverage: facts.coverage === "all" ? ["*"] : [...facts.coverage],
  };
}

/** One NOTAM source into `out`, unless it is a listed file to skip. */
function readNotamInput(i: DynamicInput, sink: DiagnosticSink, out: ReadSources, readAgain: boolean): void {
  const read = readNotamSource(i.bytes, i.name, readAgain);
  // an unreadable feed must not pass for a fresh one: silence would turn conditional airspaces to No
  const why = read.diagnostics.find((d) => d.severity === "skipped" && d.record === undefined);
  const none = read.diagnostics.find((d) => d.severity === "skipped");
  try {
    if (why && (read.notams.length === 0 || why.code === "notam.pib.truncated"))
      throw new SourceError(i.name, why.code, `no usable NOTAM; ${why.message}`);
    if (read.notams.length === 0 && none) throw new SourceError(i.name, none.code, `no usable NOTAM; ${none.message}`);
  } catch (e) {
    if (skipListed(i, e, sink)) return;
    throw e;
  }
  sink.addAll(read.diagnostics);
  out.notams.push(...read.notams);
  record(
    out,
    i,
    {
      name: i.name,
      kind: "notam",
      ...asOf(read.asOf, i),
      ...coverage(read.coverage, i),
      records: read.notams.length,
      ...(i.stale ? { fallback: true } : {}),
    },
    read.sha256,
  );
}

/** One AUP source into `out`, unless it is a listed file to skip; its coverage is filled by `coverPlanChain`. */
function readAupInput(i: DynamicInput, sink: DiagnosticSink, out: ReadSources): void {
  const read = readAupSource(i.bytes, i.name, i.plan);
  // a cut or broken plan must not replace a whole one: a UUP missing its end would switch areas off
  const cut = read.diagnostics.find((d) => /^aup\.xml\.(truncated|malformed)$/.test(d.code));
  if (cut) throw new SourceError(i.name, cut.code, cut.message);
  const why = read.diagnostics.find((d) => d.severity === "skipped" && d.record === undefined);
  if (read.plans.length === 0 && why) {
    const e = new SourceError(i.name, why.code, why.message);
    if (skipListed(i, e, sink)) return;
    throw e;
  }
  sink.addAll(read.diagnostics);
  out.plans.push(...read.plans);
  const known = read.plans.filter((p) => p.issuedFrom !== "guessed");
  const issued = known.length > 0 ? Math.max(...known.map((p) => p.issued)) : undefined;
  const from = known.some((p) => p.issuedFrom === "content") ? "content" : "declared";
  record(
    out,
    i,
    {
      name: i.name,
      kind: "aup",
      ...(issued === undefined ? asOf(undefined, i) : { asOf: issued, asOfFrom: from }),
      // filled by coverPlanChain: the plans of all AUP sources are one EAUP chain
      coverage: [],
      coverageFrom: "none",
      records: read.plans.reduce((n, p) => n + p.allocations.length, 0),
      ...(i.stale ? { fallback: true } : {}),
    },
    read.sha256,
  );
}

/**
 * Gives every AUP source the FIRs of the whole chain: the EAUP is one publication for every participating state, so a
 * plan that allocates nothing in a state still speaks for it when another plan of the chain shows the state takes part.
 */
function coverPlanChain(aup: readonly DynamicInput[], out: ReadSources): void {
  const chain = planFirs(out.plans);
  for (const [k, f] of out.facts.entries()) {
    if (f.kind !== "aup") continue;
    const input = aup.find((i) => i.name === f.name);
    out.facts[k] = { ...f, ...coverage(chain, input ?? { name: f.name, bytes: new Uint8Array(), fetchedAt: 0 }) };
    const entry = out.manifest[f.name];
    if (entry) entry.coverage = [...(out.facts[k]!.coverage as string[])];
  }
}

/** The content's as-of time, else the declared one, else none (stale). */
function asOf(content: number | undefined, i: DynamicInput): Pick<SourceFacts, "asOf" | "asOfFrom"> {
  if (content !== undefined) return { asOf: content, asOfFrom: "content" };
  if (i.asOf) return { asOf: i.asOf.at, asOfFrom: i.asOf.from };
  return { asOfFrom: "none" };
}

/** The content's FIRs, else the declared ones, else none (covers no airspace). */
function coverage(
  content: readonly string[] | undefined,
  i: DynamicInput,
): Pick<SourceFacts, "coverage" | "coverageFrom"> {
  if (content && content.length > 0) return { coverage: [...content].sort(), coverageFrom: "content" };
  if (i.firs && i.firs.length > 0) return { coverage: [...i.firs].sort(), coverageFrom: "declared" };
  return { coverage: [], coverageFrom: "none" };
}

/** The FIRs a set of plans speaks for: the table's FIR column, and the FIRs of the states its designators name. */
function planFirs(plans: readonly AupPlan[]): string[] {
  const firs = new Set<string>();
  const prefixes = new Set<string>();
  for (const p of plans) {
    for (const a of p.allocations) {
      for (const f of a.firs ?? []) firs.add(f);
      const prefix = /^[A-Z]{2}/.exec(a.designator)?.[0];
      if (prefix) prefixes.add(prefix);
    }
  }
  const index = bundledFirIndex();
  for (const prefix of prefixes) for (const f of index.identsWithPrefix(prefix)) firs.add(f);
  return [...firs];
}
