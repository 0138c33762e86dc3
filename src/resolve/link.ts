// Linking NOTAMs (and AUP allocations) to airspaces by designator (docs/design.md §4): an index from every designator an
// airspace answers to, looked up with the designators a NOTAM names (src/notam/designator.ts), each judged a subject
// or a mention (src/notam/subject.ts). A named volume links itself, else the source's volume that holds it
// (`LF-R201 B1` → the file's `LF-R201B`; `LF-R203C` → its `LF-R203ABC`); an area named without sector links all its
// sectors; a named volume never links its siblings, nor its buffer zone (`EPTR501Z`), and a buffer zone never its
// area. A volume the source does not have leaves its area's volumes unsure: never linked, but never `No` either
// (resolve/airspace-activity.ts). Geometry (the Q-line circle against the airspace's box) breaks ties between
// candidates, and says which airspaces of a kind the text names without a place are the aerodrome's (`around`); it
// never links what the text does not name. A NOTAM's own area and band must agree with a volume its name finds
// (resolve/link-geometry.ts).

import Flatbush from "flatbush";
import { countryPrefixes } from "../geo/icao-prefixes.js";
import { type Bbox, bboxOfPolygons, pointInPolygon } from "../geo/planar.js";
import { AirspaceType } from "../model/vocab.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import {
  bareAreaDesignator,
  combinedParts,
  designatorMatches,
  designatorsIn,
  familyOf,
  isBuffer,
  normalizeDesignator,
  parentOf,
  SLASH_SECTOR,
} from "../notam/designator.js";
import { isMention, kindOfDesignator } from "../notam/subject.js";
import { disagreement } from "./link-geometry.js";
import { PlaceIndex, type PlaceRef, type Unplaced } from "./link-places.js";

export interface LinkQuery {
  /** Item E (and for AUP the designator column). */
  text: string;
  /** Country of the NOTAM's Item A, when known: national designators (`TSA 2`) take its ICAO prefix. */
  country?: string;
  /** Item A's locations: `EBBE TMA 1B` names the TMA of the NOTAM's own aerodrome. */
  locations?: readonly string[];
  /** Q-line centre and radius, for tie-breaking only. */
  centre?: { lat: number; lon: number };
  radiusNm?: number;
  /** The Q-code's subject (letters 2–3, `RR`, `AC`): an activity placed `IN` an airspace of another kind mentions it. */
  qSubject?: string;
  /** Item A's aerodrome's reference point, where the briefing's aerodrome NOTAMs give it (notam/aerodromes.ts). */
  aerodrome?: { lat: number; lon: number };
}

export interface LinkResult {
  /** Airspaces the NOTAM is about. */
  airspaces: NormalizedAirspace[];
  /** Airspaces of an area it names whose volume it does not certainly name (`LF-R201 B3`, the source has B1, B2). */
  unsure: NormalizedAirspace[];
  /** Airspaces it names only as a reference (`IDENTIQUES A LA LF-R6A`, `WITHIN BIARRITZ CTR`): never linked. */
  mentioned: NormalizedAirspace[];
  /** Designators the NOTAM names as its subject that no airspace answers to (for the unlinked report). */
  unmatched: string[];
}

/** National kinds written without an ICAO prefix (`TSA2`, `TRANA`), as designatorMatches gives them. */
const NATIONAL_FORM = /^(TRA|TSA|CBA|MTA|LFA|HTA)/;

export class AirspaceLinker {
  private readonly index = new Map<string, NormalizedAirspace[]>();
  /** Volumes a combined volume of the source holds (`LFR203C` → the file's `LF-R203ABC`). */
  private readonly contains = new Map<string, NormalizedAirspace[]>();
  /** The source's sectored volumes by area and sector (`LFR201` → B → LF-R201B, A1 → LF-R201A1; `EGD323` → F …). */
  private readonly sectors = new Map<string, Map<string, NormalizedAirspace[]>>();
  /**
   * Areas whose volume named without a sector is one part beside its lettered siblings, not the area that holds them
   * (NL `EHR 4` beside `EHR 4B`–`4F`, PL `TR 33` beside `TR 33B`): it answers a NOTAM naming a part the file lacks
   * only as unsure.
   */
  private readonly partsApart = new Map<string, boolean>();
  private readonly places: PlaceIndex;
  private readonly boxes = new Map<string, Bbox>();
  /** Per airspace kind, an index of its airspaces' boxes (built on first use; null: the source has none). */
  private readonly kinds = new Map<
    string,
    { index: Flatbush; entries: Array<{ key: string; airspace: NormalizedAirspace }> } | null
  >();

