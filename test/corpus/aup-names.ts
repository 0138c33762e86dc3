// The RSA designators of the EUROCONTROL EAUP/EUUP archive of 2022 (../shared/data/aup/eaup_topsky_2022, one folder
// per state, one line per allocation `RSA:MMDD:MMDD:weekday:from:to:lowerFt:upperFt:AUP/UUP`) against the airspace
// files of the states whose airspace is here: which names find an airspace, per state (issue 50 §3).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { bundledFirIndex } from "../../src/geo/fir-index.js";
import { readAirspaceSource } from "../../src/ingest/read.js";
import { DiagnosticSink } from "../../src/model/diagnostic.js";
import { normalizeAirspaces } from "../../src/normalize/airspace.js";
import { isBuffer } from "../../src/notam/designator.js";
import { linkAllocation } from "../../src/resolve/aup.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { SHARED_DATA, tempDir } from "../helpers.js";

export const ARCHIVE = path.join(SHARED_DATA, "aup", "eaup_topsky_2022", "eaup_topsky_2022-02-24_2022-06-18.tar.gz");

/** The archive's state folders, by ISO country code. */
export const STATES: Record<string, string> = {
  Albania: "AL",
  Austria: "AT",
  Belgium: "BE",
  Bosnia: "BA",
  Bulgaria: "BG",
  Croatia: "HR",
  Cyprus: "CY",
  Czechia: "CZ",
  Denmark: "DK",
  Estonia: "EE",
  Finland: "FI",
  France: "FR",
  Germany: "DE",
  Greece: "GR",
  Hungary: "HU",
  Ireland: "IE",
  Italy: "IT",
  Latvia: "LV",
  Lithuania: "LT",
  Luxembourg: "LU",
  Malta: "MT",
  Montenegro: "ME",
  Netherlands: "NL",
  Norway: "NO",
  Poland: "PL",
  Portugal: "PT",
  Romania: "RO",
  Serbia: "RS",
  Slovakia: "SK",
  Slovenia: "SI",
  Spain: "ES",
  Sweden: "SE",
  Switzerland: "CH",
  Turkey: "TR",
  Uk: "GB",
  Ukraine: "UA",
};

/** The airspace files of each state whose airspace is here, nearest the archive's year (paths under the corpus). */
export const AIRSPACE: Record<string, string[]> = {
  AT: ["airspace/openaip-geojson/at_asp_2022-09.geojson"],
  BE: ["airspace/openaip-v1-xml-2018/openaip_airspace_belgium_be.aip"],
  CH: ["airspace/openaip-geojson/ch_asp_2022-09.geojson"],
  CZ: ["airspace/openair-other/cz_aeroklub_2026-04.txt"],
  DE: ["airspace/openaip-geojson/de_asp_2022-09.geojson"],
  FR: ["airspace/openaip-openair/fr_asp_v2_2025-10.txt"],
  GB: ["airspace/yaixm/gb_airspace_2024-09.yaml"],
  LU: ["airspace/openaip-v1-xml-2018/openaip_airspace_luxembourg_lu.aip"],
  NL: [
    "airspace/openair-other/nl_gliderpilotshop_2022-04.txt",
    "airspace/openaip-v1-xml-2018/openaip_airspace_netherlands_nl.aip",
  ],
  PL: ["airspace/openair-other/pl_lotnik_2026-03.txt"],
  SI: ["airspace/openaip-geojson/si_asp_2022-09.geojson"],
  SK: ["airspace/openair-other/sk_aip_2022-04.txt"],
  // issue 58: the special-use areas of twelve more states (topsky-vatsim, test data only, read from the corpus)
  ...Object.fromEntries(
    Object.entries({
      BG: ["bg_lbsr-data-topskyareas_2026-06"],
      CY: ["cy_hvacc-lccc-topskyareas_2026-01"],
      DK: ["dk_vatsca-ekdk-topskyareas_2026-04"],
      EE: ["ee_estvacc-eett-topskyareas_2026-04"],
      ES: [
        "es_vatspa-lecm-topskyareas_2024-02",
        "es_vatspa-lecb-topskyareas_2024-02",
        "es-gc_vatspa-gccc-topskyareas_2024-02",
      ],
      FI: ["fi_efin-datafiles-topskyareas_2026-05"],
      IE: ["ie_vateir-topskyareas_2020-12"],
      IT: ["it_vatita-topskyareas_2026-04"],
      LV: ["ee_estvacc-eett-topskyareas_2026-04"],
      MT: ["mt_vatsim-malta-topskyareas_2021-04"],
      NO: ["no_vatsca-enor-topskyareas_2026-02"],
      PT: ["pt_topskylppc-topskyareas_2026-05"],
      SE: ["se_vatsca-esaa-topskyareas_2026-05"],
    }).map(([cc, files]) => [cc, files.map((f) => `airspace/topsky-vatsim/${f}.openair`)]),
  ),
};
/** The states whose airspace came with issue 58 (their goal: ≥ 90 % of the names each). */
export const NEW_IN_58 = ["BG", "CY", "DK", "EE", "ES", "FI", "IE", "IT", "LV", "MT", "NO", "PT", "SE"];

