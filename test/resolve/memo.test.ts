// `watch` derives again for every NOTAM change, and the stages remember what this process made last (issue 50): a
// feed line read again is the same NOTAM object (notam/jsonl.ts), a NOTAM read again for the day with the same
// linker the same day's NOTAM (resolve/notams.ts), its feature the same while `now` stays in its window
// (resolve/notam-stage.ts), and an airspace with the same inputs the same feature (resolve/day.ts). What is taken
// from memory must be what deriving from nothing gives: the real UK airspace and briefing of 2026-08-22 at two
// instants, against a process that remembers nothing (new objects everywhere).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import type { Feature } from "../../src/model/contract.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import type { Notam } from "../../src/model/notam.js";
import { utcDay } from "../../src/model/time.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { readNotamJsonLines } from "../../src/notam/jsonl.js";
import { readNotamSource } from "../../src/notam/read.js";
import { resolveDay } from "../../src/resolve/day.js";
import { assumed } from "../../src/resolve/evidence.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { notamStage } from "../../src/resolve/notam-stage.js";
import type { Track } from "../../src/resolve/now-window.js";
import { FIXTURES } from "../helpers.js";

const day = utcDay("2026-08-22")!;
const UK = path.join(FIXTURES, "uk");
const read = (f: string) => readAirspaceSource(readFileSync(path.join(UK, f)), f).records;
const airspaces = normalizeAirspaces(
  ["gb_airspace_2026-06.yaml", "gb_rat_2026-06.yaml"].flatMap(read),
  { firs: bundledFirIndex() },
  new DiagnosticSink(),
);
const pib = "uk_pib_2026-08-22T1116Z.xml.gz";
const notams = readNotamSource(readFileSync(path.join(UK, pib)), pib).notams;
const sources = { notam: assumed("notam", "fresh"), aup: assumed("aup", "fresh") };

/** The NOTAM stage and the airspaces resolved at `now`: its features as JSON, its summary and diagnostics. */
function derive(ns: readonly Notam[], linker: AirspaceLinker, now: number) {
  const sink = new DiagnosticSink();
  const track = new Map<string, Track<Feature>>();
  const stage = notamStage(ns, linker, { day, now, variant: "production", track }, sink);
  const links = { notams: stage.linked, unsure: stage.unsure };
  const features = [...resolveDay(airspaces, { day, now, sources }, links, undefined, track), ...stage.features];
  return { features, summary: stage.summary, diagnostics: sink.items, track };
}
const json = (d: ReturnType<typeof derive>) =>
  JSON.stringify([d.features, d.summary, d.diagnostics, [...d.track.keys()]]);

describe("what a process remembers of its last derivation", () => {
  it("gives, at another instant and with one NOTAM changed, what a process remembering nothing gives", () => {
    const linker = new AirspaceLinker(airspaces);
    const [t1, t2] = [day.start + 11 * 3_600_000, day.start + 17 * 3_600_000 + 20 * 60_000];
    const first = derive(notams, linker, t1);
    // one NOTAM changed (a copy: a new object, as a changed feed line reads), the rest the same objects
    const i = notams.findIndex((n) => n.itemE.length > 20 && n.q?.centre);
    const changed = notams.map((n, k) => (k === i ? { ...n, itemE: `${n.itemE} CHANGED` } : n));
    const again = derive(changed, linker, t2);
    // from nothing: copies of every NOTAM and airspace, another linker
    const copies = changed.map((n) => ({ ...n }));
    const fresh = derive(copies, new AirspaceLinker(airspaces), t2);
    expect(json(again)).toBe(json(fresh));
    // most features taken as they were, those whose window ended at t2 (and the changed NOTAM's) made again
    const before = new Set(first.features);
    const kept = again.features.filter((f) => before.has(f)).length;
    expect(kept).toBeGreaterThan(again.features.length / 2);
    expect(again.features.length - kept).toBeGreaterThan(20);
  });

  it("reads a feed line again as the same NOTAM, and a changed line afresh", () => {
    const line = (id: string, e: string) =>
      JSON.stringify({
        id,
        type: "N",
        itemQ: "EGTT/QRDCA/IV/BO/W/000/050/5130N00010W005",
        itemA: "EGTT",
        itemB: "2608220800",
        itemC: "2608221600",
        itemE: e,
      });
    const text = [line("A0001/26", "DANGER AREA EG D001 ACT"), "not json", line("A0002/26", "DANGER AREA EG D002 ACT")];
    const a = readNotamJsonLines(text.join("\n"), "memo-test.jsonl");
    const b = readNotamJsonLines(text.join("\n"), "memo-test.jsonl");
    expect(b.notams[0]).toBe(a.notams[0]);
    expect(b.notams[1]).toBe(a.notams[1]);
    expect(b.diagnostics).toEqual(a.diagnostics);
    text[2] = line("A0002/26", "DANGER AREA EG D002 ACT TO 3000FT");
    const c = readNotamJsonLines(text.join("\n"), "memo-test.jsonl");
    expect(c.notams[0]).toBe(a.notams[0]);
    expect(c.notams[1]).not.toBe(a.notams[1]);
    expect(c.notams[1]!.itemE).toContain("3000FT");
    // a line moved (one inserted before it) is read afresh: its record number is another
    const d = readNotamJsonLines([line("A0000/26", "X"), ...text].join("\n"), "memo-test.jsonl");
    expect(d.notams[1]).not.toBe(a.notams[0]);
    expect(d.notams[1]!.origin.record).toBe(1);
    // a one-shot publish reads once: that reading is the same NOTAMs (the memo still answers), but leaves no memo
    const once = readNotamJsonLines(text.join("\n"), "memo-test.jsonl", false);
    expect(once.notams.map((n) => n.itemE)).toEqual(c.notams.map((n) => n.itemE));
    const after = readNotamJsonLines(text.join("\n"), "memo-test.jsonl");
    expect(after.notams[0]).not.toBe(once.notams[0]);
    expect(after.notams[0]).toEqual(once.notams[0]);
  });
});
