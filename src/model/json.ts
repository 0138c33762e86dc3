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

/**
 * What turns one JSON value into another: `[value]` replaces it, an object patches the keys it names of an object
 * with the same keys in the same order. Hand-written (the reason in `jsonPatch`).
 */
export type JsonPatch = [unknown] | { [key: string]: JsonPatch };

/** An object's keys as JSON has them: those whose value is not undefined, in order. */
const jsonKeys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);

/**
 * The patch from `a` to `b`, undefined when their JSON is the same. Applied to `a` (or to `a` parsed from its
 * JSON) it gives what stringifies to `b`'s JSON byte for byte: an object whose keys differ from `a`'s, in name or
 * order, is replaced whole. RFC 6902/7386 tools append the keys they add, so their output need not be `b`'s bytes.
 */
export function jsonPatch(a: unknown, b: unknown): JsonPatch | undefined {
  if (a === b) return undefined;
  if (isRecord(a) && isRecord(b)) {
    const [ka, kb] = [jsonKeys(a), jsonKeys(b)];
    if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return [b];
    const out: Record<string, JsonPatch> = {};
    let changed = false;
    for (const k of kb) {
      const d = jsonPatch(a[k], b[k]);
      if (d === undefined) continue;
      out[k] = d;
      changed = true;
    }
    return changed ? out : undefined;
  }
  const same =
    Array.isArray(a) &&
    Array.isArray(b) &&
    a.length === b.length &&
    a.every((x, i) => jsonPatch(x, b[i]) === undefined);
  return same ? undefined : [b];
}

/** `base` with `patch` applied; undefined when the patch names a key that `base` lacks (it was made for another). */
export function patched(base: unknown, patch: JsonPatch): unknown {
  if (Array.isArray(patch)) return patch.length === 1 ? patch[0] : undefined;
  if (!isRecord(base) || !isRecord(patch)) return undefined;
  for (const k of Object.keys(patch)) if (!Object.hasOwn(base, k) || k === "__proto__") return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) {
    if (k === "__proto__") return undefined;
    const p = patch[k];
    const v = p === undefined ? base[k] : patched(base[k], p);
    if (v === undefined && p !== undefined) return undefined;
    out[k] = v;
  }
  return out;
}
