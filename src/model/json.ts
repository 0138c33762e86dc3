// JSON.parse as a result instead of an exception: bad input is data (STYLE habit 6).
export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** A JSON object (or a parsed XML element): not null, not an array. */
export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

export function tryJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A path into a JSON document as people read it: `features[12].properties.lowerLimit.value`, odd keys quoted
 * (`headers["X-Api"]`); `base` goes first (`properties`, `geometry`).
 */
export function jsonPath(keys: readonly PropertyKey[], base = ""): string {
  let out = base;
  for (const k of keys) {
    if (typeof k === "number") out += `[${k}]`;
    else if (!/^[A-Za-z_$][\w$-]*$/.test(String(k))) out += `[${JSON.stringify(String(k))}]`;
    else out += out ? `.${String(k)}` : String(k);
  }
  return out;
}
