// The Netherlands and Slovakia (issue 50 §4), on excerpts of their 2022 national OpenAir files (fixtures/airspace-nl-sk,
// PROVENANCE.md there): each file is read and normalised to its own country, and the RSA names of the EUROCONTROL
// EAUP/EUUP of 2022 (the archive of ../shared/data/aup/eaup_topsky_2022, written here verbatim) find the volume they
// name and no sibling; a part the file lacks takes the volume named without letter beside it (too much, never a wrong
// No), where a NOTAM naming it is only unsure of it; a buffer zone links the area it surrounds only as a buffer; an
// area the file names only by its place is not found. Runs without the corpus.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { allocationLinks } from "../../src/resolve/aup.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { FIXTURES } from "../helpers.js";

const DIR = path.join(FIXTURES, "airspace-nl-sk");

function read(file: string) {
  const sink = new DiagnosticSink();
  const { records } = readAirspaceSource(readFileSync(path.join(DIR, file)), file);
  const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, sink);
  return { records, airspaces, sink, linker: new AirspaceLinker(airspaces) };
}

/** What each RSA name links: the names (OpenAir `AN`) of the volumes, and whether as a buffer. */
function linked(linker: AirspaceLinker, rsa: string): { names: string[]; asBuffer: boolean } {
  const r = allocationLinks(rsa, linker);
  return { names: r.airspaces.map((a) => a.name).sort(), asBuffer: r.asBuffer };
}

describe("the Netherlands' and Slovakia's airspace against their AUP names", () => {
  it("reads both files whole, each airspace in its own state", () => {
    const nl = read("nl_gliderpilotshop_2022-04_excerpt.txt");
    const sk = read("sk_aip_2022-04_excerpt.txt");
    expect(nl.records).toHaveLength(9);
    expect(sk.records).toHaveLength(11);
    expect(new Set(nl.airspaces.map((a) => a.country))).toEqual(new Set(["NL"]));
    expect(new Set(sk.airspaces.map((a) => a.country))).toEqual(new Set(["SK"]));
    // TSA 16 is drawn in two polygons under one name: two volumes, both kept
    expect(nl.airspaces.filter((a) => a.name === "TSA 16")).toHaveLength(2);
  });

  it("links each Dutch RSA name to the volume it names, and no sibling", () => {
    const { linker } = read("nl_gliderpilotshop_2022-04_excerpt.txt");
    expect(linked(linker, "EHR3")).toEqual({ names: ["EHR 3"], asBuffer: false });
    expect(linked(linker, "EHR3A")).toEqual({ names: ["EHR 3A"], asBuffer: false });
    expect(linked(linker, "EHR4")).toEqual({ names: ["EHR 4"], asBuffer: false });
    expect(linked(linker, "EHR4B")).toEqual({ names: ["EHR 4B"], asBuffer: false });
    expect(linked(linker, "EHTRA10B")).toEqual({ names: ["TRA 10B"], asBuffer: false });
    // a part the file lacks: the plan's allocation activates the part named without letter beside it (too much, never
    // a wrong No: `EHR 4` lies apart from 4B–4F, so it may well be 4A), as the area a buffer surrounds for a buffer
    expect(linked(linker, "EHR4A")).toEqual({ names: ["EHR 4"], asBuffer: false });
    expect(linked(linker, "EHR4AZ")).toEqual({ names: ["EHR 4"], asBuffer: true });
    // the file holds no TRA 10 of any part but B
    expect(linked(linker, "EHTRA10A").names).toEqual([]);
    // areas the 2022 file leaves to its add-on files (EHR2, EHTRA12, the D areas): not found
    for (const rsa of ["EHR2", "EHTRA12", "EHD018", "EHD41A"]) expect(linked(linker, rsa).names, rsa).toEqual([]);
  });

  it("leaves a NOTAM naming a part the file lacks unsure of the part beside it, never linked", () => {
    const { linker } = read("nl_gliderpilotshop_2022-04_excerpt.txt");
    const names = (xs: readonly { name: string }[]) => xs.map((a) => a.name).sort();
    const part = linker.link({ text: "EHR4A ACTIVATED", country: "NL" });
    expect(names(part.airspaces)).toEqual([]);
    expect(names(part.unsure)).toEqual(["EHR 4"]);
    // the volumes the file holds link themselves only
    expect(names(linker.link({ text: "EHR4 ACTIVATED", country: "NL" }).airspaces)).toEqual(["EHR 4"]);
    expect(names(linker.link({ text: "EHR4B ACTIVATED", country: "NL" }).airspaces)).toEqual(["EHR 4B"]);
  });

  it("links each Slovak RSA name to the volume it names, and no sibling", () => {
    const { linker } = read("sk_aip_2022-04_excerpt.txt");
    expect(linked(linker, "LZR01")).toEqual({ names: ["LZR 01"], asBuffer: false });
    expect(linked(linker, "LZR02")).toEqual({ names: ["LZR 02"], asBuffer: false });
    expect(linked(linker, "LZR131A")).toEqual({ names: ["LZR 131 A"], asBuffer: false });
    expect(linked(linker, "LZR131B")).toEqual({ names: ["LZR 131 B"], asBuffer: false });
    expect(linked(linker, "LZR60A")).toEqual({ names: ["LZR 60 A"], asBuffer: false });
    expect(linked(linker, "LZR223")).toEqual({ names: ["LZR 223 Turecky Vrch Viktor"], asBuffer: false });
    expect(linked(linker, "LZR225")).toEqual({ names: ["LZR225"], asBuffer: false });
    expect(linked(linker, "LZR225A")).toEqual({ names: ["LZR 225A"], asBuffer: false });
    // the file names LZR 222 only by its place (`Turecky Vrch Peter`), and holds no LZR 60 B
    expect(linked(linker, "LZR222").names).toEqual([]);
    expect(linked(linker, "LZR60B").names).toEqual([]);
    // a no-planning zone is never a buffer of anything
    expect(linked(linker, "LZNPZ1").names).toEqual([]);
  });
});
