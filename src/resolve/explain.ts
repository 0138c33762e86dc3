// Why an airspace has its state (issue 15 §5): the one row of the docs/design.md §4 decision table that fired, and the
// evidence it rests on (which source, its as-of time and coverage; which NOTAM or AUP row; which AIP hours).
// Kept per published version (src/model/explain.ts) for `airspace-publisher explain` and the map page's popup: the
// sentence (`because`) names sources by kind and as-of time only, never by file or URL, so the origin may show it.
import type { Explanation } from "../model/explain.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { Activity, EvidenceNote } from "./activity.js";
import { neededSources } from "./activity.js";
import { notamSentence } from "./explain-notams.js";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

/** The explanation of one airspace's activity, with the NOTAMs and allocations linked to it. */
export function explainActivity(
  a: NormalizedAirspace,
  activity: Activity,
  linked: { notams: readonly string[]; aup: readonly string[]; amcManaged: boolean },
): Explanation {
  const evidence = activity.evidence?.map(note);
  const conditionalOn = conditions(a, activity, linked.amcManaged);
  const hours = activity.hours;
  return {
    rule: activity.rule,
    because: sentence(a, activity, activity.evidence ?? [], linked),
    ...(conditionalOn.length > 0 ? { conditionalOn } : {}),
    ...(evidence ? { evidence } : {}),
    ...(hours ? { hours } : {}),
    ...(linked.notams.length > 0 ? { notams: [...linked.notams] } : {}),
    ...(linked.aup.length > 0 ? { aup: [...linked.aup] } : {}),
  };
}

function note(e: EvidenceNote): NonNullable<Explanation["evidence"]>[number] {
  return {
    kind: e.kind,
    state: e.state,
    ...(e.source ? { source: e.source } : {}),
    ...(e.asOf === undefined ? {} : { asOf: iso(e.asOf) }),
    ...(e.reason ? { reason: e.reason } : {}),
  };
}

function conditions(a: NormalizedAirspace, activity: Activity, amcManaged: boolean): string[] {
  const out: string[] = [];
  if (a.byNotam) out.push("activated by NOTAM (byNotam)");
  if (a.onDemand) out.push("active on demand (onDemand)");
  if (a.onRequest) out.push("active on request (onRequest)");
  if (a.hours?.kind === "notam" && !a.byNotam)
    out.push(`activated by NOTAM ("${a.hours.text}" in its ${a.hours.from})`);
  if (activity.rule === "aipHoursMayExtend" && a.hours)
    out.push(`published hours "${a.hours.text}": a NOTAM may extend them`);
  if (a.hours?.plusNotam && activity.rule.startsWith("conditional"))
    out.push(`"+" in its hours "${a.hours.text}": a NOTAM may activate it on other days`);
  const needs = neededSources({ ...a, amcManaged });
  if (needs.includes("aup"))
    out.push(amcManaged ? "AMC-managed: its designator is in the AUP data" : "TRA/TSA: planned in the AUP");
  return out;
}

const KIND = { notam: "NOTAM", aup: "AUP/UUP" } as const;

/** `16:00`, the end of the last interval of the day. */
const lastEnd = (activity: Activity) => {
  const end = Math.max(...activity.spans.map(([, e]) => e));
  return new Date(end).toISOString().slice(11, 16);
};

function evidenceText(e: EvidenceNote, fir: string): string {
  const asOf = e.asOf === undefined ? "" : ` as of ${iso(e.asOf)}`;
  switch (e.state) {
    case "fresh":
      return `the ${KIND[e.kind]} source is fresh (${asOf.trim() || "as-of time known"}) and briefs ${fir}`;
    case "missing":
      return `no ${KIND[e.kind]} source was given`;
    case "offRegion":
      return `no ${KIND[e.kind]} source briefs ${fir} (${e.briefs?.length ? `they brief ${e.briefs.join(" ")}` : "none declares its region"})`;
    default:
      return `the ${KIND[e.kind]} source is ${e.state}${asOf}${e.reason ? `: ${e.reason}` : ""}`;
  }
}

