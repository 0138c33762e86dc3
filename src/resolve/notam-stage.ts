// The NOTAM stage of one day: which NOTAMs count, which airspaces they name, and the features of those
// that name none. Its summary goes into the run report (with the unlinked designators, so the alias table
// can grow).

import { releaseBoundaries } from "../geo/borders.js";
import type { Feature } from "../model/contract.js";
import { type Diagnostic, DiagnosticSink } from "../model/diagnostic.js";
import { notamExplanation } from "../model/explain.js";
import { type Notam, notamKey } from "../model/notam.js";
import type { UtcDay } from "../model/time.js";
import { GEOMETRY_ISSUES, type GeometryIssue, notamGeometry } from "../notam/geometry.js";
import type { AirspaceLinker } from "./link.js";
import { type NotamTiming, notamFeature, notamFeatureAt, type Variant } from "./notam-feature.js";
import { type DayNotam, notamsForDay } from "./notams.js";
import { NowWindow, type Timed, type Track } from "./now-window.js";

export interface NotamSummary {
  read: number;
  onTheDay: number;
  dropped: Record<string, number>;
  byKind: Record<string, number>;
  /** NOTAMs of kind A or D (R/V naming an airspace count as A) linked to at least one airspace. */
  linked: number;
  features: number;
  /** Item E or the coarse Q-line circle. */
  geometry: { itemE: number; qLine: number; none: number };
  /** Per state (the NOTAM's country): drawn from Item E, with a border followed, and from the Q-line circle by why. */
  geometryByState: Record<string, StateGeometry>;
  /** NOTAMs whose border, coast or FIR stretch could not be followed (the Q-line circle stands in), with why. */
  bordersUnfollowed: Array<{ id: string; why: string }>;
  /** Designators no airspace answers to, with how many NOTAMs name each. */
  unlinkedDesignators: Record<string, number>;
}

export interface StateGeometry {
  itemE: number;
  /** Of those from Item E, the NOTAMs with a border, coast or FIR stretch followed. */
  borders: number;
  /** Q-line circles by why: `noCoordinates` (Item E has none), `noArea` (points or lines without width), `invalid`,
   * `borderUnfollowed`. */
  qLine: Record<string, number>;
}

export interface NotamStage {
  /** Linked NOTAMs per airspace id. */
  linked: Map<string, DayNotam[]>;
  /** Activation NOTAMs that name an airspace's area without certainly naming the airspace, per airspace id. */
  unsure: Map<string, DayNotam[]>;
  features: Feature[];
  /** Distinct A/D NOTAM ids per home country (airspace's country when linked). */
  airspaceNotams: Map<string, Set<string>>;
  summary: NotamSummary;
}

export function notamStage(
  notams: readonly Notam[],
  linker: AirspaceLinker,
  opts: { day: UtcDay; now: number; variant: Variant; window?: NowWindow; track?: Map<string, Track<Feature>> },
  sink: DiagnosticSink,
): NotamStage {
  const day = notamsForDay(notams, opts.day, linker, sink);
  const linked = new Map<string, DayNotam[]>();
  const unsure = new Map<string, DayNotam[]>();
  const features: Feature[] = [];
  const airspaceNotams = new Map<string, Set<string>>();
  const count = (cc: string, id: string) => airspaceNotams.set(cc, (airspaceNotams.get(cc) ?? new Set()).add(id));
  const byKind: Record<string, number> = {};
  const geometry = { itemE: 0, qLine: 0, none: 0 };
  const tally: Tally = { byState: {}, unfollowed: [] };
  let linkedCount = 0;
  for (const dn of day.notams) {
    byKind[dn.kind ?? "obstacle"] = (byKind[dn.kind ?? "obstacle"] ?? 0) + 1;
    if (dn.effect === "activate" && dn.kind !== "D") {
      for (const a of dn.unsure) unsure.set(a.id, [...(unsure.get(a.id) ?? []), dn]);
    }
    if (dn.linked.length > 0) {
      linkedCount++;
      for (const a of dn.linked) {
        linked.set(a.id, [...(linked.get(a.id) ?? []), dn]);
        count(a.country, dn.notam.id);
      }
      continue;
    }
    const f = unlinkedFeature(dn, opts, geometry, tally, sink);
    if (!f) continue;
    features.push(f);
    if (dn.kind === "A" || dn.kind === "D") count(f.properties.country, dn.notam.id);
  }
  // the NOTAMs are drawn: the border data goes before the publication's peak (stringify and gzip)
  releaseBoundaries();
  return {
    linked,
    unsure,
    features,
    airspaceNotams,
    summary: {
      read: notams.length,
      onTheDay: day.notams.length,
      dropped: day.dropped,
      byKind,
      linked: linkedCount,
      features: features.length,
      geometry,
      geometryByState: Object.fromEntries(Object.entries(tally.byState).sort(([a], [b]) => (a < b ? -1 : 1))),
      bordersUnfollowed: tally.unfollowed,
      unlinkedDesignators: designatorCounts(day.unlinked),
    },
  };
}

/** What drawing a NOTAM's feature needs of the stage's options. */
interface FeatureOptions {
  now: number;
  variant: Variant;
  window?: NowWindow;
  track?: Map<string, Track<Feature>>;
}

/** A NOTAM's feature as this process drew it last, and what drawing it said. */
interface Drawn {
  variant: Variant;
  window: NowWindow;
  feature: Feature | undefined;
  track: Track<Feature> | undefined;
  geometry: keyof NotamSummary["geometry"];
  /** How it was drawn, for the per-state figures. */
  how: How | undefined;
  diagnostics: readonly Diagnostic[];
}

