// Issue 58 §1: the NOTAM forms the topsky-vatsim `.keys.json` files give for each area (`EK R503`, `DANGER AREA EED10
// UTSALI`, `EU CBA10`: how the vACCs saw real NOTAMs of its FIR name it) link that area. Only the forms that write a
// designator as NOTAMs do (the state's prefix, or EU before a CBA) are weighed: bare keys (`R103`) are the plugin's
// substrings, and a buffer's key (`ENT139Z`) for an area the file holds without its buffer must not link the area
// (docs/activation.md §5). Test data only: read from ../shared/data, never copied; without it this says so.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { countryOfIcao, countryPrefixes } from "../../src/geo/icao-prefixes.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { normalizeDesignator } from "../../src/notam/designator.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { HAS_SHARED, SHARED_DATA, warnNoShared } from "../helpers.js";

const DIR = path.join(SHARED_DATA, "airspace", "topsky-vatsim");

interface Keys {
  areas: Array<{ name: string; kept: boolean; notam?: Array<{ fir: string; text: string }> }>;
}

describe("the NOTAM forms of the topsky-vatsim keys link their areas", () => {
  warnNoShared("topsky NOTAM forms");

  it.runIf(HAS_SHARED)("links every prefixed form but where the file's name is not the designator", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".openair"));
    const records = files.flatMap((f) => readAirspaceSource(readFileSync(path.join(DIR, f)), f).records);
    const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, new DiagnosticSink());
    const linker = new AirspaceLinker(airspaces);
    const perFile: Record<string, { forms: number; found: number }> = {};
    const missed: string[] = [];
    for (const f of files) {
      const keys = JSON.parse(readFileSync(path.join(DIR, f.replace(/\.openair$/, ".keys.json")), "utf8")) as Keys;
      const own = airspaces.filter((a) => a.origin.source.endsWith(f));
      const tally = { forms: 0, found: 0 };
      perFile[f] = tally;
      for (const area of keys.areas.filter((a) => a.kept)) {
        const targets = own.filter((a) => a.name === area.name);
        for (const { fir, text } of targets.length > 0 ? (area.notam ?? []) : []) {
          const country = countryOfIcao(fir);
          const prefix = country ? countryPrefixes(country)[0] : undefined;
          if (!prefix || !new RegExp(`(?<![A-Z0-9])(?:${prefix}|EU)[ -]?[A-Z]{1,3} ?\\d`).test(text)) continue;
          if (/Z\d?$/.test(normalizeDesignator(text)) && !/Z\d?$/.test(normalizeDesignator(area.name))) continue;
          tally.forms++;
          const got = linker.link({ text: `${text} ACTIVATED.`, country: country!, qSubject: "RR" }).airspaces;
          if (targets.some((t) => got.includes(t))) tally.found++;
          else missed.push(`${fir} "${text}" → ${area.name}`);
        }
      }
    }
    const forms = Object.values(perFile).reduce((s, t) => s + t.forms, 0);
    expect(forms).toBeGreaterThanOrEqual(1000);
    const found = Object.values(perFile).reduce((s, t) => s + t.found, 0);
    expect(found / forms).toBeGreaterThanOrEqual(0.99);
    // what stays missed: the Estonian file cuts EER2509A–D to seven letters (EER250A–D), and one key of the
    // Norwegian file gives T739's designator for T740
    expect(missed.filter((m) => !/EER2509[A-D]|ENT739/.test(m))).toEqual([]);
  });
});
