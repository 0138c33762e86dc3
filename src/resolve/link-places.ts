// Airspaces named by place and kind rather than by designator (DESIGN §4 linking, generalised):
//   NOTAM `CTR LE TOUQUET HOURS …`, `DEAUVILLE TMA HOURS …`, `TMA 1, 2, 3, 5, 6 SEINE …`, `BEAUVECHAIN TMA ONE A`,
//   `LILLE CTR AND TMA 1 TO 13 LILLE`   ↔   airspaces `CTR LeTouquet 118.45`, `Deauville1 120.35` (a TMA),
//   `Seine4 118.05`, `BEAUVECHAIN TMA 1A`, `TMA Lille10 134.825`, YAIXM `BARKSTON HEATH` (an ATZ).
// An index from (kind, place) to the airspaces of that kind whose name holds that place, each with its part
// number; a NOTAM reference links only where the index holds exactly that kind and place.

import { AirspaceType } from "../model/vocab.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";

const KIND_OF_TYPE: ReadonlyMap<number, string> = new Map([
  [AirspaceType.CTR, "CTR"],
  [AirspaceType.TMA, "TMA"],
  [AirspaceType.CTA, "CTA"],
  [AirspaceType.ATZ, "ATZ"],
  [AirspaceType.MATZ, "MATZ"],
  [AirspaceType.TMZ, "TMZ"],
  [AirspaceType.RMZ, "RMZ"],
]);
const KIND_WORD = /^(CTR|TMA|CTA|ATZ|MATZ|TMZ|RMZ)$/;
/** Words of names and texts that are never (part of) a place. */
const NOT_PLACE = new Set(
  (
    "THE AND OF IN AT FOR DUE TO BY WITH WI WITHIN ALL ACT ACTIVE ACTIVATED HOURS HOUR HR HRS OPS OPR SERVICE CLASS " +
    "AIRSPACE AREA AREAS FROM PARTIE FRANCAISE DECLASSABLE SECTOR SEKTOR SECTEUR CLASSE HORS HOR ATS PROHIBITED " +
    "RECLASSIFIED DOWNGRADED OUTSIDE THESE THIS TEMPO TEMPORARY NEW NOT INFO APP TWR DEP ARR RADAR CONTROL " +
    "VFR IFR TRAINING FLIGHTS FLIGHT ACFT NON PARTICIPATING UNLESS EMERG WHEN OTHER LOWER UPPER PART PARTS RAF"
  ).split(" "),
);
const NUMBER_WORDS: Record<string, string> = {
  ONE: "1",
  TWO: "2",
  THREE: "3",
  FOUR: "4",
  FIVE: "5",
  SIX: "6",
  SEVEN: "7",
  EIGHT: "8",
  NINE: "9",
  TEN: "10",
};

/** `Deauville1 120.35` → DEAUVILLE 1; `TMA Lille1.1 …` → LILLE 1.1; frequencies and parentheses gone. */
function tokens(text: string): string[] {
  return text
    .toUpperCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/\b\d{3}\.\d{1,3}\b/g, " ")
    .replace(/[_/]/g, " ")
    .replace(/([A-Z])(\d)/g, "$1 $2")
    .replace(/[^A-Z0-9. -]/g, " ")
    .split(/[\s-]+/)
    .map((t) => t.replace(/\.$/, ""))
    .filter((t) => t !== "");
}

/** Most NOTAMs name no kind at all: the tokenising is skipped for them (`CTR1` counts, hence no \b after the kind). */
const namesAKind = (text: string) => /(?:^|[^A-Z])(CTR|TMA|CTA|ATZ|MATZ|TMZ|RMZ)/i.test(text);

const isPart = (t: string) => /^\d{1,2}(\.\d)?[A-Z]?$/.test(t) || t in NUMBER_WORDS;
const partOf = (t: string, letter?: string) => `${NUMBER_WORDS[t] ?? t}${letter ?? ""}`;
const isPlaceWord = (t: string) => /^[A-Z]{2,}$/.test(t) && !NOT_PLACE.has(t) && !KIND_WORD.test(t);

interface Entry {
  airspace: NormalizedAirspace;
  part: string;
}

export class PlaceIndex {
  private readonly index = new Map<string, Entry[]>();

