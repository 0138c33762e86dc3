// The `countries` query parameter (docs/design.md §6): ISO 3166-1 alpha-2 codes, case-insensitive, de-duplicated and
// order-free, or EUROPE alone. Anything else is a 400 whose detail says what is published.
import { type Problem, problem } from "./problem.js";

export const EUROPE = "EUROPE";
/** Longer values are refused before they are split (all of Europe's codes take about 150 characters). */
const MAX_LENGTH = 400;

/** The codes asked for, sorted, or EUROPE; or the problem with the request. */
export function parseCountries(
  values: readonly string[],
  published: readonly string[],
): { codes: string[] } | { problem: Problem } {
  const bad = (slug: string, detail: string) => ({ problem: problem(400, slug, "Bad Request", detail) });
  // what is published, spelt out only in a refusal (a request that is answered does not pay for it)
  const list = () => `published: ${[...published, EUROPE].join(",")}`;
  if (values.length === 0) return bad("countries-missing", `The countries parameter is required (${list()}).`);
  if (values.length > 1) return bad("countries-repeated", "Give countries once, as a comma-separated list.");
  const value = values[0]!;
  if (value.length > MAX_LENGTH)
    return bad("countries-malformed", `countries is longer than ${MAX_LENGTH} characters.`);
  const items = value.split(",").map((c) => c.trim().toUpperCase());
  if (items.some((c) => !/^([A-Z]{2}|EUROPE)$/.test(c))) {
    return bad(
      "countries-malformed",
      `countries takes ISO 3166-1 alpha-2 codes separated by commas, or EUROPE (${list()}).`,
    );
  }
  const codes = [...new Set(items)].sort();
  if (codes.includes(EUROPE)) {
    return codes.length === 1 ? { codes } : bad("countries-malformed", "EUROPE stands alone: it is every country.");
  }
  const unknown = codes.filter((c) => !published.includes(c));
  if (unknown.length > 0) return bad("countries-unknown", `Not published: ${unknown.join(",")} (${list()}).`);
  return { codes };
}
