// `airspace-publisher history --id <feature> --from <ISO> --to <ISO>`: each change of a feature's isActive,
// activation type and intervals, day by day, with the version and the time it was published (the record,
// docs/design.md §8). "Was that area active at 14:10 on 4 July?" answered from what the service said, not recomputed.
import type { Feature } from "../../src/model/contract.js";
import type { VersionManifest } from "../../src/model/manifest.js";
import { DAY_MS, isoInstant, parseInstant } from "../../src/model/time.js";
import { tierPrefix } from "../../src/publish/artifacts.js";
import { DayRecord } from "../../src/publish/record.js";
import type { Io } from "../io.js";
import { openStore } from "../store.js";
import { UsageError } from "../usage.js";

export interface HistoryFlags {
  id: string;
  from: string;
  to: string;
  store: string;
  s3Endpoint?: string;
  json?: boolean;
}

export interface HistoryEntry {
  day: string;
  version: string;
  publishedAt: string;
  /** `Yes`, `No`, `Unknown`; `absent` when the version does not hold the feature. */
  isActive: string;
  activationType?: string;
  intervals: Array<{ start: string; end: string }>;
}

export async function historyCommand(flags: HistoryFlags, io: Io): Promise<number> {
  const from = parseInstant(flags.from);
  const to = parseInstant(flags.to);
  if (from === undefined || to === undefined) {
    throw new UsageError("--from and --to take ISO 8601 instants with their zone, e.g. 2024-06-14T00:00:00Z");
  }
  if (to < from) throw new UsageError("--to is before --from");
  if (to - from > 400 * DAY_MS) throw new UsageError("--from and --to span more than the record's 400 days");
  const store = await openStore(flags.store, flags.s3Endpoint, (line) =>
    io.stderr.write(`airspace-publisher: ${line}\n`),
  );
  const record = new DayRecord(store, tierPrefix("dynamic"));
  const first = isoInstant(from).slice(0, 10);
  const last = isoInstant(to).slice(0, 10);
  const days = (await record.days()).filter((d) => d >= first && d <= last);
  const entries: HistoryEntry[] = [];
  let country: string | undefined;
  for (const day of days) {
    let shown: string | undefined;
    for (const m of await record.chain(day)) {
      const at = Date.parse(m.publishedAt);
      if (at < from || at > to) continue;
      const found = await featureIn(record, m, flags.id, country);
      if (found) country = found.cc;
      const entry = entryOf(day, m, found?.feature);
      const state = JSON.stringify([entry.isActive, entry.activationType, entry.intervals]);
      if (state !== shown) entries.push(entry);
      shown = state;
    }
  }
  if (country === undefined) {
    io.stderr.write(`airspace-publisher: no version from ${flags.from} to ${flags.to} holds "${flags.id}"\n`);
    return 1;
  }
  io.stdout.write(flags.json ? `${JSON.stringify({ id: flags.id, entries }, null, 2)}\n` : text(flags.id, entries));
  return 0;
}

/** The feature in `m`: in the country it was found in before, else in any country of the version. */
async function featureIn(
  record: DayRecord,
  m: VersionManifest,
  id: string,
  hint: string | undefined,
): Promise<{ cc: string; feature: Feature } | undefined> {
  const codes = Object.keys(m.countries).sort();
  for (const cc of hint && codes.includes(hint) ? [hint, ...codes.filter((c) => c !== hint)] : codes) {
    const feature = (await record.collection(m, cc)).features.find((f) => f.properties._id === id);
    if (feature) return { cc, feature };
    if (cc === hint) break; // a feature keeps its home country: not in it, not in the version
  }
  return undefined;
}

function entryOf(day: string, m: VersionManifest, f: Feature | undefined): HistoryEntry {
  const base = { day, version: m.version, publishedAt: m.publishedAt };
  if (!f) return { ...base, isActive: "absent", intervals: [] };
  const d = f.properties.vendor.dynamicAirspaceMapping;
  return { ...base, isActive: d.isActive, activationType: d.activationType, intervals: d.airspaceActivationTimes };
}

const hhmm = (iso: string, day: string) => (iso.slice(0, 10) > day ? "24:00" : iso.slice(11, 16));

function text(id: string, entries: readonly HistoryEntry[]): string {
  const lines = [`${id}: ${entries.length} states`];
  for (const e of entries) {
    const times = e.intervals.map((i) => `${hhmm(i.start, e.day)}–${hhmm(i.end, e.day)}`).join(", ") || "—";
    const type = e.activationType ? ` ${e.activationType}` : "";
    lines.push(`  ${e.day}  published ${e.publishedAt}  ${e.version}  ${e.isActive}${type}  ${times} UTC`);
  }
  return `${lines.join("\n")}\n`;
}
