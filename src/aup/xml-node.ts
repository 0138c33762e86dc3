// Small helpers over fast-xml-parser's objects (namespace prefixes removed, attributes as `@_name`) and over the
// instants AIXM and NM B2B write: `2018-05-10T06:00:00Z`, `2022-02-23T09:00:00` (no zone: UTC), `2022-02-23 06:00`.

import { decodeEntities, field, text } from "../ingest/xml.js";
import { isRecord } from "../model/json.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const isElement = isRecord;

export { field, text };

/** A repeatable child as an array: absent → [], one → [it]. */
export const list = (node: unknown): unknown[] => (node === undefined ? [] : Array.isArray(node) ? node : [node]);

/** An attribute by local name (`uom`, `gml:id` → `id`). */
export function attr(node: unknown, name: string): string | undefined {
  const value = field(node, `@_${name}`);
  return typeof value === "string" ? decodeEntities(value).trim() : undefined;
}

/** Upper-cased text of a child, `""` when absent. */
export const code = (node: unknown, key: string): string => (text(field(node, key)) ?? "").toUpperCase();

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** Epoch ms of an ISO 8601 / NM B2B instant; a missing zone is UTC. Undefined when not a real date-time. */
export function parseInstant(s: string): number | undefined {
  const m = INSTANT.exec(s.trim());
  if (!m) return undefined;
  const [y, mo, d, h = 0, mi = 0, sec = 0] = m.slice(1, 7).map((v) => (v === undefined ? undefined : Number(v)));
  if (y === undefined || mo === undefined || d === undefined) return undefined;
  if (h > 24 || mi > 59 || sec > 59 || (h === 24 && (mi > 0 || sec > 0))) return undefined;
  const day = Date.UTC(y, mo - 1, d);
  const check = new Date(day);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  const zone = m[7] ?? "Z";
  const offset =
    zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  return day + h * HOUR + mi * MINUTE + sec * 1000 - offset * MINUTE;
}

/** `urn:uuid:X`, `uuid.X`, `#X` → `X`. */
export const uuidKey = (ref: string): string => ref.replace(/^(urn:uuid:|uuid\.|#)/i, "");

export const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

/** The AUP day (06:00 UTC D → 06:00 UTC D+1) holding an instant. */
export const aupDayOf = (ms: number): string => new Date(ms - 6 * HOUR).toISOString().slice(0, 10);

/** 06:00 UTC of an AUP day `YYYY-MM-DD`. */
export const aupDayStart = (day: string): number => Date.parse(`${day}T06:00:00Z`);
