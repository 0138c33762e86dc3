// Linking NOTAMs (and later AUP allocations) to airspaces by designator (DESIGN §4): an index from every
// designator an airspace answers to, looked up with the designators a NOTAM names. Geometry (the Q-line
// circle against the airspace's box) only breaks ties between candidates; it never links on its own.

import { countryPrefixes } from "../geo/icao-prefixes.js";
import { type Bbox, bboxOfPolygons } from "../geo/planar.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import {
  bareAreaDesignator,
  designatorMatches,
  designatorsIn,
  familyOf,
  normalizeDesignator,
} from "../notam/designator.js";
import { PlaceIndex } from "./link-places.js";

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
}

export interface LinkResult {
  /** Airspaces the NOTAM names. */
  airspaces: NormalizedAirspace[];
  /** Designators the NOTAM names that no airspace answers to (for the unlinked report). */
  unmatched: string[];
}

/**
 * Words that, shortly before a designator and in the same clause, say the NOTAM is not about that area:
 * `OUTSIDE LF-R45N3 HOURS`, `EXCEPT FOR AREA LF-R6A`, `BELOW THE PARIS TMA`. A comma or full stop ends the
 * clause: in `OUTSIDE OPN HR OF EBFS AD, EB-R06B IS ACTIVE` the aerodrome is context and EB-R06B the subject.
 */
const INCIDENTAL =
  /\b(OUTSIDE|EXCEPT|EXC|EXCL|EXCLUDING|NOT|ADJ|ADJACENT|BELOW|ABOVE|NEAR|VICINITY|SEE|REF|AVOID|CLEAR OF|CTC|CONTACT)\b[^,.;:]{0,24}$/;
/** National kinds written without an ICAO prefix (`TSA2`, `TRANA`), as designatorMatches gives them. */
const NATIONAL_FORM = /^(TRA|TSA|CBA|MTA|LFA|HTA)/;
const incidental = (text: string, at: number) => INCIDENTAL.test(text.toUpperCase().slice(Math.max(0, at - 40), at));

export class AirspaceLinker {
  private readonly index = new Map<string, NormalizedAirspace[]>();
  /** Sectored designators by their area (`EGD323` → EGD323A, EGD323F, …): a NOTAM naming the area names them all. */
  private readonly families = new Map<string, NormalizedAirspace[]>();
  private readonly places: PlaceIndex;
  private readonly boxes = new Map<string, Bbox>();

  constructor(airspaces: readonly NormalizedAirspace[]) {
    this.places = new PlaceIndex(airspaces);
    for (const a of airspaces) {
      const prefix = countryPrefixes(a.country)[0];
      const names = new Set(designatorsIn(a.name, prefix));
      // the leading token of the name as written (`EBTRANA …`), for plans that use such designators
      const lead = normalizeDesignator(a.name.split(/\s+/)[0] ?? "");
      if (/\d/.test(lead) || lead.length >= 5) names.add(lead);
      // `D307 DONNA NOOK` (2018 GB) is EGD307
      const bare = prefix ? bareAreaDesignator(lead, prefix) : undefined;
      if (bare) names.add(bare);
      for (const d of names) {
        const list = this.index.get(d) ?? [];
        list.push(a);
        this.index.set(d, list);
      }
    }
    for (const [d, list] of this.index) {
      const family = familyOf(d);
      if (family && !this.index.has(family)) this.families.set(family, [...(this.families.get(family) ?? []), ...list]);
    }
  }

  /** The airspaces of a designator: itself, else (for an area written without sector) all its sectors. */
  private answering(d: string): NormalizedAirspace[] | undefined {
    return this.index.get(d) ?? this.families.get(d);
  }

  /** The normalised forms a designator as written (`EBR04`, `ED-R 205C`) is indexed under. */
  designatorsOf(designator: string): string[] {
    return [...new Set([...designatorsIn(designator), normalizeDesignator(designator)])];
  }

  /** Airspaces that answer to a designator as written (AUP allocations). */
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
    const unmatched: string[] = [];
    const seen = new Set<string>();
    for (const { designator: d, at } of designatorMatches(
      q.text,
      q.country ? countryPrefixes(q.country)[0] : undefined,
    )) {
      // `OUTSIDE LF-R45N3 HOURS`, `EXCEPT FOR AREA LF-R6A`: named, but not what the NOTAM is about
      if (incidental(q.text, at)) continue;
      if (seen.has(d)) continue;
      seen.add(d);
      // a bare national form (`TSA2`, `TRA NA`) names an area of the NOTAM's own country only
      const national = NATIONAL_FORM.test(d);
      const candidates = this.answering(d)?.filter((a) => !national || !q.country || a.country === q.country);
      if (!candidates || candidates.length === 0) {
        // a bare national form is also tried with the prefix; only report the prefixed miss
        if (!national) unmatched.push(d);
        continue;
      }
      for (const a of this.tieBreak(candidates, q)) found.set(a.id, a);
    }
    // `CTR LE TOUQUET`, `TMA 1, 2 SEINE`: named by kind and place, near the NOTAM's Q-line circle (a TMA's parts
    // over the border included), or in its own country when it has no circle: a place name alone is not unique
    // enough to link across Europe
    for (const ref of this.places.find(q.text)) {
      if (incidental(q.text, ref.at)) continue;
      const local = q.centre ? this.near(ref.airspaces, q) : ref.airspaces.filter((a) => a.country === q.country);
      for (const a of local) found.set(a.id, a);
    }
    // `EBBE TMA 1B`: the aerodrome's own code for the place, resolved by what lies in the Q-line circle
    if (q.centre && q.locations?.length) {
      for (const ref of this.places.findByLocation(q.text, q.locations, (a) => this.near([a], q).length > 0)) {
        if (!incidental(q.text, ref.at)) for (const a of ref.airspaces) found.set(a.id, a);
      }
    }
    return { airspaces: [...found.values()], unmatched };
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