/** `itemE` (with `followed` stretches) or the Q-line circle and why. */
type How = { source: "itemE"; followed: number } | { source: "qLine"; why: string; unfollowed?: string };

interface Tally {
  byState: Record<string, StateGeometry>;
  unfollowed: Array<{ id: string; why: string }>;
}

/**
 * Per day's NOTAM (the same NOTAM read again for the day is the same object, notams.ts): its feature as drawn last.
 * It holds while `now` stays in the window it was drawn in; `watch` draws the 40 000 of a feed again for one change.
 */
const drawn = new WeakMap<DayNotam, Drawn>();

/** {@link drawFeature}, or the same feature as drawn last when it still holds; its counts and diagnostics again. */
function unlinkedFeature(
  dn: DayNotam,
  opts: FeatureOptions,
  geometry: NotamSummary["geometry"],
  tally: Tally,
  sink: DiagnosticSink,
): Feature | undefined {
  const was = drawn.get(dn);
  const d = was?.variant === opts.variant && was.window.holds(opts.now) ? was : draw(dn, opts);
  if (d !== was) drawn.set(dn, d);
  geometry[d.geometry]++;
  if (d.how && d.feature) {
    const cc = d.feature.properties.country;
    const st = tally.byState[cc] ?? { itemE: 0, borders: 0, qLine: {} };
    tally.byState[cc] = st;
    if (d.how.source === "itemE") {
      st.itemE++;
      if (d.how.followed > 0) st.borders++;
    } else {
      st.qLine[d.how.why] = (st.qLine[d.how.why] ?? 0) + 1;
      if (d.how.unfollowed) tally.unfollowed.push({ id: notamKey(dn.notam), why: d.how.unfollowed });
    }
  }
  sink.addAll(d.diagnostics);
  opts.window?.merge(d.window);
  if (d.feature && d.track && opts.track) opts.track.set(d.feature.properties._id, d.track);
  return d.feature;
}

function draw(dn: DayNotam, opts: FeatureOptions): Drawn {
  const sink = new DiagnosticSink();
  const geometry = { itemE: 0, qLine: 0, none: 0 };
  const window = new NowWindow(opts.now);
  const drawing = { how: undefined as How | undefined };
  const feature = drawFeature(dn, { now: opts.now, variant: opts.variant, window }, geometry, drawing, sink);
  const track = feature ? notamTrack(feature, dn, window) : undefined;
  const source = geometry.itemE ? "itemE" : geometry.qLine ? "qLine" : "none";
  return { variant: opts.variant, window, feature, track, geometry: source, how: drawing.how, diagnostics: sink.items };
}

/** Why the Q-line circle stands in, from the drawing's issues. */
function whyQLine(issues: readonly GeometryIssue[]): { why: string; unfollowed?: string } {
  const code = (c: string) => issues.find((i) => i.code === c);
  const unfollowed = code(GEOMETRY_ISSUES.borderUnfollowed);
  if (unfollowed) return { why: "borderUnfollowed", unfollowed: unfollowed.text };
  if (code(GEOMETRY_ISSUES.invalid)) return { why: "invalid" };
  if (code(GEOMETRY_ISSUES.itemEUnused)) return { why: "noArea" };
  return { why: "noCoordinates" };
}

/**
 * The feature of a NOTAM that names no airspace, drawn from Item E or else its Q-line circle (counted in
 * `geometry`); `undefined` when it has no area or no country, which a diagnostic says.
 */
function drawFeature(
  dn: DayNotam,
  opts: { now: number; variant: Variant; window: NowWindow },
  geometry: NotamSummary["geometry"],
  drawing: { how: How | undefined },
  sink: DiagnosticSink,
): Feature | undefined {
  const at = { source: dn.notam.origin.source, record: dn.notam.origin.record, id: dn.notam.id };
  const g = notamGeometry(dn.notam.itemE, dn.notam.q);
  if (!g.value) {
    geometry.none++;
    sink.add({
      ...at,
      code: "notam.geometry.none",
      severity: "skipped",
      message: "no area in Item E and no usable Q-line circle",
    });
    return undefined;
  }
  if (g.value.source === "qLine") {
    geometry.qLine++;
    drawing.how = { source: "qLine", ...whyQLine(g.issues) };
    sink.add({ ...at, code: "notam.geometry.coarse", severity: "warning", message: "drawn as the Q-line circle" });
  } else {
    geometry.itemE++;
    drawing.how = { source: "itemE", followed: g.value.followed ?? 0 };
  }
  const f = notamFeature(dn, g.value, { now: opts.now, window: opts.window }, opts.variant);
  if (!f) {
    sink.add({
      ...at,
      code: "notam.country.unknown",
      severity: "skipped",
      message: `no country for Item A "${dn.notam.itemA.join(" ")}"`,
    });
  }
  return f;
}

/** How to draw the feature again at a later instant (issue 24). */
function notamTrack(f: Feature, dn: DayNotam, window: NowWindow): Track<Feature> {
  // its timing only: the NOTAM's text, schedule and validity need not live as long as the day's track
  const timing: NotamTiming = { spans: dn.spans, kind: dn.kind, obstacle: dn.obstacle };
  const at = (now: number): Timed<Feature> => {
    const w = new NowWindow(now);
    const feature = notamFeatureAt(f, timing, { now, window: w });
    return { feature, explanation: notamExplanation(feature), window: w };
  };
  return { window, at };
}

/** How many NOTAMs name each designator no airspace answers to, by designator. */
function designatorCounts(unlinked: ReadonlyMap<string, string[]>): Record<string, number> {
  return Object.fromEntries([...unlinked].sort(([a], [b]) => (a < b ? -1 : 1)).map(([d, ids]) => [d, ids.length]));
}