function sentence(
  a: NormalizedAirspace,
  activity: Activity,
  evidence: readonly EvidenceNote[],
  linked: { notams: readonly string[]; aup: readonly string[] },
): string {
  const hours = activity.hours ? `its own hours "${activity.hours.text}" (from its ${activity.hours.from})` : "";
  const noHoursToday = activity.hours && activity.hours.kind !== "notam" ? `; ${hours} give nothing on the day` : "";
  const ev = evidence.map((e) => evidenceText(e, a.fir)).join("; ");
  // hours weighed against a fresh NOTAM source that could have extended them
  const unextended = evidence.length > 0 ? `; ${ev}, and no NOTAM extends them` : "";
  const byNotams = notamSentence(activity, hours);
  if (byNotams && activity.rule === "linkedEnded") {
    return `${byNotams}; over at ${lastEnd(activity)} UTC, and it may be active again: not every source that could activate it is fresh evidence for FIR ${a.fir}: ${ev}`;
  }
  if (
    byNotams &&
    (activity.rule === "linked" || activity.rule === "deactivated" || activity.notamEffect?.deactivatedBy.length)
  ) {
    return byNotams;
  }
  const own = rowSentence(a, activity, hours, ev, unextended, noHoursToday, linked);
  return byNotams ? `${own}; ${byNotams}` : own;
}

/** The sentence of the row that fired, when no linked NOTAM changed the day. */
function rowSentence(
  a: NormalizedAirspace,
  activity: Activity,
  hours: string,
  ev: string,
  unextended: string,
  noHoursToday: string,
  linked: { notams: readonly string[]; aup: readonly string[] },
): string {
  switch (activity.rule) {
    case "linked":
      return `activated on the day by AUP/UUP allocation ${linked.aup.join(", ")} (decision table: linked activation)`;
    case "outsideValidity":
      return "its validity window (activeFrom/activeUntil) does not meet the day";
    case "validityWindow":
      return "active within its validity window (activeFrom/activeUntil), clipped to the day";
    case "permanent":
      return "a permanent airspace (its type is active whenever it exists): the whole day";
    case "aipHours":
      if (activity.isActive === "Yes") return `active by ${hours}`;
      return `not active for the rest of the day: ${hours} ended at ${lastEnd(activity)} UTC${unextended}`;
    case "aipHoursOff":
      return `not active: ${hours} do not cover the day${unextended || ", and nothing may activate it outside them"}`;
    case "aipHoursMayExtend": {
      const text = activity.hours ? ` (${activity.hours.text.replace(/^\((.*)\)$/, "$1")})` : "";
      const where =
        activity.spans.length > 0
          ? `its published hours${text} ended at ${lastEnd(activity)} UTC`
          : `outside its published hours${text}`;
      return `${where}; no fresh NOTAM source covers ${a.fir}, and a NOTAM may extend them: ${ev}`;
    }
    case "notamUnsure":
      return `may be active: NOTAM ${(activity.reasons ?? []).join(", ")} activates its area without certainly naming this volume (the source splits the area otherwise), so it is not said to be inactive`;
    case "notamChanged":
      return `may be active: NOTAM ${(activity.reasons ?? []).join(", ")} changes its hours or status, so it is not said to be inactive`;
    case "hoursUnknown":
      return `may be active at any time: ${hours} publish no times (HX, or a temporary area without dates)`;
    case "conditionalUnknown":
      return `conditional, and not every source that could activate it is fresh evidence for FIR ${a.fir}: ${ev}${noHoursToday}`;
    case "conditionalInactive":
      return `conditional, every source that could activate it is fresh and briefs FIR ${a.fir}, and none activates it: ${ev}${noHoursToday}`;
    default:
      return "no activation condition, published hours or permanence is known for it: taken as active all day, the safe side";
  }
}
