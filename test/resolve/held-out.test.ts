// Held-out states (issue 50): what the service does for a state whose airspace it does not have, measured two ways on
// real NOTAMs. (1) Leave one state out: each labelled state's airspace is taken out of the continental set and its
// labelled NOTAMs are read again. A NOTAM must then link nothing (its subjects are gone; any link is to another
// state's airspace, so wrong), and one that activates an area must still reach the pilot: drawn from its own text
// (Item E, else the Q-line circle) and `Yes` at the first instant of its activity (recall), never `No`. (2) The
// offices of the SOFIA briefs whose state has no airspace in the set (IT, ES, GR, the Nordic and Baltic states, ...):
// none of their NOTAMs links an airspace of another state. Reads the corpus of ../shared/data and says so when it is
// absent. The figures per state go to test-output/held-out.json.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countryOfIcao } from "../../src/geo/icao-prefixes.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { notamKey } from "../../src/model/notam.js";
import { isoInstant } from "../../src/model/time.js";
import { aerodromePoints } from "../../src/notam/aerodromes.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { notamStage } from "../../src/resolve/notam-stage.js";
import { linksOf } from "../../src/resolve/notams.js";
import { HAS_SHARED, ROOT, warnNoShared } from "../helpers.js";
import { CASES, CONTINENTAL, firstActivity, loadSet } from "./link-cases.js";

const ACTIVATING = new Set(["activate", "mayActivate"]);

/** Per held-out state: its labelled NOTAMs, links made, activating ones, drawn `Yes`, drawn `No`. */
interface Held {
  notams: number;
  wrongLinks: string[];
  activating: number;
  yes: number;
  wrongNo: string[];
  missed: string[];
}

describe("states whose airspace the service does not have", () => {
  warnNoShared("held-out states");

  it.runIf(HAS_SHARED)(
    "leave one state out: its NOTAMs link nothing, and those activating an area are drawn Yes",
    () => {
      const byState: Record<string, Held> = {};
      for (const set of CONTINENTAL) {
        const { airspaces, notam, notams } = loadSet(set);
        const aerodromes = aerodromePoints(notams);
        const cases = CASES.filter((c) => c.set === set && c.subjects.length > 0);
        for (const state of new Set(cases.map((c) => c.country))) {
          const kept = airspaces.filter((a) => a.country !== state);
          const linker = new AirspaceLinker(kept);
          const held = byState[state] ?? { notams: 0, wrongLinks: [], activating: 0, yes: 0, wrongNo: [], missed: [] };
          byState[state] = held;
          for (const c of cases.filter((x) => x.country === state)) {
            const n = notam(c);
            held.notams++;
            const right = new Set([...c.subjects, ...(c.maybe ?? [])]);
            for (const id of idsOf(n, linker, aerodromes))
              if (!right.has(id)) held.wrongLinks.push(`${c.key ?? c.id} → ${id}`);
            if (!ACTIVATING.has(c.effect ?? "")) continue;
            held.activating++;
            const when = firstActivity(set, n, linker);
            const stage = when && notamStage([n], linker, { ...when, variant: "production" }, new DiagnosticSink());
            const f = stage?.features.find((x) => x.properties._id === notamKey(n));
            const answer = f?.properties.vendor.dynamicAirspaceMapping.isActive;
            if (answer === "Yes") held.yes++;
            else if (answer === "No") held.wrongNo.push(`${c.key ?? c.id}: No at ${isoInstant(when!.now)}`);
            else held.missed.push(`${c.key ?? c.id}: ${f ? answer : stage ? "not drawn" : "no activity found"}`);
          }
        }
      }
      const figures = Object.fromEntries(
        Object.entries(byState).map(([cc, h]) => [
          cc,
          { ...h, recall: h.activating ? Number((h.yes / h.activating).toFixed(4)) : null },
        ]),
      );
      writeFigures({ leaveOneOut: figures });
      console.log(
        `held out, per state (NOTAMs, wrong links, activating drawn Yes): ${Object.entries(byState)
          .map(([cc, h]) => `${cc} ${h.notams}, ${h.wrongLinks.length}, ${h.yes}/${h.activating}`)
          .join("; ")}`,
      );
      const all = Object.values(byState);
      expect(all.reduce((s, h) => s + h.activating, 0)).toBeGreaterThanOrEqual(100);
      expect(all.flatMap((h) => h.wrongLinks)).toEqual([]);
      expect(all.flatMap((h) => h.wrongNo)).toEqual([]);
      for (const [cc, h] of Object.entries(byState)) {
        if (h.activating > 0) expect(h.yes / h.activating, `${cc}: ${h.missed.join("; ")}`).toBeGreaterThanOrEqual(0.9);
      }
    },
  );

  it.runIf(HAS_SHARED)("offices of states without airspace here link no airspace of another state", () => {
    const { airspaces, notams, linker } = loadSet("eu26");
    const aerodromes = aerodromePoints(notams);
    const have = new Set(airspaces.map((a) => a.country));
    const byState: Record<string, { notams: number; linked: string[] }> = {};
    for (const n of notams) {
      const state = countryOfIcao(n.nof ?? n.q?.fir ?? "");
      if (!state || have.has(state)) continue;
      const s = byState[state] ?? { notams: 0, linked: [] };
      byState[state] = s;
      s.notams++;
      for (const id of idsOf(n, linker, aerodromes)) s.linked.push(`${n.nof} ${n.id} → ${id}`);
    }
    writeFigures({ officesWithoutAirspace: byState });
    console.log(
      `offices without airspace here (state NOTAMs/links): ${Object.entries(byState)
        .map(([cc, s]) => `${cc} ${s.notams}/${s.linked.length}`)
        .join(", ")}`,
    );
    expect(Object.keys(byState).length).toBeGreaterThanOrEqual(15);
    expect(Object.values(byState).flatMap((s) => s.linked)).toEqual([]);
  });
});

const idsOf = (...a: Parameters<typeof linksOf>) => (linksOf(...a)?.airspaces ?? []).map((x) => x.id);

const written: Record<string, unknown> = {};
function writeFigures(part: Record<string, unknown>): void {
  Object.assign(written, part);
  mkdirSync(path.join(ROOT, "test-output"), { recursive: true });
  writeFileSync(path.join(ROOT, "test-output", "held-out.json"), `${JSON.stringify(written, null, 2)}\n`);
}