  constructor(airspaces: readonly NormalizedAirspace[]) {
    this.places = new PlaceIndex(airspaces);
    const add = (map: Map<string, NormalizedAirspace[]>, d: string, a: NormalizedAirspace) => {
      const list = map.get(d) ?? [];
      if (!list.includes(a)) list.push(a);
      map.set(d, list);
    };
    const home = homeCountries(airspaces);
    for (const a of airspaces) {
      // a gliding corridor through an area (`LF-R71A COULOIR EST (VOL LIBRE)`) is not the area
      if (a.type === AirspaceType.GLIDING_SECTOR) continue;
      const prefix = countryPrefixes(a.country)[0];
      // Italy's file writes a sector after a slash (`R49/A`): R49A, never the whole of R49
      const name = a.name.replace(SLASH_SECTOR, "");
      const names = new Set(designatorMatches(name, { prefix, name: true }).map((m) => m.designator));
      // the leading token of the name as written (`EBTRANA …`), for plans that use such designators
      const lead = normalizeDesignator(name.split(/\s+/)[0] ?? "");
      if (/\d/.test(lead) || lead.length >= 5) names.add(lead);
      // `D307 DONNA NOOK` (2018 GB) is EGD307; the file's own state names its bare designators too (Italy's `D40/A`
      // lies in the French FIR of the FIR data, and is LI D40/A)
      for (const cc of new Set([a.country, home.get(a.origin.source) ?? a.country])) {
        const p = countryPrefixes(cc)[0];
        const bare = p ? bareAreaDesignator(lead, p) : undefined;
        if (bare) names.add(bare);
        // an area named by a word, planned with the prefix before it (Portugal's `NEVER`: the plans' LPNEVER)
        if (p && /^[A-Z]{4,}$/.test(lead) && !lead.startsWith(p)) names.add(`${p}${lead}`);
      }
      // `EETS15B` (the Estonian file's seven letters) is the plans' EETSA15B
      for (const d of [...names]) {
        const ts = /^([A-Z]{2})TS(\d.*)$/.exec(d);
        if (ts) names.add(`${ts[1]}TSA${ts[2]}`);
      }
      for (const d of names) {
        add(this.index, d, a);
        for (const part of combinedParts(d)) add(this.contains, part, a);
      }
    }
    for (const [d, list] of [...this.index, ...this.contains]) {
      const family = familyOf(d);
      // a buffer zone is no sector of its area: `EPTR501` never names `EPTR501Z`
      if (!family || isBuffer(d)) continue;
      const bySector = this.sectors.get(family) ?? new Map<string, NormalizedAirspace[]>();
      this.sectors.set(family, bySector);
      for (const a of list) add(bySector, d.slice(family.length), a);
    }
  }

  /**
   * Whether the source's volumes named `family` lie apart from every lettered sibling (`EHR4` and `EHR4B`); found when
   * first asked (geometry: 40–75 ms for all of FR, NL and PL at once, which most runs never need).
   */
  private isPartApart(family: string): boolean {
    let apart = this.partsApart.get(family);
    if (apart === undefined) {
      apart = this.liesApart(family);
      this.partsApart.set(family, apart);
    }
    return apart;
  }

  private liesApart(family: string): boolean {
    const bare = this.index.get(family);
    const lettered = [...(this.sectors.get(family) ?? [])].filter(([t]) => /^[A-Z]+$/.test(t) && !isBuffer(family + t));
    if (!bare || lettered.length === 0) return false;
    return bare.every((b) =>
      lettered.every(([, list]) =>
        list.every((x) => disagreement({ geometry: x.geometry, lower: x.lowerLimit, upper: x.upperLimit }, b)),
      ),
    );
  }

