// What a NOTAM or AUP source proves (docs/design.md §4, docs/activation.md): silence counts as "not active" only from a
// source that is fresh by its own as-of time and briefs the airspace's FIR. A source is fresh when its as-of time
// comes from its content (a PIB's `Issued`, an AUP's issue time) or an operator's declaration, lies no further
// than the maximum age before `now` and not after it, and it holds records. Everything else is not evidence.
import type { ExplainDocument } from "../model/explain.js";
import { isoInstant, type UtcDay } from "../model/time.js";

/** A source's own standing, whatever airspace asks. */
export type SourceStanding = "fresh" | "stale" | "empty";

export interface SourceEvidence {
  name: string;
  kind: "notam" | "aup";
  standing: SourceStanding;
  /** Why it is not fresh, for people (`no as-of time`, `as-of 2026-08-22T11:16:00Z, more than 2 h before now`). */
  reason?: string;
  /** The as-of time, epoch ms, and where it came from. */
  asOf?: number;
  asOfFrom: "content" | "declared" | "http" | "none";
  /** The FIRs it briefs (four letters); `all` only for sources assumed in tests and operator overrides. */
  coverage: readonly string[] | "all";
  coverageFrom: "content" | "declared" | "none";
}

export interface SourceFacts {
  name: string;
  kind: "notam" | "aup";
  asOf?: number;
  asOfFrom: "content" | "declared" | "http" | "none";
  coverage: readonly string[] | "all";
  coverageFrom: "content" | "declared" | "none";
  records: number;
  /** A last good copy standing in for a failed fetch. */
  fallback?: boolean;
}

/** A source may be up to this far ahead of `now` (clocks of the two machines). */
const AHEAD_TOLERANCE_MS = 5 * 60_000;

/** A source's standing at `now`: fallback copies, sources without as-of time, old or future ones are stale. */
export function standingOf(s: SourceFacts, now: number, maxAgeMs: number): SourceEvidence {
  const base = {
    name: s.name,
    kind: s.kind,
    asOfFrom: s.asOfFrom,
    coverage: s.coverage,
    coverageFrom: s.coverageFrom,
    ...(s.asOf === undefined ? {} : { asOf: s.asOf }),
  };
  const not = (standing: "stale" | "empty", reason: string): SourceEvidence => ({ ...base, standing, reason });
  if (s.fallback) return not("stale", "its fetch failed; this is the last good copy");
  if (s.asOf === undefined) return not("stale", "no as-of time in its content or declared");
  // the reason names the as-of instant and the limit, not the age: it stays the same from run to run while the
  // source stays stale, so explanations do not change with the clock alone (and a refresh can reuse them)
  if (s.asOf > now + AHEAD_TOLERANCE_MS) return not("stale", `as-of ${isoInstant(s.asOf)}, after now`);
  if (now - s.asOf > maxAgeMs) {
    return not("stale", `as-of ${isoInstant(s.asOf)}, more than ${duration(maxAgeMs)} before now`);
  }
  if (s.records === 0) return not("empty", "it holds no records");
  return { ...base, standing: "fresh" };
}

/** The sources' standings at `now`; an AUP is evidence only with the plans of the day still to come. */
export function evidenceAt(
  facts: readonly SourceFacts[],
  aupCovered: { early: boolean; late: boolean } | undefined,
  day: UtcDay,
  now: number,
  maxAgeMs: number,
): SourceEvidence[] {
  // the plans of the day, and of the day before while 00:00–06:00 matters
  const planGap = aupCovered && !(aupCovered.late && (aupCovered.early || now >= day.start + 6 * 3_600_000));
  return facts.map((f) => {
    const e = standingOf(f, now, maxAgeMs);
    return f.kind === "aup" && planGap && e.standing === "fresh"
      ? { ...e, standing: "stale" as const, reason: `no plan covers every part of ${day.date} still to come` }
      : e;
  });
}

/**
 * The first instant after `now` at which `evidenceAt` may give another answer for the same facts: a fresh source
 * ageing past `maxAgeMs`, one ahead of the clock coming within tolerance, the AUP's early hours ending. Undefined:
 * none before the day's end.
 */
export function standingChangeAfter(
  facts: readonly SourceFacts[],
  aupCovered: { early: boolean; late: boolean } | undefined,
  day: UtcDay,
  now: number,
  maxAgeMs: number,
): number | undefined {
  const at = facts.flatMap((f) =>
    f.fallback || f.asOf === undefined ? [] : [f.asOf + maxAgeMs + 1, f.asOf - AHEAD_TOLERANCE_MS],
  );
  if (aupCovered) at.push(day.start + 6 * 3_600_000);
  const after = at.filter((t) => t > now && t < day.end);
  return after.length > 0 ? Math.min(...after) : undefined;
}

/** The sources as the explanations document states them. */
export function explainSources(evidence: readonly SourceEvidence[]): ExplainDocument["sources"] {
  return evidence.map((e) => ({
    name: e.name,
    kind: e.kind,
    standing: e.standing,
    asOf: e.asOf === undefined ? null : isoInstant(e.asOf),
    asOfFrom: e.asOfFrom,
    coverage: e.coverage === "all" ? ["*"] : [...e.coverage],
    ...(e.reason ? { reason: e.reason } : {}),
  }));
}

/** What the sources of one kind say about an airspace in `fir`. */
export type Verdict =
  | { state: "fresh"; source: SourceEvidence }
  | { state: "missing" }
  | { state: "stale" | "empty"; source: SourceEvidence }
  | { state: "offRegion"; sources: SourceEvidence[] };

export const covers = (s: SourceEvidence, fir: string): boolean => s.coverage === "all" || s.coverage.includes(fir);

export function verdictFor(sources: readonly SourceEvidence[], fir: string): Verdict {
  if (sources.length === 0) return { state: "missing" };
  const covering = sources.filter((s) => covers(s, fir));
  const fresh = covering.find((s) => s.standing === "fresh");
  if (fresh) return { state: "fresh", source: fresh };
  const first = covering[0];
  if (first) return { state: first.standing === "empty" ? "empty" : "stale", source: first };
  return { state: "offRegion", sources: [...sources] };
}

/** A source assumed in tests or by an operator: `fresh` covering every FIR, or none at all (`missing`). */
export function assumed(kind: "notam" | "aup", state: "fresh" | "stale" | "missing"): SourceEvidence[] {
  if (state === "missing") return [];
  const standing: SourceStanding = state;
  return [{ name: `assumed ${kind}`, kind, standing, asOfFrom: "declared", coverage: "all", coverageFrom: "declared" }];
}

/** `2 h 5 min`, `40 min`, `3 d 4 h` */
export function duration(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h${min % 60 ? ` ${min % 60} min` : ""}`;
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ""}`;
}
