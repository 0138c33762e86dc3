// The part of `explain`'s sentence that linked NOTAMs decide (issue 22 §3): which NOTAM activated the airspace and
// when, what an exact deactivation cut from its day, and which deactivation was not trusted to cut anything.
//   "active by its type until 22:47 UTC, then deactivated by NOTAM A1234/25"
//   "activated on the day by NOTAM D3025/26 08:00–16:00 UTC (decision table: linked activation)"
import { DAY_MS, type Span } from "../model/time.js";
import type { Activity, NotamEffect } from "./activity.js";

const hhmm = (ms: number, dayStart: number) =>
  ms >= dayStart + DAY_MS ? "24:00" : new Date(ms).toISOString().slice(11, 16);

/** `all day`, `until 22:47 UTC`, `from 16:00 UTC`, `08:00–10:00 and 12:00–16:00 UTC` (spans inside one UTC day). */
export function spansText(spans: readonly Span[]): string {
  const first = spans[0];
  if (!first) return "at no time";
  const day = Math.floor(first[0] / DAY_MS) * DAY_MS;
  const last = spans[spans.length - 1]!;
  if (spans.length === 1 && first[0] === day && first[1] === day + DAY_MS) return "all day";
  if (spans.length === 1 && first[0] === day) return `until ${hhmm(first[1], day)} UTC`;
  if (spans.length === 1 && last[1] === day + DAY_MS) return `from ${hhmm(first[0], day)} UTC`;
  const list = spans.map(([s, e]) => `${hhmm(s, day)}–${hhmm(e, day)}`);
  return `${list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list[0]} UTC`;
}

/** How the airspace's own row makes it active: `by its type`, `by its own hours "MON-FRI" (from its name)`. */
function ownWay(rule: Activity["rule"], hours: string): string {
  switch (rule) {
    case "permanent":
      return "by its type";
    case "aipHours":
      return `by ${hours}`;
    case "validityWindow":
      return "within its validity window";
    case "other":
      return "with no known condition (the safe side)";
    default:
      return "";
  }
}

const named = (ids: readonly string[]) => `NOTAM ${ids.join(", ")}`;

/**
 * The sentence when linked NOTAMs changed the day, or undefined when they did not (the row's own sentence stands).
 * `hours` is the airspace's hours as the row sentence names them.
 */
export function notamSentence(activity: Activity, hours: string): string | undefined {
  const e = activity.notamEffect;
  if (!e) return undefined;
  const own = ownWay(e.own.rule, hours);
  const parts: string[] = [];
  if (activity.rule === "linked" || activity.rule === "linkedEnded") {
    const by = [
      ...e.activatedBy.map((n) => `by NOTAM ${n.id} ${spansText(n.spans)}`),
      ...e.allocatedBy.map((x) => `by AUP/UUP allocation ${x.designator} ${spansText(x.spans)}`),
    ];
    parts.push(`activated on the day ${by.join(" and ")} (decision table: linked activation)`);
    if (e.own.rule === "other" && e.own.spans.length > 0)
      parts.push("with no activation condition known for it, it is taken as active all day anyway (the safe side)");
    else if (own && e.own.spans.length > 0) parts.push(`also active ${own} ${spansText(e.own.spans)}`);
    if (e.deactivatedBy.length > 0) parts.push(`deactivated by ${named(e.deactivatedBy)} ${spansText(e.removed)}`);
  } else if (activity.rule === "deactivated") {
    const was = own ? ` (${own}, ${spansText(e.removed)})` : "";
    parts.push(`deactivated by ${named(e.deactivatedBy)} for all the time it would have been active on the day${was}`);
  } else if (e.deactivatedBy.length > 0) {
    parts.push(trimmed(activity.spans, e, own ? `active ${own}` : "active"));
  } else if (e.untrusted.length === 0) {
    return undefined;
  }
  if (e.untrusted.length > 0) {
    parts.push(`deactivation ${named(e.untrusted)} is linked but its Item D is not exact, so it removes nothing`);
  }
  return parts.join("; ");
}

/** An own day an exact deactivation cut short: the cut at the end or the start reads as a sequence. */
function trimmed(left: readonly Span[], e: NotamEffect, active: string): string {
  const cut = e.removed;
  const by = named(e.deactivatedBy);
  const day = Math.floor((left[0] ?? cut[0] ?? [0])[0] / DAY_MS) * DAY_MS;
  const [only] = cut;
  if (cut.length === 1 && only && only[1] === day + DAY_MS && left.every(([, end]) => end <= only[0])) {
    return `${active} ${spansText(left)}, then deactivated by ${by}`;
  }
  if (cut.length === 1 && only && only[0] === day && left.every(([start]) => start >= only[1])) {
    return `deactivated by ${by} ${spansText(cut)}, then ${active} ${spansText(left)}`;
  }
  return `${active} ${spansText(left)}; deactivated by ${by} ${spansText(cut)}`;
}
