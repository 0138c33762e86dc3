// The first stages of a derivation: read the airspace sources (through the stage cache) and normalise their
// records; read the NOTAM and AUP sources and link them to the airspaces they name, with each source's standing.
import { bundledFirIndex } from "./geo/fir-index.js";
import { type ReadSummary, readAirspaceSource, readSummary, SourceError, type SourceRead } from "./ingest/read.js";
import { dropOlderVintages } from "./ingest/vintages.js";
import { applyServices } from "./ingest/yaixm.js";
import type { Feature } from "./model/contract.js";
import { type Diagnostic, DiagnosticSink } from "./model/diagnostic.js";
import type { Logger } from "./model/logger.js";
import type { SourceEntry } from "./model/manifest.js";
import { isoInstant } from "./model/time.js";
import { type NormalizedAirspace, normalizeAirspaces } from "./normalize/airspace.js";
import { type AirspaceInput, type PublishDayOptions, TWO_HOURS } from "./options.js";
import type { StageCache } from "./publish/stage-cache.js";
import type { ActivitySources } from "./resolve/activity.js";
import { aupForDay, linkAllocation } from "./resolve/aup.js";
import { evidenceAt, type SourceEvidence, standingChangeAfter } from "./resolve/evidence.js";
import { AirspaceLinker } from "./resolve/link.js";
import { type NotamStage, notamStage } from "./resolve/notam-stage.js";
import type { NowWindow, Track } from "./resolve/now-window.js";
import { type ReadSources, readDynamicSources, skipListed } from "./sources.js";

/** An airspace source as the run keeps it once read: not its bytes (PublishDayOptions.sourcesRead), its summary. */
export interface SourceReadSummary {
  input: Omit<AirspaceInput, "bytes">;
  read: ReadSummary;
}

/** The airspace inputs read, the listed files that are not data each a diagnostic (`input.skipped`). */
export function readStage(
  inputs: readonly AirspaceInput[],
  skipped: NonNullable<PublishDayOptions["skipped"]>,
  sink: DiagnosticSink,
  log: Logger,
  cache: StageCache | undefined,
): Promise<SourcesRead> {
  for (const s of skipped) {
    sink.add({ code: "input.skipped", severity: "warning", source: s.name, message: `${s.name}: skipped, ${s.why}` });
  }
  return readAirspaces(inputs, sink, log, cache);
}

type SourcesRead = Array<{ input: Omit<AirspaceInput, "bytes">; read: SourceRead }>;

/**
 * The records read normalised, with the radio services of a YAIXM service file. Of each source only its summary is
 * kept: the records read (~26 MB of heap at Europe scale, their geometry mostly shared with the airspaces) go when
 * this returns.
 */
export function normaliseStage(
  sourcesRead: SourcesRead,
  sink: DiagnosticSink,
  log: Logger,
): { airspaces: NormalizedAirspace[]; sourcesRead: SourceReadSummary[] } {
  const summaries = sourcesRead.map(({ input, read }) => ({ input, read: readSummary(read) }));
  // the same sources as the process's last derivation (a watcher's NOTAM change): the same airspaces, no work
  const key = JSON.stringify(sourcesRead.map(({ input, read }) => [input.name, input.country ?? null, read.sha256]));
  if (lastNormalised?.key === key) {
    sink.addAll(lastNormalised.diagnostics);
    log.progress("normalise", lastNormalised.airspaces.length, lastNormalised.airspaces.length);
    return { airspaces: lastNormalised.airspaces, sourcesRead: summaries };
  }
  const own = new DiagnosticSink();
  const airspaces = normaliseRecords(sourcesRead, own, log);
  sink.addAll(own.items);
  lastNormalised = { key, airspaces, diagnostics: own.items };
  log.progress("normalise", airspaces.length, airspaces.length);
  return { airspaces, sourcesRead: summaries };
}

/**
 * The last normalisation of this process, by the sources read (name, country, SHA-256): `watch` derives again at
 * every NOTAM change, and 20 000 airspaces take 2.4 s to normalise (bench/watch-europe.ts). Nothing downstream
 * changes a normalised airspace (they are shared as they are by the linker, the resolver and the stage cache).
 */
let lastNormalised: { key: string; airspaces: NormalizedAirspace[]; diagnostics: readonly Diagnostic[] } | undefined;

/** As a new process starts: the next derivation normalises what it reads (the stage cache's tests look at that). */
export function forgetNormalised(): void {
  lastNormalised = undefined;
  lastLinker = undefined;
}

function normaliseRecords(sourcesRead: SourcesRead, sink: DiagnosticSink, log: Logger): NormalizedAirspace[] {
  const reads = sourcesRead.map((s) => s.read);
  // a YAIXM service file names the airspaces of the airspace file by id: their frequencies
  const services = reads.flatMap((r) => r.services ?? []);
  if (services.length > 0) {
    const n = applyServices(
      reads.flatMap((r) => r.records),
      services,
    );
    log.info("services", { services: services.length, airspaces: n });
  }
  const countryBySource = new Map(
    sourcesRead.flatMap(({ input: s }) => (s.country ? [[s.name, s.country] as const] : [])),
  );
  return normalizeAirspaces(
    reads.flatMap((r) => r.records),
    { firs: bundledFirIndex(), countryBySource },
    sink,
  );
}

/**
 * Reads each airspace input, skipping listed files that are not data (`input.skipped`), then drops the older of two
 * vintages of one country (DE 2022 and DE 2025: the newer only, and a warning).
 */
