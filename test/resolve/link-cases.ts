// The hand-labelled link cases of fixtures/links (PROVENANCE.md there) and the sets they are read against: shared by
// the link evaluation and the no-wrong-No check. The sets' files are the corpus's (../shared/data).
import { readFileSync } from "node:fs";
import path from "node:path";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import type { Notam } from "../../src/model/notam.js";
import { DAY_MS, isoInstant, type UtcDay, utcDay } from "../../src/model/time.js";
import { type NormalizedAirspace, normalizeAirspaces } from "../../src/normalize/airspace.js";
import { readNotamSource } from "../../src/notam/read.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { notamsForDay } from "../../src/resolve/notams.js";
import { FIXTURES, SHARED_DATA } from "../helpers.js";

export interface LinkCase {
  case: number;
  set: string;
  /** `LFFA-R0223/26` (continental set). */
  key?: string;
  id: string;
  /** The issuing office, where the set's NOTAMs carry one (SOFIA briefs). */
  nof?: string;
  /** The Q-line FIR, where an id alone is not unique in the set's file. */
  fir?: string;
  country: string;
  subjects: string[];
  mentions?: string[];
  absent: string[];
  /** Airspaces the text may or may not be about (the Swiss parts of TMA BALE for LFSB's `WITHIN TMA`): counted
   * neither as a link found nor as a wrong one. */
  maybe?: string[];
  /** What the NOTAM does to its subjects (continental set). */
  effect?: "activate" | "mayActivate" | "deactivate" | "inform" | null;
  note?: string;
}

const DIR = path.join(FIXTURES, "links");
export const CASES: LinkCase[] = [
  ...JSON.parse(readFileSync(path.join(DIR, "cases.json"), "utf8")),
  ...JSON.parse(readFileSync(path.join(DIR, "cases-eu26.json"), "utf8")),
  ...JSON.parse(readFileSync(path.join(DIR, "cases-eu26n.json"), "utf8")),
];
export const SETS: Record<string, { notams: string | string[]; airspaces: string[] }> = JSON.parse(
  readFileSync(path.join(DIR, "sets.json"), "utf8"),
);
/** The sets of the continental evaluation (issue 42), measured per state. */
export const CONTINENTAL = new Set(["eu26", "eu26dins", "eu26n", "ie24"]);

/** A set's airspaces and NOTAMs read from the corpus, and the NOTAM a case names. */
export function loadSet(set: string): {
  airspaces: NormalizedAirspace[];
  notams: Notam[];
  linker: AirspaceLinker;
  notam: (c: LinkCase) => Notam;
} {
  const files = SETS[set]!;
  const records = files.airspaces.flatMap(
    (f) => readAirspaceSource(readFileSync(path.join(SHARED_DATA, f)), f).records,
  );
  const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, new DiagnosticSink());
  const notams = [files.notams]
    .flat()
    .flatMap((f) => readNotamSource(readFileSync(path.join(SHARED_DATA, f)), f).notams);
  return {
    airspaces,
    notams,
    linker: new AirspaceLinker(airspaces),
    notam: (c) => {
      const n = notams.find(
        (x) => x.id === c.id && (c.nof === undefined || x.nof === c.nof) && (c.fir === undefined || x.q?.fir === c.fir),
      );
      if (!n) throw new Error(`case ${c.case}: NOTAM ${c.nof ?? ""} ${c.id} not in set ${set}`);
      return n;
    },
  };
}

/** The briefs' day (7 February 2026): the continental set's NOTAMs are looked at from it on. */
const BRIEFS_DAY = Date.UTC(2026, 1, 7);

/**
 * The first UTC day on which a case's NOTAM has activity (from its Item B, and for the briefs from their day on), and
 * the instant that activity starts; undefined when none is found within three weeks.
 */
export function firstActivity(set: string, n: Notam, linker: AirspaceLinker): { day: UtcDay; now: number } | undefined {
  const from = set === "eu26" || set === "eu26n" ? BRIEFS_DAY : 0;
  const b = Date.UTC(2000 + Number(n.itemB.slice(0, 2)), Number(n.itemB.slice(2, 4)) - 1, Number(n.itemB.slice(4, 6)));
  for (let start = Math.max(b, from), k = 0; k < 21; k++, start += DAY_MS) {
    const day = utcDay(isoInstant(start).slice(0, 10))!;
    const first = notamsForDay([n], day, linker, new DiagnosticSink()).notams[0]?.spans[0];
    if (first) return { day, now: first[0] };
  }
  return undefined;
}
