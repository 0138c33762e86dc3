// Why a feature has its state, in the words `airspace-publisher explain` uses: the origin's `/explain.json` answers
// a token holder with the live version's `because`; the page keeps its own wording when there is none.

/**
 * The `because` of feature `id` in `version` of `day` (today or tomorrow), or undefined (another version is live, or
 * the origin has none).
 */
export async function explanation(
  id: string,
  version: string,
  token: string,
  day: "today" | "tomorrow" = "today",
): Promise<string | undefined> {
  const r = await fetch(`/explain.json?id=${encodeURIComponent(id)}&day=${day}`, {
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (!r?.ok) return undefined;
  const why = (await r.json().catch(() => undefined)) as { version?: string; because?: string } | undefined;
  return why?.version === version && typeof why.because === "string" ? why.because : undefined;
}
