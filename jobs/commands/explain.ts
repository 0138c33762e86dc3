// `airspace-publisher explain --id <feature id>`: why a feature has its state, from a published store
// (`--store DIR`) or from the inputs (`--airspaces … [--notams …] [--aup …] --date D [--now T]`).
import type { Feature } from "../../src/model/contract.js";
import { type Explanation, notamExplanation } from "../../src/model/explain.js";
import { readExplanations } from "../../src/publish/explanations.js";
import { MemoryStore } from "../../src/publish/memory-store.js";
import { currentManifest, readEurope } from "../../src/publish/read-back.js";
import type { ObjectStore } from "../../src/publish/store.js";
import type { Io } from "../io.js";
import { openStore } from "../store.js";
import { UsageError } from "../usage.js";
import { type PublishFlags, publishCommand } from "./publish.js";

export interface ExplainFlags extends Partial<PublishFlags> {
  id?: string;
  json?: boolean;
}

export async function explainCommand(flags: ExplainFlags, io: Io): Promise<number> {
  if (!flags.id) throw new UsageError("explain needs --id <feature id>");
  let store: ObjectStore;
  if (flags.airspaces?.length) {
    if (!flags.date) throw new UsageError("explain over inputs needs --date");
    store = new MemoryStore();
    await publishCommand({ ...(flags as PublishFlags), quiet: true }, { ...io, stdout: sinkStream() }, store);
  } else if (flags.store)
    store = openStore(flags.store, flags.s3Endpoint, (line) => io.stderr.write(`airspace-publisher: ${line}\n`));
  else throw new UsageError("explain needs --store DIR, or the inputs (--airspaces … --date …)");
  const manifest = await currentManifest(store);
  if (!manifest) throw new UsageError(`nothing is published in ${store.url}`);
  const fc = await readEurope(store, manifest);
  const feature = fc.features.find((f) => f.properties._id === flags.id);
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
