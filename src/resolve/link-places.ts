// Airspaces named by place and kind rather than by designator (docs/design.md §4 linking, generalised):
//   NOTAM `CTR LE TOUQUET HOURS …`, `DEAUVILLE TMA HOURS …`, `TMA 1, 2, 3, 5, 6 SEINE …`, `BEAUVECHAIN TMA ONE A`,
//   `LILLE CTR AND TMA 1 TO 13 LILLE`   ↔   airspaces `CTR LeTouquet 118.45`, `Deauville1 120.35` (a TMA),
//   `Seine4 118.05`, `BEAUVECHAIN TMA 1A`, `TMA Lille10 134.825`, YAIXM `BARKSTON HEATH` (an ATZ).
// An index from (kind, place) to the airspaces of that kind whose name holds that place, each with its part
// number; a NOTAM reference links only where the index holds exactly that kind and place.

import { countryOfIcao } from "../geo/icao-prefixes.js";
import { AirspaceType } from "../model/vocab.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";

const KIND_OF_TYPE: ReadonlyMap<number, string> = new Map([
  [AirspaceType.CTR, "CTR"],
  [AirspaceType.MCTR, "MCTR"],
  [AirspaceType.MTA, "MTA"],
  [AirspaceType.TMA, "TMA"],
  [AirspaceType.CTA, "CTA"],
  [AirspaceType.ATZ, "ATZ"],
  [AirspaceType.MATZ, "MATZ"],
  [AirspaceType.TMZ, "TMZ"],
  [AirspaceType.RMZ, "RMZ"],
]);
const KIND_WORD = /^(CTR|TMA|CTA|ATZ|MATZ|TMZ|RMZ|MCTR|MTMA|MTA|ZRT|ZIT|ZDT)$/;
/** Words of names and texts that are never (part of) a place. */
const NOT_PLACE = new Set(
  (
    "THE AND OF IN AT FOR DUE TO BY WITH WI WITHIN ALL ACT ACTIVE ACTIVATED HOURS HOUR HR HRS OPS OPR SERVICE CLASS " +
    "AIRSPACE AREA AREAS FROM PARTIE FRANCAISE DECLASSABLE SECTOR SEKTOR SECTEUR CLASSE HORS HOR ATS PROHIBITED " +
    "RECLASSIFIED DOWNGRADED OUTSIDE THESE THIS TEMPO TEMPORARY NEW NOT INFO APP TWR DEP ARR RADAR CONTROL " +
    "VFR IFR TRAINING FLIGHTS FLIGHT ACFT NON PARTICIPATING UNLESS EMERG WHEN OTHER LOWER UPPER PART PARTS RAF " +
    // hours written into names (`CTR LOCARNO HX`, `CTR ALPNACH HX`, `… (MON-FRI)`)
    "HX H24 HJ HN NOTAM PPR MON TUE WED THU FRI SAT SUN MO TU WE TH FR SA SU"
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
function tokens(text: string, name = false): string[] {
  // a name's parentheses hold frequencies and remarks; a NOTAM's hold what it is about: `AFIS (RMZ MELUN)`
  // `MIL TMA`, `MIL CTR` are the military kinds `MTMA`, `MCTR` of the Polish and Czech sources
  const upper = text.toUpperCase().replace(/\bMIL\s+(TMA|CTR)\b/g, "M$1");
  return (name ? upper.replace(/\([^)]*\)/g, " ") : upper)
    .replace(/\b\d{3}\.\d{1,3}\b/g, " ")
    .replace(/[_/]/g, " ")
    .replace(/([A-Z])(\d)/g, "$1 $2")
    .replace(/[^A-Z0-9. -]/g, " ")
    .split(/[\s-]+/)
    .map((t) => t.replace(/\.$/, ""))
    .filter((t) => t !== "");
}

/** Most NOTAMs name no kind at all: the tokenising is skipped for them (`CTR1` counts, hence no \b after the kind). */
const namesAKind = (text: string) => /(?:^|[^A-Z])(M?CTR|M?TMA|CTA|ATZ|MATZ|TMZ|RMZ|MTA|ZRT|ZIT|ZDT)/i.test(text);
/** What may stand between kinds that share one place: `CTR, TMA BEAUVAIS`, `CTR/TMA INNSBRUCK`, `CTR AND TMA X`. */
const KIND_JOIN = new Set(["AND", "ET", "UND", "TWR", "MIL"]);
/** `CTR LOWI (INNSBRUCK TOWER:120.100)`: an aerodrome's code beside its place, so `CTR INNSBRUCK` finds it. */
const CODE_AND_PLACE =
  /\b([A-Z]{4})\s*\(([A-Z][A-Z' -]+?)\s+(?:TOWER|TWR|APPROACH|APP|RADAR|INFO|INFORMATION|CONTROL|GROUND)\b/;

const SECTOR_WORD = /^(?:SECT|SECTS|SECTOR|SECTORS|SECTEUR|SECTEURS|SEKTOR|PART|PARTS|PARTIE|PARTIES)$/;
/** Words after a kind that say what happens to it, not where it is (`CTR DESACTIVEE`, `CTR MAY BE CLSD`). */
const STATUS = new Set(
  (
    "ACTIVE ACTIVES ACTIVEE ACTIVEES ACTIVATED DEACTIVATED DESACTIVE DESACTIVEE DESACTIVEES CLSD CLOSED FERME FERMEE " +
    "OPEN OUVERT OUVERTE HORAIRES HEURES MAY IS ARE EST SONT AKTIV GESCHLOSSEN ADDN HR HRS HOURS SER SERVICE SERVICES " +
    "NOT NON AVBL AVAILABLE DISPONIBLE INDISPONIBLE DODATKOWE GODZINY PRACY PROHIBITED INTERDIT INTERDITE RESTRICTED"
  ).split(" "),
);
/** A four-letter location indicator of a known ICAO prefix (`EPSC`, `LOWI`). */
const isLocationCode = (t: string) => /^[A-Z]{4}$/.test(t) && countryOfIcao(t.slice(0, 2)) !== undefined;
/** Roman part numbers (`MTMA II PARDUBICE`); `I` and `V` alone are letters more often than numbers. */
const ROMAN: Record<string, string> = { II: "2", III: "3", IV: "4", VI: "6", VII: "7", VIII: "8", IX: "9" };
const isPart = (t: string) => /^\d{1,2}(\.\d)?[A-Z]?$/.test(t) || t in NUMBER_WORDS || t in ROMAN;
const partOf = (t: string, letter?: string) => `${NUMBER_WORDS[t] ?? ROMAN[t] ?? t}${letter ?? ""}`;
const isPlaceWord = (t: string) => /^[A-Z]{2,}$/.test(t) && !NOT_PLACE.has(t) && !KIND_WORD.test(t);

/** Airspaces a text names by kind and place, where the reference starts, and the kind (for the words around it). */
export interface PlaceRef {
  airspaces: NormalizedAirspace[];
  at: number;
  kind: string;
}

/** A kind the text names without a place the index knows, where, and the parts it names. */
export interface Unplaced {
  kind: string;
  at: number;
  wanted: string[];
}

interface Entry {
  airspace: NormalizedAirspace;
  part: string;
}

export class PlaceIndex {
  private readonly index = new Map<string, Entry[]>();

  constructor(airspaces: readonly NormalizedAirspace[]) {
    const places = new Map<string, string>();
    for (const a of airspaces) {
      const named = CODE_AND_PLACE.exec(a.name.toUpperCase());
      if (named) places.set(named[1]!, named[2]!.replace(/[^A-Z]/g, ""));
    }
    for (const a of airspaces) {
      const all = tokens(a.name, true);
      const kinds = kindsOf(a, all);
      if (kinds.length === 0) continue;
      const ts = all.filter((t) => !KIND_WORD.test(t));
      const partAt = ts.findIndex(isPart);
      // the place is the name's words before its part number (`TMA LILLE9 Partie française`, `Paris7.1_CLASSE_E_…`),
      // or after it when none comes before (`MTMA II PARDUBICE 128.365`)
      const head = (partAt < 0 ? ts : ts.slice(0, partAt)).filter(isPlaceWord);
      const place = head.length > 0 || partAt < 0 ? head : ts.slice(partAt + 1).filter(isPlaceWord);
      const part = partAt < 0 ? "" : partOf(ts[partAt]!, /^[A-Z]$/.test(ts[partAt + 1] ?? "") ? ts[partAt + 1] : "");
      if (place.length === 0) continue;
      // `TMA LOWI` is also Innsbruck's when another name of the file says `LOWI (INNSBRUCK TOWER…)`; `TMA EPSC
      // HERINGSDORF` is also a part of `TMA EPSC`
      const alias = place.length === 1 ? places.get(place[0]!) : undefined;
      const code = place.length > 1 && isLocationCode(place[0]!) ? place[0] : undefined;
      const keys = [place.join(""), ...(alias ? [alias] : []), ...(code ? [code] : [])];
      for (const kind of kinds) {
        for (const p of keys) {
          const key = `${kind} ${p}`;
          this.index.set(key, [...(this.index.get(key) ?? []), { airspace: a, part }]);
        }
      }
    }
  }

  /**
   * `EBBE TMA 3 AND TMA 4`: a kind with parts after the NOTAM's own aerodrome (one of Item A's locations), for which
   * the text gives no place name. The airspaces of that kind and those parts that `isNear` accepts (the Q-line
   * circle) answer, and only when they all belong to one place: the code then stands for that place.
   */
  findByLocation(text: string, locations: readonly string[], isNear: (a: NormalizedAirspace) => boolean): PlaceRef[] {
    if (!namesAKind(text)) return [];
    const ts = tokens(text);
    const out: PlaceRef[] = [];
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
      const hits = this.ofKind(kind).filter(
        (e) => isNear(e.airspace) && list.some((w) => e.part === w || e.part.replace(/[A-Z]$|\.\d$/, "") === w),
      );
      if (hits.length > 0 && new Set(hits.map((h) => h.key)).size === 1) {
        out.push({ airspaces: hits.map((h) => h.airspace), at: positionOf(text, kind, 0), kind });
      }
    }
    return out;
  }

  /**
   * Airspaces a text names by kind and place, with where the reference starts (for the words around it), and the
   * kinds it names without a place the index knows (`TRAINING PROHIBITED WITHIN TMA`). `locations` (Item A) stand for
   * the place of a kind named without one when the source names its airspaces by the aerodrome's code (Poland's
   * `CTR EPSC`, `TMA EPSC A` for `TWR/CTR/TMA HR OF SER` at EPSC).
   */
  read(text: string, locations: readonly string[] = []): { refs: PlaceRef[]; unplaced: Unplaced[] } {
    if (!namesAKind(text)) return { refs: [], unplaced: [] };
    const ts = tokens(text);
    const out: PlaceRef[] = [];
    const unplaced: Unplaced[] = [];
    // `BEAUVAIS CTR AND TMA`, `ROUEN CTR1 TMA1 TMA2`: a kind right after another reference shares its place
    let carried: { places: string[]; end: number } | undefined;
    for (let i = 0; i < ts.length; i++) {
      if (!KIND_WORD.test(ts[i]!)) continue;
      const kind = ts[i]!;
      const after = parts(ts, i + 1);
      const at = positionOf(text, kind, ts.slice(0, i).filter((t) => t === kind).length);
      const candidates: Array<{ places: string[]; wanted: string[]; next: number }> = [];
      // `DEAUVILLE TMA 2`, `BEAUVECHAIN TMA ONE A`: the place before, parts after
      candidates.push({ places: placeEndingAt(ts, i - 1), wanted: after.parts, next: after.next });
      // `CTR LE TOUQUET`, `TMA 4 SEINE`, `TMA BIARRITZ 3, 7, 8`: the place after the kind or its parts, then parts
      const following = placesStartingAt(ts, after.next);
      for (const f of following) {
        const wanted = after.parts.length > 0 ? after.parts : parts(ts, f.next).parts;
        candidates.push({ places: [f.place], wanted, next: f.next });
      }
      if (carried && ts.slice(carried.end, i).every((t) => t === "AND" || isPart(t))) {
        candidates.push({ places: carried.places, wanted: after.parts, next: after.next });
      }
      // `CTR, TMA BEAUVAIS`, `CTR/TMA INNSBRUCK`, `MCTR AND MTMA PARDUBICE`: kinds in a row share the place after them
      if (after.parts.length === 0 && following.length === 0) {
        candidates.push({ places: placeAfterKinds(ts, i + 1), wanted: [], next: after.next });
      }
      // `TWR/CTR ADDN HR OF SERVICES` at EPMO: the aerodrome's own code, where the source names airspaces by it
      candidates.push({ places: [...locations], wanted: after.parts, next: after.next });
      let found = false;
      for (const c of candidates) {
        const hit = c.places.length > 0 ? this.lookup(kind, c.places, c.wanted) : undefined;
        if (!hit || hit.length === 0) continue;
        out.push({ airspaces: hit, at, kind });
        carried = { places: c.places, end: c.next };
        found = true;
        break;
      }
      if (!found) {
        carried = undefined;
        // no place after it at all (`… WITHIN TMA.`, `ET CTR DESACTIVEE`), or only a location code (`LSGG TMA`)
        const next = ts[after.next] ?? "";
        const named = STATUS.has(next) ? [] : following.map((f) => f.place);
        if (named.every(isLocationCode) && placeAfterKinds(ts, i + 1).length === 0) {
          unplaced.push({ kind, at, wanted: after.parts });
        }
      }
    }
    return { refs: out, unplaced };
  }

  /** The airspaces of a kind, each with its part and the key of its place (`TMA BALE`). */
  ofKind(kind: string): Array<Entry & { key: string }> {
    const out: Array<Entry & { key: string }> = [];
    for (const [key, entries] of this.index) {
      if (!key.startsWith(`${kind} `)) continue;
      for (const e of entries) out.push({ ...e, key });
    }
    return out;
  }

  /** The airspaces of one place key, those parts only when `wanted` names some. */
  place(key: string, wanted: readonly string[]): NormalizedAirspace[] {
    const [kind = "", place = ""] = key.split(" ");
    return this.lookup(kind, [place], [...wanted]) ?? [];
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
    } else if ((t === "AND" || t === "&" || t === "ET" || t === "UND") && isPart(ts[i + 1] ?? "")) i++;
    // `TMA SECT 1, 2 AND 3`, `SECTEUR 4`: the word before the parts
    else if (out.length === 0 && SECTOR_WORD.test(t) && isPart(ts[i + 1] ?? "")) i++;
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

/** The place after a run of kinds and joining words that starts at `from` (`TMA BEAUVAIS` after `CTR`). */
function placeAfterKinds(ts: readonly string[], from: number): string[] {
  let j = from;
  while (j < ts.length && (KIND_WORD.test(ts[j]!) || KIND_JOIN.has(ts[j]!))) j++;
  return j > from && KIND_WORD.test(ts[j - 1]!) ? placesStartingAt(ts, j).map((p) => p.place) : [];
}

/**
 * The places in the run of up to three place words starting at `start`, with where each ends: the run's beginnings,
 * longest first, then its endings (`CTR NIMES-GARONS` is the file's `CTR GARONS`).
 */
function placesStartingAt(ts: readonly string[], start: number): Array<{ place: string; next: number }> {
  let run = 0;
  while (run < 3 && start + run < ts.length && isPlaceWord(ts[start + run]!)) run++;
  const out: Array<{ place: string; next: number }> = [];
  for (let n = run; n >= 1; n--) out.push({ place: ts.slice(start, start + n).join(""), next: start + n });
  for (let k = 1; k < run; k++) out.push({ place: ts.slice(start + k, start + run).join(""), next: start + run });
  return out;
}

/** Where the n-th (0-based) whole word `word` stands in the text. */
function positionOf(text: string, word: string, n: number): number {
  const all = [...text.toUpperCase().matchAll(new RegExp(`(?<![A-Z])${word}`, "g"))];
  return all[n]?.index ?? all[0]?.index ?? 0;
}

/** The kinds an airspace answers to: the kind word of its name, else its type's; classified areas without
 * either (France 2018: `Deauville1 120.35`, class D) are the parts of a TMA or CTA. */
function kindsOf(a: NormalizedAirspace, words: readonly string[]): string[] {
  // a gliding sector named after the TMA it lies in (`TMA SAINT-YAN 1.1 ROANNE (VOL LIBRE)`) is not that TMA
  if (a.type === AirspaceType.GLIDING_SECTOR) return [];
  const named = words.find((t) => KIND_WORD.test(t));
  if (named) return [named];
  const byType = KIND_OF_TYPE.get(a.type);
  if (byType) return [byType];
  return a.type === AirspaceType.OTHER && a.icaoClass <= 6 ? ["TMA"] : [];
}