async function readAirspaces(
  inputs: readonly AirspaceInput[],
  sink: DiagnosticSink,
  log: Logger,
  cache: StageCache | undefined,
): Promise<SourcesRead> {
  const out: SourcesRead = [];
  for (const [i, input] of inputs.entries()) {
    let read: SourceRead;
    const hits = cache?.counts.hits ?? 0;
    try {
      const derive = () => readAirspaceSource(input.bytes, input.name);
      read = cache ? await cache.value("airspace-read", input.name, input.bytes, derive) : derive();
    } catch (e) {
      if (skipListed(input, e, sink)) continue;
      throw e;
    }
    sink.addAll(read.diagnostics);
    log.progress("ingest", i + 1, inputs.length);
    log.info("source read", {
      source: input.name,
      format: read.format,
      records: read.records.length,
      ...(cache ? { cached: cache.counts.hits > hits } : {}),
    });
    // what the run keeps of the input: not its bytes (PublishDayOptions.sourcesRead)
    const { bytes: _bytes, ...kept } = input;
    out.push({ input: kept, read });
  }
  if (inputs.length > 0 && out.length === 0) {
    throw new SourceError("--airspaces", "input.none", "no airspace file among the inputs; see input.skipped");
  }
  const vintages = dropOlderVintages(
    out.map(({ input: { name, country }, read }) => ({ name, records: read.records, ...(country ? { country } : {}) })),
  );
  sink.addAll(vintages.diagnostics);
  for (const d of vintages.diagnostics) log.warn("older vintage dropped", { source: d.source ?? "", why: d.message });
  return vintages.keep.map((i) => out[i]!);
}

/** The dynamic sources read and linked: what the resolver takes of them, and their standings at `now`. */
export interface Linked {
  dynamic: Omit<ReadSources, "notams">;
  stage?: NotamStage;
  aup?: ReturnType<typeof aupForDay>;
  evidence: SourceEvidence[];
  sources: ActivitySources;
  /** Ids of the airspaces the AUP manages. */
  amcManaged: Set<string>;
  /** When a source's standing changes next, the sources the same (see `standingChangeAfter`). */
  standingChange: number | undefined;
}

/**
 * Reads the NOTAM and AUP sources and links them to the airspaces they name (the NOTAMs not linked become
 * features); each source's standing at `now`. The NOTAMs read are not kept: the stage keeps what the run needs.
 */
export function linkStage(
  airspaces: readonly NormalizedAirspace[],
  options: PublishDayOptions,
  at: { window: NowWindow; track?: Map<string, Track<Feature>> },
  sink: DiagnosticSink,
): Linked {
  const { day, now } = options;
  const linker = linkerOf(airspaces);
  const { notams, ...dynamic } = readDynamicSources(
    { ...(options.notams ? { notams: options.notams } : {}), ...(options.aup ? { aup: options.aup } : {}) },
    sink,
    options.readAgain ?? true,
  );
  options.sourcesRead?.();
  const variant = options.variant ?? "production";
  const stage = options.notams ? notamStage(notams, linker, { day, now, variant, ...at }, sink) : undefined;
  const aup = options.aup ? aupForDay(dynamic.plans, day, linker) : undefined;
  const maxAge = options.maxSourceAgeMs ?? TWO_HOURS;
  const evidence = evidenceAt(dynamic.facts, aup?.covered, day, now, maxAge);
  const standingChange = standingChangeAfter(dynamic.facts, aup?.covered, day, now, maxAge);
  const sources: ActivitySources = {
    notam: options.notams ? evidence.filter((e) => e.kind === "notam") : options.sources.notam,
    aup: options.aup ? evidence.filter((e) => e.kind === "aup") : options.sources.aup,
  };
  // with the same Z-buffer rule as the allocations: EDR10AZ in the plan makes ED-R 10A AMC-managed
  const amcManaged = new Set(
    aup ? [...aup.designators].flatMap((d) => linkAllocation(d, linker).map((a) => a.id)) : [],
  );
  return {
    dynamic,
    ...(stage ? { stage } : {}),
    ...(aup ? { aup } : {}),
    evidence,
    sources,
    amcManaged,
    standingChange,
  };
}

/**
 * The linker of the process's last derivation when its airspaces are the same (the normalisation's memo above gives
 * the same array): its lazy indexes stay built, and the NOTAM stage's memo (resolve/notams.ts) knows it.
 */
function linkerOf(airspaces: readonly NormalizedAirspace[]): AirspaceLinker {
  if (lastLinker?.airspaces !== airspaces) lastLinker = { airspaces, linker: new AirspaceLinker(airspaces) };
  return lastLinker.linker;
}

let lastLinker: { airspaces: readonly NormalizedAirspace[]; linker: AirspaceLinker } | undefined;

/** The manifest's `sources`: every airspace source read, and the dynamic ones with their standing at `now`. */
export function manifestSourcesOf(
  read: readonly SourceReadSummary[],
  dynamic: Record<string, SourceEntry>,
  evidence: readonly SourceEvidence[],
): Record<string, SourceEntry> {
  const out: Record<string, SourceEntry> = {};
  for (const { input, read: r } of read) {
    out[input.name] = {
      kind: "airspace",
      fetchedAt: isoInstant(input.fetchedAt),
      effective: null,
      stale: input.stale === true,
      sha256: r.sha256,
      records: r.records,
    };
  }
  for (const [name, e] of Object.entries(dynamic)) {
    const standing = evidence.find((x) => x.name === name);
    out[name] = {
      ...e,
      stale: standing?.standing !== "fresh",
      ...(standing ? { standing: standing.standing } : {}),
      ...(standing?.reason ? { reason: standing.reason } : {}),
    };
  }
  return out;
}