/** Every distinct RSA name of each state in the archive (extracted with the system's tar into a temporary folder). */
export function rsaNames(): Map<string, Set<string>> {
  const dir = tempDir("eaup-");
  const r = spawnSync("tar", ["-xzf", ARCHIVE, "-C", dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tar could not read ${ARCHIVE}: ${r.stderr}`);
  const root = path.join(dir, "eaup_vlara_2022");
  const out = new Map<string, Set<string>>();
  for (const state of readdirSync(root)) {
    const cc = STATES[state];
    if (!cc) throw new Error(`a state folder the table does not know: ${state}`);
    const names = new Set<string>();
    for (const f of readdirSync(path.join(root, state))) {
      for (const line of readFileSync(path.join(root, state, f), "utf8").split("\n")) {
        // some files' first line starts with the state's name, glued (`GermanyEDD19AZ`; a lone `Luxembourg` when
        // the plan was empty): a trace of the derivation, not a designator
        const name = (line.split(":")[0] ?? "").trim().replace(new RegExp(`^${state}`), "");
        if (name) names.add(name);
      }
    }
    out.set(cc, names);
  }
  return out;
}

export interface StateShare {
  names: number;
  /** Names that find an airspace of the state. */
  found: number;
  share: number;
  /** Buffer zones (`…Z`) among the names, and those found (their own volume, else the area they buffer). */
  buffers: number;
  missed: string[];
}

/** Per state whose airspace is here, the share of its RSA names that find an airspace of its files. */
export function shares(names: ReadonlyMap<string, ReadonlySet<string>>): Record<string, StateShare> {
  const out: Record<string, StateShare> = {};
  for (const [cc, files] of Object.entries(AIRSPACE)) {
    const records = files.flatMap((f) => readAirspaceSource(readFileSync(path.join(SHARED_DATA, f)), f).records);
    const airspaces = normalizeAirspaces(records, { firs: bundledFirIndex() }, new DiagnosticSink());
    // every airspace of the state's files: a state's area may lie in a neighbour's FIR of the FIR data (Bornholm's
    // EKR95), and a file may hold a neighbour's areas under their own names
    const linker = new AirspaceLinker(airspaces);
    const all = [...(names.get(cc) ?? [])].sort();
    const missed = all.filter((n) => linkAllocation(n, linker).length === 0);
    const found = all.length - missed.length;
    out[cc] = {
      names: all.length,
      found,
      share: Number((found / (all.length || 1)).toFixed(4)),
      buffers: all.filter((n) => isBuffer(n, (b) => all.includes(b))).length,
      missed,
    };
  }
  return out;
}

export interface HeldShare {
  /** Names whose area the state's files hold: found, or given as an area's AUP id by the files' `.keys.json`. */
  held: number;
  found: number;
  share: number;
  /** Held but not found: the resolution's own misses. */
  missedHeld: string[];
  /** Names no area of the files answers to, nor any `.keys.json` entry: areas the files lack. */
  lacking: string[];
}

/**
 * For the states of issue 58, how the misses split: the `.keys.json` beside each topsky file (test data, never read by
 * the product) says which AUP id each of its areas has; a missed name it gives belongs to an area the file holds.
 */
export function heldShares(perState: Readonly<Record<string, StateShare>>): Record<string, HeldShare> {
  const out: Record<string, HeldShare> = {};
  for (const cc of NEW_IN_58) {
    const s = perState[cc];
    if (!s) continue;
    const keyed = new Set<string>();
    for (const f of AIRSPACE[cc] ?? []) {
      const keys = JSON.parse(readFileSync(path.join(SHARED_DATA, f.replace(/\.openair$/, ".keys.json")), "utf8")) as {
        areas: Array<{ kept: boolean; aup?: string[] }>;
      };
      for (const a of keys.areas) if (a.kept) for (const id of a.aup ?? []) keyed.add(id);
    }
    const missedHeld = s.missed.filter((n) => keyed.has(n));
    const lacking = s.missed.filter((n) => !keyed.has(n));
    const held = s.found + missedHeld.length;
    out[cc] = { held, found: s.found, share: Number((s.found / (held || 1)).toFixed(4)), missedHeld, lacking };
  }
  return out;
}
