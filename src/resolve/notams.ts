// NOTAMs for one UTC day (docs/design.md §4): drop what is replaced or cancelled, keep what meets the day, decide
// each one's kind, expand its Item D, read its limits, and link those that name an airspace.

import { countryOfIcao } from "../geo/icao-prefixes.js";
import type { VerticalLimit } from "../model/contract.js";
import { type Diagnostic, DiagnosticSink } from "../model/diagnostic.js";
import { type Notam, notamKey } from "../model/notam.js";
import { clipToDay, type Span, type UtcDay } from "../model/time.js";
import { LimitUnit, type NotamKind, ReferenceDatum } from "../model/vocab.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import { aerodromePoints, type LatLon } from "../notam/aerodromes.js";
import { notamGeometry } from "../notam/geometry.js";
import { isObstacle, isPlainAirspaceNotam, notamKind, qCode } from "../notam/kind.js";
import { parseNotamLimit, qLimits } from "../notam/limits.js";
import { obstacleTop } from "../notam/obstacle-top.js";
import { type NotamEffect, notamEffect } from "../notam/subject.js";
import { evaluateItemD, type ScheduleResult } from "../schedule/evaluate.js";
import { parseValidity, type Validity } from "../schedule/validity.js";
import type { AirspaceLinker, LinkQuery, LinkResult } from "./link.js";
import { disagreement, type OwnArea } from "./link-geometry.js";

export interface DayNotam {
  notam: Notam;
  /** Final kind: an R or V NOTAM that names an existing airspace is A. */
  kind: NotamKind | null;
  obstacle: boolean;
  validity: Validity;
  /** Item D for the day; undefined when there is no Item D ([B, C] stands). */
  schedule?: ScheduleResult;
  /** Activity on the day. */
  spans: Span[];
  upper?: VerticalLimit;
  lower?: VerticalLimit;
  /** Home country, from Item A (else the Q-line FIR). */
  country?: string;
  /** Airspaces it is about (docs/design.md §4): what it does to them is `effect`. */
  linked: NormalizedAirspace[];
  /** What it does to the airspaces it is about: activates, deactivates, changes (never `No`) or only informs. */
  effect: NotamEffect;
  /** Airspaces of an area it names whose volume it does not certainly name: never `No` while it activates. */
  unsure: NormalizedAirspace[];
}

export interface NotamDay {
  notams: DayNotam[];
  /** NOTAMs left out, per reason (replaced, cancelled, other day, trigger, …). */
  dropped: Record<string, number>;
  /** Designators named by NOTAMs that no airspace answers to, with the NOTAMs naming them. */
  unlinked: Map<string, string[]>;
}

const LINKABLE: ReadonlySet<NotamKind | null> = new Set(["A", "D", "R", "V"]);

/** Why a NOTAM is left out of the day, counted in the stage's summary. */
type DropReason = "duplicate" | "replaced" | "cancelled" | "cancellation" | "otherDay" | "trigger" | "notAirspace";

/** What every NOTAM of the day is read against. */
interface DayContext {
  day: UtcDay;
  /** The day's number since the epoch, for Item D. */
  dayNumber: number;
  linker: AirspaceLinker;
  aerodromes: ReadonlyMap<string, LatLon>;
  /** Designators named by NOTAMs that no airspace answers to: filled as NOTAMs are read. */
  unlinked: Map<string, string[]>;
  sink: DiagnosticSink;
}

export function notamsForDay(
  all: readonly Notam[],
  day: UtcDay,
  linker: AirspaceLinker,
  sink: DiagnosticSink,
): NotamDay {
  const dropped: Record<string, number> = {};
  const superseded = supersededIds(all);
  const out: DayNotam[] = [];
  const ctx: DayContext = {
    day,
    dayNumber: day.start / 86_400_000,
    linker,
    aerodromes: aerodromePoints(all),
    unlinked: new Map<string, string[]>(),
    sink,
  };
  const seen = new Map<string, Notam>();
  for (const n of all) {
    const read = isFirstReading(n, seen, sink) ? (superseded.get(n.id) ?? rememberedDayNotam(n, ctx)) : "duplicate";
    if (typeof read === "string") dropped[read] = (dropped[read] ?? 0) + 1;
    else if (read) out.push(read);
  }
  return { notams: out, dropped, unlinked: ctx.unlinked };
}

