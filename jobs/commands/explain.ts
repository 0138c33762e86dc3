// `airspace-publisher explain --id <feature id>`: why a feature has its state, from a published store
// (`--store DIR`) or from the inputs (`--airspaces … [--notams …] [--aup …] --date D [--now T]`).
import type { Feature } from "../../src/model/contract.js";
import { type Explanation, notamExplanation } from "../../src/model/explain.js";
import type { VersionManifest } from "../../src/model/manifest.js";
import { parseInstant, utcDay } from "../../src/model/time.js";
import { tierPrefix } from "../../src/publish/artifacts.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { currentManifest } from "../../src/publish/read-back.js";
import { DayRecord } from "../../src/publish/record.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import type { ObjectStore } from "../../src/store/store.js";
import type { Io } from "../io.js";
import { openStore } from "../store.js";
import { UsageError } from "../usage.js";
import { type PublishFlags, publishCommand } from "./publish.js";

export interface ExplainFlags extends Partial<PublishFlags> {
  id?: string;
  json?: boolean;
  /** What the service said at this instant (the record, docs/design.md §8). */
  at?: string;
  /** The day's version (with --at: the one live then); default today. */
  day?: string;
}

export async function explainCommand(flags: ExplainFlags, io: Io): Promise<number> {
  if (!flags.id) throw new UsageError("explain needs --id <feature id>");
  let store: ObjectStore;
  if (flags.airspaces?.length) {
    if (!flags.date) throw new UsageError("explain over inputs needs --date");
    store = new MemoryStore();
    await publishCommand({ ...(flags as PublishFlags), quiet: true }, { ...io, stdout: sinkStream() }, store);
  } else if (flags.store)
    store = await openStore(flags.store, flags.s3Endpoint, (line) => io.stderr.write(`airspace-publisher: ${line}\n`));
  else throw new UsageError("explain needs --store DIR, or the inputs (--airspaces … --date …)");
  const record = new DayRecord(store, tierPrefix("dynamic"));
  const manifest = await versionAsked(record, store, flags, io.now());
  const feature = await findFeature(record, manifest, flags.id);
  if (!feature) {
    io.stderr.write(`airspace-publisher: no feature "${flags.id}" in version ${manifest.version}\n`);
    return 1;
  }
  const stored = (await readExplanations(store, manifest.version))?.features[feature.properties._id];
  const why = stored ?? notamExplanation(feature);
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(explanation(feature, manifest.version, why), null, 2)}\n`
      : text(feature, manifest.version, why),
  );
  return 0;
}

/** The version `--at`/`--day` ask for, else today's live one. */
async function versionAsked(
  record: DayRecord,
  store: ObjectStore,
  flags: ExplainFlags,
  clock: number,
): Promise<VersionManifest> {
  if (flags.day !== undefined && !utcDay(flags.day)) throw new UsageError(`--day takes YYYY-MM-DD, got "${flags.day}"`);
  if (flags.at !== undefined) {
    const at = parseInstant(flags.at);
    if (at === undefined) throw new UsageError(`--at must be an ISO 8601 instant with a zone, got "${flags.at}"`);
    if (at > clock + 60_000) throw new UsageError(`--at ${flags.at} is after now: the record holds what was said`);
    const m = await record.liveAt(at, flags.day);
    if (!m)
      throw new UsageError(`nothing${flags.day ? ` of ${flags.day}` : ""} was live at ${flags.at} in ${store.url}`);
    return m;
  }
  const m = flags.day ? await record.head(flags.day) : await currentManifest(store);
  if (!m) throw new UsageError(`nothing${flags.day ? ` of ${flags.day}` : ""} is published in ${store.url}`);
  return m;
}

/** The feature in one of the version's countries (their collections kept, or rebuilt from the record). */
async function findFeature(record: DayRecord, m: VersionManifest, id: string): Promise<Feature | undefined> {
  for (const cc of Object.keys(m.countries).sort()) {
    const f = (await record.collection(m, cc)).features.find((x) => x.properties._id === id);
    if (f) return f;
  }
  return undefined;
}

function explanation(f: Feature, version: string, why: Explanation) {
  const p = f.properties;
  const m = p.vendor.dynamicAirspaceMapping;
  return {
    version,
    id: p._id,
    name: p.name,
    type: p.type,
    country: p.country,
    limits: `${p.vendor.formattedLowerLimit} – ${p.vendor.formattedUpperLimit}`,
    isActive: m.isActive,
    activationType: m.activationType,
    rule: why.rule,
    because: why.because,
    ...(why.conditionalOn ? { conditionalOn: why.conditionalOn } : {}),
    ...(why.evidence ? { evidence: why.evidence } : {}),
    ...(why.hours ? { hours: why.hours } : {}),
    intervals: m.airspaceActivationTimes,
    rows: m.dynamicScheduleAndVerticalLimits,
    notams: m.notams.map((n) => ({
      id: n.NotamId,
      kind: n.NotamIsOfKind,
      itemD: n.ItemD,
      schedule: n.ItemDParsedSchedule?.status,
      itemE: n.ItemE?.replace(/\s+/g, " ").slice(0, 160),
    })),
    aupuups: m.aupuups,
  };
}

function text(f: Feature, version: string, why: Explanation): string {
  const e = explanation(f, version, why);
  const lines = [
    `${e.id}  ${e.name}  (type ${e.type}, ${e.country}, ${e.limits})  version ${version}`,
    `isActive ${e.isActive}, ${e.activationType}`,
    `because (${e.rule}): ${e.because}`,
    ...(e.conditionalOn ? [`conditional: ${e.conditionalOn.join("; ")}`] : []),
    ...(e.evidence ?? []).map(
      (x) =>
        `  ${x.kind} source: ${x.state}${x.source ? ` ${x.source}` : ""}${x.asOf ? ` as of ${x.asOf}` : ""}${x.reason ? ` (${x.reason})` : ""}`,
    ),
    `intervals: ${e.intervals.map((i) => `${i.start} → ${i.end}`).join(", ") || "none"}`,
    ...e.rows.map(
      (r) =>
        `  row ${r.start} → ${r.end}${r.lowerLimit || r.upperLimit ? ` limits ${JSON.stringify({ lower: r.lowerLimit, upper: r.upperLimit })}` : ""}`,
    ),
    ...e.notams.map(
      (n) =>
        `  NOTAM ${n.id} kind ${n.kind ?? "null"}${n.itemD ? ` D) ${n.itemD} [${n.schedule}]` : ""}: ${n.itemE ?? ""}`,
    ),
    ...e.aupuups.map((a) => `  AUP ${a.Designator} ${a.Status} ${a.StartDT} → ${a.EndDT} ${a.LowerAlt}–${a.UpperAlt}`),
  ];
  return `${lines.join("\n")}\n`;
}

function sinkStream(): NodeJS.WritableStream {
  return { write: () => true } as unknown as NodeJS.WritableStream;
}
