// `airspace-publisher explain-schedule`: what the Item D parser makes of one schedule (flags), or of one
// JSON object per input line (`--jsonl`), for one UTC day. The operators' answer to "why is this active?".
import { createInterface } from "node:readline";
import { isRecord } from "../../src/model/json.js";
import { DAY_MS, isoInstant, utcDay } from "../../src/model/time.js";
import { evaluateItemD } from "../../src/schedule/evaluate.js";
import { parseValidity } from "../../src/schedule/validity.js";
import type { Io } from "../io.js";
import { UsageError } from "../usage.js";

export interface ExplainFlags {
  b?: string;
  c?: string;
  d?: string;
  day?: string;
  lat?: string;
  lon?: string;
  jsonl?: boolean;
  schedule?: boolean;
}

interface Request {
  itemB: unknown;
  itemC: unknown;
  itemD: unknown;
  day: unknown;
  lat?: unknown;
  lon?: unknown;
}

/** One answer, or the reason the request cannot be answered. */
export function explain(req: Request, withSchedule = false): Record<string, unknown> {
  for (const key of ["itemB", "itemC", "itemD", "day"] as const) {
    if (typeof req[key] !== "string") return { error: `${key} must be a string` };
  }
  const validity = parseValidity(req.itemB as string, req.itemC as string);
  if (!validity.ok) return { error: validity.reason };
  const day = utcDay(req.day as string);
  if (!day) return { error: `day must be YYYY-MM-DD, got ${JSON.stringify(req.day)}` };
  const position = positionOf(req.lat, req.lon);
  if (typeof position === "string") return { error: position };
  const r = evaluateItemD(req.itemD as string, validity.value, day.start / DAY_MS, position);
  const { b, c } = validity.value;
  // a day the NOTAM is not in force on has no activity, whatever Item D says: say so rather than answer silently
  const outside = c !== undefined ? day.end <= b || day.start >= c : day.end <= b;
  return {
    ...(outside
      ? {
          note: `the day is outside [B, C] (${isoInstant(b)} to ${c === undefined ? "PERM" : isoInstant(c)}): the NOTAM is not in force on it`,
        }
      : {}),
    status: r.status,
    parserVersion: r.parserVersion,
    intervals: r.intervals.map(([s, e]) => [isoInstant(s), isoInstant(e)]),
    issues: r.issues,
    ...(withSchedule ? { schedule: r.schedule } : {}),
  };
}

function positionOf(lat: unknown, lon: unknown): { lat: number; lon: number } | undefined | string {
  // no position (absent or null): fine for every schedule without SR/SS, which then says it guessed
  if ((lat === undefined || lat === null) && (lon === undefined || lon === null)) return undefined;
  const la = typeof lat === "string" ? Number(lat) : lat;
  const lo = typeof lon === "string" ? Number(lon) : lon;
  if (typeof la !== "number" || typeof lo !== "number" || !(Math.abs(la) <= 90) || !(Math.abs(lo) <= 180)) {
    return `lat and lon must both be given, in degrees (lat -90..90, lon -180..180); got ${JSON.stringify(lat)}, ${JSON.stringify(lon)}`;
  }
  return { lat: la, lon: lo };
}

export async function explainScheduleCommand(flags: ExplainFlags, io: Io): Promise<number> {
  if (flags.jsonl) {
    const lines = createInterface({ input: io.stdinStream(), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (line.trim() === "") continue;
      let out: Record<string, unknown>;
      try {
        const req = JSON.parse(line) as unknown;
        out = isRecord(req) ? explain(req as unknown as Request, flags.schedule) : { error: "not a JSON object" };
      } catch (err) {
        out = { error: `not JSON: ${(err as Error).message}` };
      }
      io.stdout.write(`${JSON.stringify(out)}\n`);
    }
    return 0;
  }
  const missing = (["b", "c", "d", "day"] as const).filter((k) => flags[k] === undefined);
  if (missing.length > 0) {
    throw new UsageError(`explain-schedule needs ${missing.map((k) => `--${k}`).join(", ")} (or --jsonl on stdin)`);
  }
  const out = explain(
    { itemB: flags.b, itemC: flags.c, itemD: flags.d, day: flags.day, lat: flags.lat, lon: flags.lon },
    flags.schedule,
  );
  if ("error" in out) throw new UsageError(String(out.error));
  io.stdout.write(`${JSON.stringify(out)}\n`);
  return 0;
}