/** The NOTAMs that a later one replaces (R) or cancels (C), by id. */
function supersededIds(all: readonly Notam[]): Map<string, "replaced" | "cancelled"> {
  const superseded = new Map<string, "replaced" | "cancelled">();
  for (const n of all) if (n.ref && n.type !== "N") superseded.set(n.ref, n.type === "R" ? "replaced" : "cancelled");
  return superseded;
}

/**
 * Whether this is the first reading of the NOTAM: the same NOTAM from two sources (or twice in one) is one feature,
 * the first read is kept, and a later reading that says otherwise is a warning.
 */
function isFirstReading(n: Notam, seen: Map<string, Notam>, sink: DiagnosticSink): boolean {
  const key = notamKey(n);
  const first = seen.get(key);
  if (!first) {
    seen.set(key, n);
    return true;
  }
  if (!sameText(first, n)) {
    sink.add({
      code: "notam.duplicate",
      severity: "warning",
      message: `read again with other items than in ${first.origin.source} record ${first.origin.record}, which is kept`,
      source: n.origin.source,
      record: n.origin.record,
      id: n.id,
    });
  }
  return false;
}

/** A NOTAM as this process read it last for the day: with the same linker and aerodrome, it reads the same. */
interface Remembered {
  dayStart: number;
  linker: AirspaceLinker;
  aerodrome: LatLon | undefined;
  read: DayNotam | DropReason | undefined;
  diagnostics: readonly Diagnostic[];
  unmatched: readonly string[];
}

/**
 * Per NOTAM object (the same line of a feed read again is the same object, notam/jsonl.ts): its last reading. `watch`
 * reads 40 000 NOTAMs again when one changes; the others are taken as they were (their diagnostics and unlinked
 * designators given again).
 */
const remembered = new WeakMap<Notam, Remembered>();

function rememberedDayNotam(n: Notam, ctx: DayContext): DayNotam | DropReason | undefined {
  const aerodrome = n.itemA.length === 1 ? ctx.aerodromes.get(n.itemA[0]!) : undefined;
  const was = remembered.get(n);
  const same = was?.dayStart === ctx.day.start && was.linker === ctx.linker && sameSpot(was.aerodrome, aerodrome);
  const r = same ? was : readAfresh(n, ctx, aerodrome);
  if (!same) remembered.set(n, r);
  ctx.sink.addAll(r.diagnostics);
  for (const d of r.unmatched) ctx.unlinked.set(d, [...(ctx.unlinked.get(d) ?? []), n.id]);
  return r.read;
}

function readAfresh(n: Notam, ctx: DayContext, aerodrome: LatLon | undefined): Remembered {
  const sink = new DiagnosticSink();
  const unlinked = new Map<string, string[]>();
  const read = dayNotamOf(n, { ...ctx, sink, unlinked });
  const { day, linker } = ctx;
  // each designator as often as the reading named it (in the day's list, the NOTAM's id as often)
  const unmatched = [...unlinked].flatMap(([d, ids]) => ids.map(() => d));
  return { dayStart: day.start, linker, aerodrome, read, diagnostics: sink.items, unmatched };
}

const sameSpot = (a: LatLon | undefined, b: LatLon | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.lat === b.lat && a.lon === b.lon);

/**
 * A NOTAM on the day, or why it is left out; `undefined` when its validity cannot be read (a diagnostic says so).
 */
