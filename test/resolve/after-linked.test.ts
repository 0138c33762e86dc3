// After a linked NOTAM ends (issue 58 §3): once the NOTAMs that activate an area are over for the day, the area is
// `No` only where every source that could activate it again is fresh and briefs it (the AUP for an AUP-conditional
// area, the NOTAM source for a NOTAM-conditional one); else `Unknown`. Checked on every hand-labelled activation of
// the continental sets (fixtures/links): the day of the NOTAM's first activity, `now` one minute after its last
// interval of that day ends. Reads the corpus of ../shared/data and says so when it is absent.
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { isoInstant } from "../../src/model/time.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { resolveDay } from "../../src/resolve/day.js";
import { assumed } from "../../src/resolve/evidence.js";
import { notamStage } from "../../src/resolve/notam-stage.js";
import { notamsForDay } from "../../src/resolve/notams.js";
import { HAS_SHARED, warnNoShared } from "../helpers.js";
import { CASES, CONTINENTAL, firstActivity, loadSet } from "./link-cases.js";

const TRA_TSA: ReadonlySet<number> = new Set([AirspaceType.TRA, AirspaceType.TSA]);
type Standing = "fresh" | "stale" | "missing";
const SOURCES: Array<{ notam: Standing; aup: Standing }> = [
  { notam: "fresh", aup: "fresh" },
  { notam: "stale", aup: "missing" },
  { notam: "fresh", aup: "missing" },
  { notam: "stale", aup: "fresh" },
];

describe("an area after its linked NOTAMs end (fixtures/links, issue 58)", () => {
  warnNoShared("after a linked NOTAM");

  it.runIf(HAS_SHARED)("is No only on fresh covering evidence of every source that could activate it again", () => {
    const seen = new Map<string, number>();
    const wrong: string[] = [];
    for (const set of CONTINENTAL) {
      const { airspaces, linker, notam } = loadSet(set);
      for (const c of CASES.filter((x) => x.set === set && x.subjects.length > 0 && x.effect === "activate")) {
        const n = notam(c);
        const when = firstActivity(set, n, linker);
        if (!when) continue;
        const spans = notamsForDay([n], when.day, linker, new DiagnosticSink()).notams[0]?.spans ?? [];
        const end = Math.max(...spans.map(([, e]) => e));
        if (end >= when.day.end || !Number.isFinite(end)) continue; // active to the day's end: nothing comes after
        const now = end + 60_000;
        const stage = notamStage([n], linker, { day: when.day, now, variant: "production" }, new DiagnosticSink());
        const subjects = airspaces.filter((a) => c.subjects.includes(a.id));
        for (const s of SOURCES) {
          const sources = { notam: assumed("notam", s.notam), aup: assumed("aup", s.aup) };
          const features: Feature[] = resolveDay(
            subjects,
            { day: when.day, now, sources },
            { notams: stage.linked, unsure: stage.unsure },
          );
          for (const f of features) {
            const m = f.properties.vendor.dynamicAirspaceMapping;
            const key = `${s.notam}/${s.aup} ${m.isActive}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
            // the NOTAM source is what activated it: stale, it cannot say the area stays off
            if (s.notam === "stale" && m.isActive === "No") {
              wrong.push(`${c.key} ${f.properties.name} at ${isoInstant(now)} (${s.notam}/${s.aup}): No`);
            }
            // a TRA or TSA is planned in the AUP: without one, nothing says it stays off
            if (s.aup === "missing" && TRA_TSA.has(f.properties.type) && m.isActive === "No") {
              wrong.push(`${c.key} ${f.properties.name} at ${isoInstant(now)} (${s.notam}/${s.aup}): No`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // the cases reach both answers: fresh evidence may say No, stale never does
    expect(seen.get("fresh/fresh No") ?? 0).toBeGreaterThanOrEqual(10);
    expect(seen.get("stale/missing Unknown") ?? 0).toBeGreaterThanOrEqual(10);
  });
});
