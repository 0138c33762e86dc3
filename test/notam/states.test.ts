// Every EUROCONTROL state's designators and phrasing from real text (issue 50 §2): the per-state table
// (src/notam/states.ts) and each state's cases in fixtures/designators/states.json, verbatim from the six SOFIA route
// briefs of February 2026 (Item E, with the NOTAM's key and Q-code) and the EAUP/EUUP archive of 2022 (RSA names).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { designatorsIn, isBuffer } from "../../src/notam/designator.js";
import { STATES } from "../../src/notam/states.js";
import { notamEffect } from "../../src/notam/subject.js";
import { FIXTURES } from "../helpers.js";

interface StateCases {
  state: string;
  prefix: string;
  notam: Array<{ key: string; text: string; designators: string[] }>;
  aup: Array<{ name: string; designators: string[] }>;
  phrasing: Array<{ key: string; q: string; text: string; effect: string }>;
}
const CASES: StateCases[] = JSON.parse(readFileSync(path.join(FIXTURES, "designators", "states.json"), "utf8")).states;

describe("the per-state table", () => {
  it("lists the 41 EUROCONTROL states, each prefix once (Serbia and Montenegro share LY)", () => {
    expect(STATES.length).toBe(41);
    const prefixes = STATES.flatMap((s) => s.prefixes).filter((p) => p !== "LY");
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it("has real cases for every state whose area NOTAMs or AUP names are in the data", () => {
    for (const s of STATES.filter((s) => s.forms.length + (s.asWritten?.length ?? 0) > 0)) {
      const cases = CASES.filter((c) => s.prefixes.includes(c.prefix));
      const count = cases.reduce((n, c) => n + c.notam.length + c.aup.length + c.phrasing.length, 0);
      expect(count, `${s.country} ${s.name}`).toBeGreaterThan(0);
    }
    expect(CASES.length).toBeGreaterThanOrEqual(36);
  });

  it.each(STATES.filter((s) => s.forms.length > 0).map((s) => [s.country, s] as const))(
    "%s: each form reads a designator of the state's prefix; a name or code as written reads none",
    (_, s) => {
      for (const form of s.forms) {
        const text = form.replace(/^AUP /, "");
        const read = s.prefixes.flatMap((p) => designatorsIn(text, p));
        expect(
          read.some((d) => s.prefixes.some((p) => d.startsWith(p))),
          `${form} → ${read.join(",")}`,
        ).toBe(true);
      }
      for (const name of s.asWritten ?? []) {
        const read = s.prefixes.flatMap((p) => designatorsIn(name.replace(/^AUP /, ""), p));
        expect(read, name).toEqual([]);
      }
    },
  );

  it("reads a state's own kind only after its prefix", () => {
    expect(designatorsIn("EGRU185 NSA BOSCOMBE DOWN", "EG")).toEqual(["EGRU185"]);
    expect(designatorsIn("'LDATR103'", "LD")).toEqual(["LDATR103"]);
    expect(designatorsIn("ENT139Z (J2Z)", "EN")).toEqual(["ENT139Z"]);
    // an emergency beacon, a Croatian-looking UK word: no area
    expect(designatorsIn("ELT406 BEACON TEST", "EL")).toEqual([]);
    expect(designatorsIn("EGATR103", "EG")).toEqual([]);
    expect(designatorsIn("LDRU185", "LD")).toEqual([]);
  });
});

describe("each state's real text", () => {
  it.each(CASES.map((c) => [`${c.prefix} ${c.state}`, c] as const))("%s: designators and phrasing", (_, c) => {
    for (const n of c.notam) expect(designatorsIn(n.text, c.prefix), `${n.key}: ${n.text}`).toEqual(n.designators);
    for (const a of c.aup) expect(designatorsIn(a.name, c.prefix), `AUP ${a.name}`).toEqual(a.designators);
    for (const p of c.phrasing) expect(notamEffect(p.q.slice(3, 5), p.text), `${p.key}: ${p.text}`).toBe(p.effect);
  });
});

describe("buffer zones of the AUP names", () => {
  it("reads a Z after the sector or before a part number, and a Z closing a known name", () => {
    for (const d of ["EPTR501Z", "EGD323AZ", "EGD701BZ1", "LFT200AZ1", "LER63Z1", "UKD915TZ", "EETSA16WZ"])
      expect(isBuffer(d), d).toBe(true);
    const known = new Set(["LFBANE", "EKDRAMC", "EBTRASB", "LFRA"]);
    for (const d of ["LFBANEZ", "EKDRAMCZ", "EBTRASBZ", "LFRAZ"]) {
      expect(
        isBuffer(d, (b) => known.has(b)),
        d,
      ).toBe(true);
      expect(isBuffer(d), d).toBe(false);
    }
    for (const d of ["EPNPZ2", "LINPZ1", "EDNPZ10", "EPTR501", "LFR108HN"]) expect(isBuffer(d), d).toBe(false);
  });
});