function dayNotamOf(n: Notam, ctx: DayContext): DayNotam | DropReason | undefined {
  if (n.type === "C") return "cancellation";
  const v = parseValidity(n.itemB, n.itemC ?? "PERM");
  if (!v.ok) {
    ctx.sink.add({
      code: "notam.validity.invalid",
      severity: "skipped",
      message: v.reason,
      source: n.origin.source,
      record: n.origin.record,
      id: n.id,
    });
    return undefined;
  }
  if (!clipToDay([v.value.b, v.value.c ?? Number.POSITIVE_INFINITY], ctx.day)) return "otherDay";
  let kind = notamKind(n.q, n.itemE);
  if (kind === "C") return "trigger";
  const obstacle = isObstacle(n.q);
  // plain language about an airspace: linked when it names one, else left out like any NOTAM of no kind
  const plain = kind === null && isPlainAirspaceNotam(n.q);
  if (kind === null && !obstacle && !plain) return "notAirspace";
  const schedule = n.itemD?.trim() ? evaluateItemD(n.itemD, v.value, ctx.dayNumber, n.q?.centre) : undefined;
  const spans = schedule
    ? schedule.intervals
    : [clipToDay([v.value.b, v.value.c ?? Number.POSITIVE_INFINITY], ctx.day)!];
  const country = notamCountry(n);
  let linked: NormalizedAirspace[] = [];
  let unsure: NormalizedAirspace[] = [];
  const code = qCode(n.q);
  if (LINKABLE.has(kind) || plain) {
    const r = linkNotam(n, ctx.linker, ctx.aerodromes);
    linked = r.airspaces;
    unsure = plain ? [] : r.unsure;
    if (linked.length > 0 && (kind === "R" || kind === "V" || plain)) kind = "A";
    if (plain && linked.length === 0) return "notAirspace";
    if (linked.length === 0) for (const d of r.unmatched) ctx.unlinked.set(d, [...(ctx.unlinked.get(d) ?? []), n.id]);
  }
  return {
    notam: n,
    kind,
    obstacle,
    validity: v.value,
    ...(schedule ? { schedule } : {}),
    spans,
    ...limitsOf(n),
    ...(country ? { country } : {}),
    linked,
    effect: notamEffect(code?.condition, n.itemE),
    unsure,
  };
}

/**
 * The airspaces a NOTAM names, as the day's stage links them (tests and reports ask the same): only NOTAMs that can
 * name one (kinds A, D, R, V and plain-language airspace NOTAMs) are linked; `undefined` for the others.
 */
export function linksOf(
  n: Notam,
  linker: AirspaceLinker,
  aerodromes: ReadonlyMap<string, LatLon> = new Map(),
): LinkResult | undefined {
  const kind = notamKind(n.q, n.itemE);
  if (!LINKABLE.has(kind) && !(kind === null && isPlainAirspaceNotam(n.q))) return undefined;
  return linkNotam(n, linker, aerodromes);
}

/**
 * The airspaces a NOTAM names, where its own area and band agree (resolve/link-geometry.ts): a named volume that its
 * Item E area does not overlap, or its F/G band does not meet, is unsure instead of linked.
 */
export function linkNotam(n: Notam, linker: AirspaceLinker, aerodromes: ReadonlyMap<string, LatLon>): LinkResult {
  const query = linkQueryOf(n, aerodromes);
  const r = linker.link(query);
  if (r.airspaces.length === 0) return r;
  const own = ownArea(n);
  const apart = r.airspaces.filter((a) => {
    const why = disagreement(own, a);
    return why !== undefined && !(why === "lateral" && namedWithoutArea(n, a, linker, query));
  });
  if (apart.length === 0) return r;
  return { ...r, airspaces: r.airspaces.filter((a) => !apart.includes(a)), unsure: [...r.unsure, ...apart] };
}

/** `1) AREA NAMED 'SAN SIRO': … 30) RESTRICTED AREA LI-R49 A:`: the items of a numbered list of areas. */
const NUMBERED_ITEM = /(?:^|\n)\s*\d{1,2}\)\s/g;

