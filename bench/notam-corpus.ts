// Every real Item D occurrence of ../shared/data/notam with its B, C and Q-line centre: the UK PIB archive
// (gzip JSON lines) and the raw-text collections (JSON lines). Used by `make corpus`, the schedule benchmark
// and the corpus invariants test.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";

export interface Occurrence {
  source: string;
  id: string;
  itemB: string;
  itemC: string;
  itemD: string;
  position?: { lat: number; lon: number };
}

const RAW_FILES = [
  "notamsprint_faa_dins_notams.jsonl",
  "supernotams_ead_icao_notams.jsonl",
  "pynotam_llll_notams.jsonl",
  "xctools_nats_pib_2018_ebbu_lfff.jsonl",
];

/** `5224N00152W` (Q-line, degrees and minutes) to a position. */
export function qCentre(text: string | null | undefined): { lat: number; lon: number } | undefined {
  const m = /(\d{2})(\d{2})([NS])(\d{3})(\d{2})([EW])/.exec(text ?? "");
  if (!m) return undefined;
  const lat = (Number(m[1]) + Number(m[2]) / 60) * (m[3] === "S" ? -1 : 1);
  const lon = (Number(m[4]) + Number(m[5]) / 60) * (m[6] === "W" ? -1 : 1);
  return { lat, lon };
}

/** xctools' PIB print `18/09/12 12:30`, `18/09/19 13:30 EST`, `PERM` to Item B/C text. */
function fromPib(text: string | null | undefined): string {
  if (!text) return "";
  if (text.trim() === "PERM") return "PERM";
  const m = /^(\d{2})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2})( EST)?/.exec(text.trim());
  return m ? `${m[1]}${m[2]}${m[3]}${m[4]}${m[5]}${m[6] ? "EST" : ""}` : text;
}

export function loadOccurrences(dir: string): Occurrence[] {
  const out: Occurrence[] = [];
  const uk = path.join(dir, "uk_pib_archive_itemD_notams.jsonl.gz");
  for (const line of gunzipSync(readFileSync(uk)).toString("utf8").split("\n")) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (!r.itemD) continue;
    const position = qCentre(r.coordinates);
    out.push({
      source: "uk",
      id: r.id,
      itemB: r.itemB,
      itemC: r.itemC,
      itemD: r.itemD,
      ...(position ? { position } : {}),
    });
  }
  for (const f of RAW_FILES) {
    const file = path.join(dir, f);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line) continue;
      const r = JSON.parse(line);
      if (!r.itemD) continue;
      const position = qCentre(r.itemQ?.split("/")[7]);
      const itemB = r.itemB ?? fromPib(r.itemB_pib);
      const itemC = r.itemC ?? fromPib(r.itemC_pib);
      out.push({ source: f.split("_")[0]!, id: r.id, itemB, itemC, itemD: r.itemD, ...(position ? { position } : {}) });
    }
  }
  return out;
}
