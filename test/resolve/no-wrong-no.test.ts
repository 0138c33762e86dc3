// The one rule of activation on the hand-labelled continental NOTAMs (issue 42 "No wrong No"): an airspace that a
// labelled NOTAM activates (effect `activate`, or `mayActivate`: its hours changed so that it may be active) is never
// `No` at a moment that NOTAM covers. Adversarial on purpose: NOTAM and AUP sources assumed fresh and covering every
// FIR, so silence would turn conditional areas to `No`; the day is the first of the NOTAM's validity (from the briefs'
// 7 February 2026) on which it has activity, `now` the start of that activity, and every NOTAM of the set takes part.
// Reads the corpus of ../shared/data and says so when it is absent.
import { describe, expect, it } from "vitest";
import type { Feature } from "../../src/model/contract.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { isoInstant, type UtcDay } from "../../src/model/time.js";
import { resolveDay } from "../../src/resolve/day.js";
import { assumed } from "../../src/resolve/evidence.js";
import { notamStage } from "../../src/resolve/notam-stage.js";
import { HAS_SHARED, warnNoShared } from "../helpers.js";
import { CASES, CONTINENTAL, firstActivity, loadSet } from "./link-cases.js";

const ACTIVATING = new Set(["activate", "mayActivate"]);

describe("no labelled airspace is No while a NOTAM activates it (fixtures/links/cases-eu26.json)", () => {
  warnNoShared("no wrong No");

  it.runIf(HAS_SHARED)("holds for every activated subject of the continental labels", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const set of CONTINENTAL) {
      const { airspaces, linker, notam, notams } = loadSet(set);
      const stages = new Map<string, ReturnType<typeof notamStage>>();
      const stageOf = (day: UtcDay, now: number) => {
        const key = `${day.date} ${now}`;
        let s = stages.get(key);
        if (!s) {
          s = notamStage(notams, linker, { day, now, variant: "production" }, new DiagnosticSink());
          stages.set(key, s);
        }
        return s;
      };
      for (const c of CASES.filter((x) => x.set === set && x.subjects.length > 0 && ACTIVATING.has(x.effect ?? ""))) {
        const n = notam(c);
        const when = firstActivity(set, n, linker);
        if (!when) {
          failures.push(`${c.key}: no day of activity found in its validity`);
          continue;
        }
        const stage = stageOf(when.day, when.now);
        const subjects = airspaces.filter((a) => c.subjects.includes(a.id));
        const features: Feature[] = resolveDay(
          subjects,
          { day: when.day, now: when.now, sources: { notam: assumed("notam", "fresh"), aup: assumed("aup", "fresh") } },
          { notams: stage.linked, unsure: stage.unsure },
        );
        for (const f of features) {
          checked++;
          const m = f.properties.vendor.dynamicAirspaceMapping;
          if (m.isActive === "No") {
            failures.push(`${c.key} ${f.properties.name} at ${isoInstant(when.now)}: No (${m.activationType})`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(150);
    expect(failures).toEqual([]);
  });
});