  /**
   * The airspaces of a designator: itself; else the source's volume that holds it (`LF-R201 B1` → `LF-R201B`, an
   * area the source does not split at all); else the source's volumes it holds (`LF-R45` → its sectors, `LF-R201B` →
   * `B1`, `B2`, `LF-R45S6` → `S6.1`, `S6.2`, `LF-R20 B2` → `B2N`, `B2S`). Never a sibling: `B3` is not `B1`.
   */
  private answering(d: string, parts: "whole" | "apart" = "whole"): NormalizedAirspace[] | undefined {
    const own = this.index.get(d) ?? this.contains.get(d);
    if (own) return own;
    // a buffer zone (`EPTR503Z`) is its own area: never the area it buffers
    if (isBuffer(d)) return undefined;
    const family = familyOf(d);
    const sector = family ? d.slice(family.length) : "";
    for (const holder of [parentOf(d), family]) {
      if (!holder || !this.index.has(holder)) continue;
      // a NOTAM's part the file lacks is not the part beside it (unsureOf); a plan's allocation keeps it (see below)
      if (parts === "apart" && holder === family && this.isPartApart(family)) return undefined;
      return this.index.get(holder);
    }
    const held = [...(this.sectors.get(family ?? d) ?? [])].filter(([t]) => relation(sector, t) === "holds");
    return held.length > 0 ? [...new Set(held.flatMap(([, list]) => list))] : undefined;
  }

  /**
   * The source's volumes of a designator's area whose relation to it the designators do not settle (`LF-R 45 N3`
   * against `LF-R45NS`): the designator may name one of them. Siblings (`B3` and `B1`, `D323A` and `D323F`) are
   * settled: a named volume is not its sibling.
   */
  private unsureOf(d: string): NormalizedAirspace[] {
    const family = familyOf(d);
    if (!family || isBuffer(d)) return [];
    const sector = d.slice(family.length);
    const open = [...(this.sectors.get(family) ?? [])].filter(([t]) => relation(sector, t) === "unsettled");
    const beside = this.isPartApart(family) ? this.index.get(family)! : [];
    return [...new Set([...open.flatMap(([, list]) => list), ...beside])];
  }

  /** The normalised forms a designator as written (`EBR04`, `ED-R 205C`) is indexed under. */
  designatorsOf(designator: string): string[] {
    return [...new Set([...designatorsIn(designator), normalizeDesignator(designator)])];
  }

  /**
   * Airspaces that answer to a designator as written (AUP allocations). A part the file lacks takes the area's volume
   * named without sector even where that volume is a part beside its siblings (`EHR4A` → NL `EHR 4`): an allocation
   * activates it (too much, never a wrong `No`), where a NOTAM would be unsure.
   */
  byDesignator(designator: string): NormalizedAirspace[] {
    const found = new Map<string, NormalizedAirspace>();
    for (const d of this.designatorsOf(designator)) for (const a of this.answering(d) ?? []) found.set(a.id, a);
    return [...found.values()];
  }

  /** Whether an airspace answers to this normalised designator. */
  has(designator: string): boolean {
    return this.answering(designator) !== undefined;
  }

