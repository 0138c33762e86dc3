// src/ingest — airspace sources to AirspaceRecords: openAIP (GeoJSON, API, XML), OpenAir, YAIXM, and their hours.
// An airspace's own hours as sources write them (docs/activation.md §4, what each source does):
//   names, DAeC convention (also in openAIP's German data): `ED-R10A TODENDORF-PUTLOS MON-SAT+`, `ED-R1 GARCHING H24`,
//     `ED-R147 MANCHING HX (FIS)`, `ED-R45 MELPITZ NOTAM`, `ED-R33B UNTERLUESS (NOTAM MON-SAT)`, `ATZ-LOW X 131.130 NOTAM`
//   names, openAIP France and Switzerland: `CTR SAINT YAN 1 (MON-FRI)`, `CTR SAINT YAN 2 (MON-FRI HX)`, `CTR BERN HX`
//   remarks, AIP style: `MON-FRI 0800-1600 LT`, `MON-THU 0800-1700, FRI 0800-1200. 1 HR EARLIER IN SUMMER`
// Not hours: `BERLIN (HX-EAST)` (a sector), `LJ-R4 PIVKA (UPPER LIMIT BY NOTAM)`, `… activable jusqu'au FL245 sur NOTAM`.
import type { AipHours } from "../model/hours.js";

const DAY = "(?:MON|TUE|WED|THU|FRI|SAT|SUN)";
const DAY2 = "(?:MO|TU|WE|TH|FR|SA|SU)";
// `MON-FRI`, `TUE+`, `SAT`, and the two-letter `MO-FR+` only as a range or with `+` (`SA` alone may be a sector)
const DAYS = new RegExp(`^(?:${DAY}(?:-${DAY})?\\+?|${DAY2}-${DAY2}\\+?|${DAY2}\\+)$`);
const WEEKDAY: Record<string, number> = { SU: 0, MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6 };
/** Words that may follow the hours in a name: a frequency, `(FIS)`, `nighttime`. */
const TRAILER = /^(\d{3}\.\d{1,3}|FIS|NIGHTTIME)$/;
const HOURS_WORD = /^(H24|HX|NOTAM|LT|UTC|\d{4}-\d{4})$/;
/** A NOTAM word after these is about something else (`UPPER LIMIT BY NOTAM`, `activable … sur NOTAM`). */
const NOT_ACTIVATION = /^(BY|SUR|PAR|PER|VIA)$/;
// `LS-R39B PC-24 (siehe NOTAM)`: "see NOTAM" is activation by NOTAM

/** The hours written as the last words of a name, or undefined when the name ends otherwise. */
export function hoursFromName(name: string): AipHours | undefined {
  const words = name.toUpperCase().trim().split(/\s+/);
  const tail: string[] = [];
  let i = words.length - 1;
  for (; i > 0; i--) {
    const w = words[i]!.replace(/^\(|\)$/g, "").replace(/,$/, "");
    if (TRAILER.test(w) && tail.length === 0) continue;
    if (TRAILER.test(w) && /^\d/.test(w)) continue; // `ATZ-LOW COCHSTEDT 131.130 NOTAM`
    if ((w === "|" || w === "/") && tail.length > 0) continue; // `LF-R171 BELFORT (NOTAM | MON-FRI)`
    if (!(DAYS.test(w) || HOURS_WORD.test(w))) break;
    tail.unshift(w);
  }
  if (tail.length === 0 || i < 0) return notamInBrackets(name);
  if (NOT_ACTIVATION.test(words[i] ?? "")) return undefined;
  const text = words.slice(i + 1).join(" ");
  return interpret(tail, text, "name");
}

/** `LF-R201A2 NAVARRENX (NOTAM | SAUF SDJF)`, `ZRT SALBRIS (NOTAM) SAUF WE&JF`: NOTAM in brackets, words after it. */
function notamInBrackets(name: string): AipHours | undefined {
  const m = /\(([^()]*\bNOTAM\b[^()]*)\)/i.exec(name);
  if (!m || /\b(BY|SUR|PAR|LIMIT|FL)\b[^()]*\bNOTAM\b/i.test(m[1]!)) return undefined;
  return { text: m[0], from: "name", kind: "notam" };
}

/** Hours stated in remarks as an AIP writes them (a phrase of days and times), or undefined. */
export function hoursFromRemarks(remarks: string): AipHours | undefined {
  const upper = remarks.toUpperCase().replace(/\s+/g, " ");
  const phrase = new RegExp(
    `\\b(H24|HX|${DAY}(?:-${DAY})?(?:,? ${DAY}(?:-${DAY})?)*\\+?(?:,? \\d{4} ?- ?\\d{4})+(?: ?\\(?(?:LT|UTC|UT|LOCAL TIME)\\)?)?)(?=$|[ .,;)])`,
  ).exec(upper);
  if (!phrase?.[1]) return undefined;
  const words = phrase[1]
    .replace(/ ?- ?(?=\d{4})/g, "-")
    .replace(/LOCAL TIME/, "LT")
    .replace(/\bUT\b/, "UTC")
    .split(/[\s,()]+/)
    .filter((w) => w !== "");
  const hours = interpret(words, phrase[1], "remarks");
  if (hours?.kind === "weekly" && hours.clock === "utc" && /(1|ONE) HR EARLIER (IN|DURING) SUMMER/.test(upper)) {
    return { ...hours, clock: "utcWinter", text: `${hours.text}, 1 HR EARLIER IN SUMMER` };
  }
  return hours;
}

function interpret(tail: readonly string[], text: string, from: AipHours["from"]): AipHours | undefined {
  const days = tail.filter((w) => DAYS.test(w));
  const times = tail.filter((w) => /^\d{4}-\d{4}$/.test(w)).map(minutes);
  if (times.some((t) => t === undefined)) return undefined;
  const plusNotam = days.some((d) => d.endsWith("+"));
  if (tail.includes("NOTAM")) return { text, from, kind: "notam" };
  if (tail.includes("H24") && days.length === 0) return { text, from, kind: "h24" };
  if (days.length === 0) return tail.includes("HX") && times.length === 0 ? { text, from, kind: "unknown" } : undefined;
  const weekdays = [...new Set(days.flatMap(expand))].sort((a, b) => a - b);
  return {
    text,
    from,
    kind: "weekly",
    weekdays,
    ...(times.length > 0 ? { times: times as Array<[number, number]> } : {}),
    // days without times are local days (DAeC: German AIP days); times are UTC unless the text says LT
    clock: times.length === 0 || tail.includes("LT") ? "local" : "utc",
    ...(tail.includes("HX") ? { hoursUnknown: true } : {}),
    ...(plusNotam ? { plusNotam } : {}),
  };
}

function expand(token: string): number[] {
  const [a, b] = token.replace("+", "").split("-") as [string, string | undefined];
  const from = WEEKDAY[a.slice(0, 2)]!;
  const to = b === undefined ? from : WEEKDAY[b.slice(0, 2)]!;
  const out: number[] = [];
  for (let d = from; ; d = (d + 1) % 7) {
    out.push(d);
    if (d === to) break;
  }
  return out;
}

function minutes(range: string): [number, number] | undefined {
  const [s, e] = range.split("-").map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(2))) as [number, number];
  if (s >= 24 * 60 || e > 24 * 60 || Number(range.slice(2, 4)) > 59 || Number(range.slice(7, 9)) > 59) return undefined;
  return [s, e === 23 * 60 + 59 ? 24 * 60 : e];
}