/**
 * Whether an item of a numbered list of areas names the airspace and draws no area of its own (`30) RESTRICTED AREA
 * LI-R49 A: LATERAL LIMITS: REF AIP ENR 5.1.2-10`, LIIA W0372/26): the volume is the area the AIP gives, whatever the
 * other items draw.
 */
function namedWithoutArea(n: Notam, a: NormalizedAirspace, linker: AirspaceLinker, query: LinkQuery): boolean {
  const starts = [...n.itemE.matchAll(NUMBERED_ITEM)].map((m) => m.index);
  if (starts.length < 2) return false;
  return starts.some((from, k) => {
    const text = n.itemE.slice(from, starts[k + 1] ?? n.itemE.length);
    if (notamGeometry(text, n.q).value?.source === "itemE") return false;
    return linker.link({ ...query, text }).airspaces.includes(a);
  });
}

/** Where a NOTAM says it is besides its names: Item E's area (not the Q-line circle), F and G (not the Q-line's). */
function ownArea(n: Notam): OwnArea {
  const g = notamGeometry(n.itemE, n.q).value;
  const { lower, upper } = itemLimits(n);
  return {
    ...(g?.source === "itemE" ? { geometry: g.geometry } : {}),
    ...(lower ? { lower } : {}),
    ...(upper ? { upper } : {}),
  };
}

/** Items F and G as read, each undefined when absent or unreadable. */
function itemLimits(n: Notam): { lower: VerticalLimit | undefined; upper: VerticalLimit | undefined } {
  return {
    lower: n.itemF ? parseNotamLimit(n.itemF) : undefined,
    upper: n.itemG ? parseNotamLimit(n.itemG) : undefined,
  };
}

/** The country a NOTAM is of: its first Item A location's, else its Q-line FIR's. */
export function notamCountry(n: Notam): string | undefined {
  return countryOfIcao(n.itemA[0] ?? "") ?? (n.q ? countryOfIcao(n.q.fir) : undefined);
}

/** What the linker is asked of a NOTAM: Item E, its country and locations, the Q-line circle and subject. */
export function linkQueryOf(n: Notam, aerodromes: ReadonlyMap<string, LatLon> = new Map()): LinkQuery {
  const code = qCode(n.q);
  const country = notamCountry(n);
  const aerodrome = n.itemA.length === 1 ? aerodromes.get(n.itemA[0]!) : undefined;
  return {
    text: n.itemE,
    locations: n.itemA,
    ...(country ? { country } : {}),
    ...(n.q?.centre ? { centre: n.q.centre } : {}),
    ...(n.q?.radiusNm !== undefined ? { radiusNm: n.q.radiusNm } : {}),
    ...(code ? { qSubject: code.subject } : {}),
    ...(aerodrome ? { aerodrome } : {}),
  };
}

/** Whether two readings of one NOTAM say the same (type, reference, Q-line and items A–G). */
function sameText(a: Notam, b: Notam): boolean {
  const items = (n: Notam) =>
    JSON.stringify([n.type, n.ref, n.q?.raw, n.itemA, n.itemB, n.itemC, n.itemD, n.itemE, n.itemF, n.itemG]);
  return items(a) === items(b);
}

/** F/G, else the Q-line flight levels; an obstacle's, where F/G say nothing, from GND to the top its Item E states. */
function limitsOf(n: Notam): { upper?: VerticalLimit; lower?: VerticalLimit } {
  const q = n.q ? qLimits(n.q) : { lower: undefined, upper: undefined };
  const items = itemLimits(n);
  const top = isObstacle(n.q) && !items.upper && !items.lower ? obstacleTop(n.itemE) : undefined;
  const lower = items.lower ?? (top ? { value: 0, unit: LimitUnit.FEET, referenceDatum: ReferenceDatum.GND } : q.lower);
  const upper = items.upper ?? top ?? q.upper;
  return { ...(upper ? { upper } : {}), ...(lower ? { lower } : {}) };
}
