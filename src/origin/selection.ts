// Which version a data request asks for (docs/design.md §8): `day=today|tomorrow|YYYY-MM-DD` (default today: what
// `current.json` names) and `at=<ISO instant>` (the version live then, from the record). Bad values are 400
// problems, a day or an instant with nothing published a 404 naming what is; never a 500.
import type { VersionManifest } from "../model/manifest.js";
import { dayAfter, isoInstant, parseInstant, utcDay } from "../model/time.js";
import { type Problem, problem } from "./problem.js";
import type { TierView } from "./published.js";

export type Selection = { manifest: VersionManifest; day: string; at?: number } | { problem: Problem };

/** An `at` this far ahead of the origin's clock is still "now" (clocks of two machines). */
const AHEAD_MS = 60_000;
const bad = (slug: string, detail: string) => ({ problem: problem(400, slug, "Bad Request", detail) });

/** The version `params` select in `view`, or the problem with them. `wallNow` is the origin's clock. */
export async function select(view: TierView, params: URLSearchParams, wallNow: number): Promise<Selection> {
  const days = params.getAll("day");
  const ats = params.getAll("at");
  if (days.length > 1) return bad("day-repeated", "Give day once: today, tomorrow or YYYY-MM-DD.");
  if (ats.length > 1) return bad("at-repeated", "Give at once: one ISO 8601 instant.");
  const day = days[0] ?? "today";
  if (day !== "today" && day !== "tomorrow" && !utcDay(day)) {
    return bad("day-malformed", "day takes today, tomorrow or a UTC date YYYY-MM-DD.");
  }
  const today = view.current;
  if (!today) return { problem: problem(503, "unavailable", "Service Unavailable", "Nothing is published yet.") };
  if (ats[0] === undefined) {
    if (day === "today") return { manifest: today, day: today.date };
    const date = day === "tomorrow" ? dayAfter(today.date) : day;
    const head = await view.head(date, wallNow);
    return head ? { manifest: head, day: date } : { problem: await notPublished(view, date) };
  }
  const at = parseInstant(ats[0]);
  if (at === undefined) {
    return bad("at-malformed", "at takes an ISO 8601 instant with its zone, e.g. 2026-07-04T14:10:00Z.");
  }
  if (at > wallNow + AHEAD_MS) {
    return bad(
      "at-future",
      `at is after now (${isoInstant(wallNow)}): the record holds what was said, not what will be.`,
    );
  }
  // today at T: what current.json named then; a named day (or the day after T's): what its pointer named then
  const date = day === "today" ? undefined : day === "tomorrow" ? dayAfter(isoInstant(at).slice(0, 10)) : day;
  const m = await view.record.liveAt(at, date);
  if (!m) {
    const what = date ? `of ${date} ` : "";
    return {
      problem: problem(
        404,
        "nothing-live-then",
        "Not Found",
        `Nothing ${what}was live at ${isoInstant(at)}: before the first version, or older than the record keeps.`,
      ),
    };
  }
  return { manifest: m, day: m.date, at };
}

/** 404 naming the days that are published (the latest few). */
async function notPublished(view: TierView, date: string): Promise<Problem> {
  const days = await view.record.days().catch(() => []);
  const list = days.length > 0 ? days.slice(-10).join(", ") : "none";
  return problem(404, "day-not-published", "Not Found", `${date} is not published; published days: ${list}.`);
}
