// The dynamic sources of a run (NOTAMs, AUP/UUP) read, and how fresh each is (DESIGN §4): a source that is
// missing, too old, or (AUP) has no plan for the day, is not evidence that a conditional airspace is off.

import { type PlanMeta, readAupSource } from "./aup/read.js";
import { SourceError } from "./ingest/read.js";
import type { AupPlan } from "./model/aup.js";
import type { DiagnosticSink } from "./model/diagnostic.js";
import type { SourceEntry } from "./model/manifest.js";
import type { Notam } from "./model/notam.js";
import { isoInstant } from "./model/time.js";
import { readNotamSource } from "./notam/read.js";
import type { SourceState } from "./resolve/activity.js";

export interface DynamicInput {
  name: string;
  bytes: Uint8Array;
  /** When the source was fetched, epoch ms. */
  fetchedAt: number;
  /** AUP tables only: the plan's AUP day and issue time, when the file name does not say. */
  plan?: PlanMeta;
  /** The fetch failed and this is the last good copy: stale whatever its age. */
  stale?: boolean;
}

export interface ReadSources {
  notams: Notam[];
  plans: AupPlan[];
  manifest: Record<string, SourceEntry>;
  /** Oldest fetch per kind, for freshness. */
  fetchedAt: { notam?: number; aup?: number };
  /** Kinds of which a source is a fallback copy. */
  staleKinds: Set<"notam" | "aup">;
}

/** Reads NOTAM and AUP inputs; a source of which nothing can be read fails the run (SourceError). */
export function readDynamicSources(
  inputs: { notams?: readonly DynamicInput[]; aup?: readonly DynamicInput[] },
  sink: DiagnosticSink,
): ReadSources {
  const out: ReadSources = { notams: [], plans: [], manifest: {}, fetchedAt: {}, staleKinds: new Set() };
  const entry = (i: DynamicInput, kind: "notam" | "aup", sha256: string, records: number) => {
    const stale = i.stale === true;
    if (stale) out.staleKinds.add(kind);
    out.manifest[i.name] = { kind, fetchedAt: isoInstant(i.fetchedAt), effective: null, stale, sha256, records };
    out.fetchedAt[kind] = Math.min(out.fetchedAt[kind] ?? Number.POSITIVE_INFINITY, i.fetchedAt);
  };
  for (const i of inputs.notams ?? []) {
    const read = readNotamSource(i.bytes, i.name);
    // an unreadable feed must not pass for a fresh one: silence would turn conditional airspaces to No
    const why = read.diagnostics.find((d) => d.severity === "skipped");
    if (read.notams.length === 0 && why) throw new SourceError(i.name, why.code, `no usable NOTAM; ${why.message}`);
    sink.addAll(read.diagnostics);
    out.notams.push(...read.notams);
    entry(i, "notam", read.sha256, read.notams.length);
  }
  for (const i of inputs.aup ?? []) {
    const read = readAupSource(i.bytes, i.name, i.plan);
    // a cut or broken plan must not replace a whole one: a UUP missing its end would switch areas off
    const cut = read.diagnostics.find((d) => /^aup\.xml\.(truncated|malformed)$/.test(d.code));
    if (cut) throw new SourceError(i.name, cut.code, cut.message);
    const why = read.diagnostics.find((d) => d.severity === "skipped" && d.record === undefined);
    if (read.plans.length === 0 && why) throw new SourceError(i.name, why.code, why.message);
    sink.addAll(read.diagnostics);
    out.plans.push(...read.plans);
    entry(
      i,
      "aup",
      read.sha256,
      read.plans.reduce((n, p) => n + p.allocations.length, 0),
    );
  }
  return out;
}

/** A given source is fresh while younger than the limit; none given is missing. */
export function freshness(fetchedAt: number | undefined, now: number, maxAgeMs: number): SourceState {
  if (fetchedAt === undefined) return "missing";
  return now - fetchedAt > maxAgeMs ? "stale" : "fresh";
}