  link(q: LinkQuery): LinkResult {
    const found = new Map<string, NormalizedAirspace>();
    const unsure = new Map<string, NormalizedAirspace>();
    const mentioned = new Map<string, NormalizedAirspace>();
    const unmatched: string[] = [];
    const seen = new Set<string>();
    const prefix = q.country ? countryPrefixes(q.country)[0] : undefined;
    for (const { designator: d, at } of designatorMatches(q.text, { prefix })) {
      if (seen.has(d)) continue;
      seen.add(d);
      // a bare national form (`TSA2`, `TRA NA`) names an area of the NOTAM's own country only
      const national = NATIONAL_FORM.test(d);
      const own = (list: readonly NormalizedAirspace[]) =>
        list.filter((a) => !national || !q.country || a.country === q.country);
      const candidates = own(this.answering(d, "apart") ?? []);
      // `IDENTIQUES A LA LF-R6A`, `EXC EPP28 TIME OF ACTIVITY`: named, but not what the NOTAM is about
      if (isMention(q.text, at, kindOfDesignator(d), q.qSubject)) {
        for (const a of candidates) mentioned.set(a.id, a);
        continue;
      }
      if (candidates.length > 0) {
        for (const a of this.tieBreak(candidates, q)) found.set(a.id, a);
        continue;
      }
      // a bare national form is also tried with the prefix; only report the prefixed miss
      if (!national) unmatched.push(d);
      for (const a of this.near(own(this.unsureOf(d)), q)) unsure.set(a.id, a);
    }
    // `CTR LE TOUQUET`, `TMA 1, 2 SEINE`, `ZRT 'PAMIERS-SAVERDUN'`: named by kind and place, near the NOTAM's Q-line
    // circle (a TMA's parts over the border included), or in its own country when it has no circle: a place name
    // alone is not unique enough to link across Europe
    const { refs, unplaced } = this.places.read(q.text, q.locations);
    for (const ref of [...refs, ...this.around(unplaced, q)]) {
      // one place's parts whole when any of them is near (`TMA CHAMBERY` reaches far beyond Annecy's circle)
      const local = q.centre
        ? this.near(ref.airspaces, q).length > 0
          ? ref.airspaces
          : []
        : ref.airspaces.filter((a) => a.country === q.country);
      const into = isMention(q.text, ref.at, ref.kind, q.qSubject) ? mentioned : found;
      for (const a of local) into.set(a.id, a);
    }
    // `EBBE TMA 1B`: the aerodrome's own code for the place, resolved by what lies in the Q-line circle
    if (q.centre && q.locations?.length) {
      for (const ref of this.places.findByLocation(q.text, q.locations, (a) => this.near([a], q).length > 0)) {
        const into = isMention(q.text, ref.at, ref.kind, q.qSubject) ? mentioned : found;
        for (const a of ref.airspaces) into.set(a.id, a);
      }
    }
    for (const id of found.keys()) {
      unsure.delete(id);
      mentioned.delete(id);
    }
    for (const id of unsure.keys()) mentioned.delete(id);
    return {
      airspaces: [...found.values()],
      unsure: [...unsure.values()],
      mentioned: [...mentioned.values()],
      unmatched,
    };
  }

  /**
   * `TRAINING IFR, VFR AND TEST FLIGHTS PROHIBITED WITHIN TMA.` at LFSB, `Y AND Z WITHIN LSGG TMA PROHIBITED …` at
   * LSGG: a kind named without a place the file knows, in a NOTAM of one aerodrome (one location in Item A), is the
   * aerodrome's own when the airspaces of that kind whose area holds the aerodrome all belong to one place (`TMA BALE`,
   * `TMA GENEVA`); with two places there, none. The aerodrome is where its own NOTAMs put it (`q.aerodrome`), else
   * the Q-line centre of a circle of at most 50 NM. The text names the kind, Item A whose it is; geometry only says
   * which of that kind (`ISLE OF MAN CTA/CTR/ATZ` at EGNS links nothing: Holyhead's CTA does not hold Ronaldsway).
   */
  private around(unplaced: readonly Unplaced[], q: LinkQuery): PlaceRef[] {
    const point = q.aerodrome ?? ((q.radiusNm ?? Number.POSITIVE_INFINITY) <= 50 ? q.centre : undefined);
    if (!point || q.locations?.length !== 1 || unplaced.length === 0) return [];
    const out: PlaceRef[] = [];
    for (const u of unplaced) {
      const keys = new Set(this.placesAt(u.kind, point).map((x) => x.key));
      if (keys.size !== 1) continue;
      const airspaces = this.places.place([...keys][0]!, u.wanted);
      if (airspaces.length > 0) out.push({ airspaces, at: u.at, kind: u.kind });
    }
    return out;
  }

  /** The places of one kind whose airspaces' boxes hold a point, from an index of that kind's boxes built once. */
  private placesAt(
    kind: string,
    at: { lat: number; lon: number },
  ): Array<{ key: string; airspace: NormalizedAirspace }> {
    let k = this.kinds.get(kind);
    if (k === undefined) {
      const entries = this.places.ofKind(kind);
      k = null;
      if (entries.length > 0) {
        const index = new Flatbush(entries.length);
        for (const e of entries) index.add(...this.box(e.airspace));
        index.finish();
        k = { index, entries };
      }
      this.kinds.set(kind, k);
    }
    if (k === null) return [];
    const { entries } = k;
    return k.index
      .search(at.lon, at.lat, at.lon, at.lat)
      .map((i) => entries[i]!)
      .filter((e) => holds(e.airspace, at));
  }