  constructor(airspaces: readonly NormalizedAirspace[]) {
    for (const a of airspaces) {
      const all = tokens(a.name);
      const kinds = kindsOf(a, all);
      if (kinds.length === 0) continue;
      const ts = all.filter((t) => !KIND_WORD.test(t));
      const partAt = ts.findIndex(isPart);
      // the place is the name's words before its part number (`TMA LILLE9 Partie française`, `Paris7.1_CLASSE_E_…`)
      const place = (partAt < 0 ? ts : ts.slice(0, partAt)).filter(isPlaceWord);
      const part = partAt < 0 ? "" : partOf(ts[partAt]!, /^[A-Z]$/.test(ts[partAt + 1] ?? "") ? ts[partAt + 1] : "");
      if (place.length === 0) continue;
      for (const kind of kinds) {
        const key = `${kind} ${place.join("")}`;
        this.index.set(key, [...(this.index.get(key) ?? []), { airspace: a, part }]);
      }
    }
  }

  /**
   * `EBBE TMA 3 AND TMA 4`: a kind with parts after the NOTAM's own aerodrome (one of Item A's locations), for which
   * the text gives no place name. The airspaces of that kind and those parts that `isNear` accepts (the Q-line
   * circle) answer, and only when they all belong to one place: the code then stands for that place.
   */
  findByLocation(
    text: string,
    locations: readonly string[],
    isNear: (a: NormalizedAirspace) => boolean,
  ): Array<{ airspaces: NormalizedAirspace[]; at: number }> {
    if (!namesAKind(text)) return [];
    const ts = tokens(text);
    const out: Array<{ airspaces: NormalizedAirspace[]; at: number }> = [];
    for (let i = 1; i < ts.length; i++) {
      const kind = ts[i]!;
      if (!KIND_WORD.test(kind) || !locations.includes(ts[i - 1]!)) continue;
      const wanted = [parts(ts, i + 1)];
      // `EBBE TMA 3 AND TMA 4`: the same kind again after AND names more parts of the same place
      for (let j = wanted[0]!.next; ts[j] === "AND" && ts[j + 1] === kind; j = wanted[wanted.length - 1]!.next) {
        wanted.push(parts(ts, j + 2));
      }
      const list = wanted.flatMap((w) => w.parts);
      if (list.length === 0) continue;
      const near = [...this.index]
        .filter(([key]) => key.startsWith(`${kind} `))
        .flatMap(([key, entries]) => entries.filter((e) => isNear(e.airspace)).map((e) => ({ key, e })));
      const hits = near.filter(({ e }) => list.some((w) => e.part === w || e.part.replace(/[A-Z]$|\.\d$/, "") === w));
      if (hits.length > 0 && new Set(hits.map((h) => h.key)).size === 1) {
        out.push({ airspaces: hits.map((h) => h.e.airspace), at: positionOf(text, kind, 0) });
      }
    }
    return out;
  }

  /** Airspaces a text names by kind and place, with where the reference starts (for the words before it). */
  find(text: string): Array<{ airspaces: NormalizedAirspace[]; at: number }> {
    if (!namesAKind(text)) return [];
    const ts = tokens(text);
    const out: Array<{ airspaces: NormalizedAirspace[]; at: number }> = [];
    // `BEAUVAIS CTR AND TMA`, `ROUEN CTR1 TMA1 TMA2`: a kind right after another reference shares its place
    let carried: { places: string[]; end: number } | undefined;
    for (let i = 0; i < ts.length; i++) {
      if (!KIND_WORD.test(ts[i]!)) continue;
      const kind = ts[i]!;
      const after = parts(ts, i + 1);
      // `DEAUVILLE TMA 2`, `BEAUVECHAIN TMA ONE A`: the place before, parts after
      const before = placeEndingAt(ts, i - 1);
      // `CTR LE TOUQUET`, `TMA 4 SEINE`: the place after the kind, or after its parts
      const following = placeStartingAt(ts, after.next);
      const joined = carried && ts.slice(carried.end, i).every((t) => t === "AND" || isPart(t)) ? carried.places : [];
      let found = false;
      for (const place of [before, following, joined]) {
        const hit = place.length > 0 ? this.lookup(kind, place, after.parts) : undefined;
        if (!hit || hit.length === 0) continue;
        out.push({ airspaces: hit, at: positionOf(text, kind, ts.slice(0, i).filter((t) => t === kind).length) });
        carried = { places: place, end: after.next + (place === following ? 1 : 0) };
        found = true;
        break;
      }
      if (!found) carried = undefined;
    }
    return out;
  }

