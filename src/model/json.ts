// JSON.parse as a result instead of an exception: bad input is data (STYLE habit 6).
export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

export function tryJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