  /** Several airspaces of one designator in different places: keep those near the Q-line circle, if any is. */
  private tieBreak(candidates: NormalizedAirspace[], q: LinkQuery): NormalizedAirspace[] {
    if (candidates.length === 1 || !q.centre) return candidates;
    const near = this.near(candidates, q);
    return near.length > 0 ? near : candidates;
  }

  /** The candidates whose box lies within the Q-line circle plus a generous margin. */
  private near(candidates: readonly NormalizedAirspace[], q: LinkQuery): NormalizedAirspace[] {
    if (!q.centre) return [...candidates];
    const margin = ((q.radiusNm ?? 5) + 5) / 60; // degrees of latitude, generous
    return candidates.filter((a) => {
      const box = this.box(a);
      const lonScale = Math.max(0.2, Math.cos((q.centre!.lat * Math.PI) / 180));
      return (
        q.centre!.lat >= box[1] - margin &&
        q.centre!.lat <= box[3] + margin &&
        q.centre!.lon >= box[0] - margin / lonScale &&
        q.centre!.lon <= box[2] + margin / lonScale
      );
    });
  }

  private box(a: NormalizedAirspace): Bbox {
    let b = this.boxes.get(a.id);
    if (!b) {
      const g = a.geometry;
      b = bboxOfPolygons(g.type === "Polygon" ? [g.coordinates] : g.coordinates);
      this.boxes.set(a.id, b);
    }
    return b;
  }
}

/**
 * How a named sector stands to a source's sector of the same area, read character by character: `holds` when the
 * source's continues the named one at a new level (`B` → `B1`, `B2` → `B2N`, `S6` → `S6.1`; the whole area, `""`,
 * holds every sector), `sibling` when they part at a letter against a letter or a digit against a digit (`B3`/`B1`,
 * `A`/`F`), `unsettled` when they part at a letter against a digit (`N3`/`NS`), `same` or `held` otherwise.
 */
export function relation(named: string, source: string): "same" | "holds" | "held" | "sibling" | "unsettled" {
  if (named === source) return "same";
  const kind = (c: string | undefined) =>
    c === undefined ? "end" : /\d/.test(c) ? "digit" : c === "." ? "dot" : "letter";
  for (let i = 0; ; i++) {
    const a = named[i];
    const b = source[i];
    if (a === b) continue;
    const [ka, kb] = [kind(a), kind(b)];
    if (ka === "end") return i === 0 || kb !== kind(named[i - 1]) || kb === "dot" ? "holds" : "sibling";
    if (kb === "end") return ka !== kind(source[i - 1]) || ka === "dot" ? "held" : "sibling";
    return ka === kb ? "sibling" : "unsettled";
  }
}

/** Whether an airspace's area holds a point. */
function holds(a: NormalizedAirspace, at: { lat: number; lon: number }): boolean {
  const g = a.geometry;
  return (g.type === "Polygon" ? [g.coordinates] : g.coordinates).some((p) => pointInPolygon(at.lon, at.lat, p));
}

/** Share of a source's airspaces that must lie in one country for it to be the source's own (its bare names' prefix). */
const HOME_SHARE = 0.8;

/** Each source's own country: the one at least HOME_SHARE of its airspaces lie in (none for a file of many states). */
function homeCountries(airspaces: readonly NormalizedAirspace[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const a of airspaces) {
    const bySource = counts.get(a.origin.source) ?? new Map<string, number>();
    counts.set(a.origin.source, bySource);
    bySource.set(a.country, (bySource.get(a.country) ?? 0) + 1);
  }
  const home = new Map<string, string>();
  for (const [source, byCountry] of counts) {
    const total = [...byCountry.values()].reduce((x, y) => x + y, 0);
    const [cc, n] = [...byCountry].sort((x, y) => y[1] - x[1])[0]!;
    if (n >= HOME_SHARE * total) home.set(source, cc);
  }
  return home;
}