  private lookup(kind: string, places: string[], wanted: string[]): NormalizedAirspace[] | undefined {
    for (const place of places) {
      const entries = this.index.get(`${kind} ${place}`);
      if (!entries) continue;
      if (wanted.length === 0) return entries.map((e) => e.airspace);
      // one airspace without parts answers to any part (`ROUEN CTR 1` for `CTR Rouen`)
      if (entries.length === 1 && entries[0]!.part === "") return [entries[0]!.airspace];
      // `TMA 1` holds 1.1 and 1A
      const holds = (e: Entry) => wanted.some((w) => e.part === w || e.part.replace(/[A-Z]$|\.\d$/, "") === w);
      return entries.filter(holds).map((e) => e.airspace);
    }
    return undefined;
  }
}

/** Parts after a kind: `1A`, `ONE A`, `1, 2, 3 AND 5`, `1 TO 13`. */
function parts(ts: readonly string[], from: number): { parts: string[]; next: number } {
  const out: string[] = [];
  let i = from;
  while (i < ts.length) {
    const t = ts[i]!;
    if (isPart(t)) {
      const letter =
        /^[A-Z]$/.test(ts[i + 1] ?? "") && ts[i + 1] !== "A"
          ? ts[i + 1]
          : t in NUMBER_WORDS && ts[i + 1] === "A"
            ? "A"
            : undefined;
      out.push(partOf(t, letter));
      i += letter ? 2 : 1;
    } else if (t === "TO" && out.length > 0 && isPart(ts[i + 1] ?? "")) {
      const [a, b] = [Number(out[out.length - 1]), Number(partOf(ts[i + 1]!))];
      for (let n = a + 1; Number.isInteger(a) && n <= b && n - a <= 30; n++) out.push(String(n));
      i += 2;
    } else if ((t === "AND" || t === "&") && isPart(ts[i + 1] ?? "")) i++;
    else break;
  }
  return { parts: out, next: i };
}

/**
 * Candidate places in the run of up to four place words ending at `end`: its endings, longest first (`KLEINEBROGEL`
 * before `BROGEL`), then its beginnings (`TOURS` of `TOURS VAL DE LOIRE CTR`).
 */
function placeEndingAt(ts: readonly string[], end: number): string[] {
  let start = end + 1;
  while (start > 0 && end - start < 3 && isPlaceWord(ts[start - 1]!)) start--;
  const run = ts.slice(start, end + 1);
  const endings = run.map((_, i) => run.slice(i).join(""));
  const beginnings = run
    .slice(0, -1)
    .map((_, i) => run.slice(0, i + 1).join(""))
    .reverse();
  return [...endings, ...beginnings];
}

function placeStartingAt(ts: readonly string[], start: number): string[] {
  const out: string[] = [];
  for (let n = 1; n <= 3 && start + n - 1 < ts.length && isPlaceWord(ts[start + n - 1]!); n++) {
    out.push(ts.slice(start, start + n).join(""));
  }
  return out.reverse();
}

/** Where the n-th (0-based) whole word `word` stands in the text. */
function positionOf(text: string, word: string, n: number): number {
  const all = [...text.toUpperCase().matchAll(new RegExp(`(?<![A-Z])${word}`, "g"))];
  return all[n]?.index ?? all[0]?.index ?? 0;
}

/** The kinds an airspace answers to: the kind word of its name, else its type's; classified areas without
 * either (France 2018: `Deauville1 120.35`, class D) are the parts of a TMA or CTA. */
function kindsOf(a: NormalizedAirspace, words: readonly string[]): string[] {
  const named = words.find((t) => KIND_WORD.test(t));
  if (named) return [named];
  const byType = KIND_OF_TYPE.get(a.type);
  if (byType) return [byType];
  return a.type === AirspaceType.OTHER && a.icaoClass <= 6 ? ["TMA", "CTA"] : [];
}
