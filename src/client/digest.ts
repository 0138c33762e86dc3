// The digest a country's collection must have (docs/client.md): its features in `_id` order, in groups of 128, each
// group's JSON as published (the features comma-joined, a comma before every group but the first) digested with
// SHA-256, the 32-byte digests one after the other digested again, in hex. The publisher has each group's digest
// already (publish/chunk-memo.ts), so it states it without holding the whole text; a client computes it with WebCrypto.

/** Features per group: the publisher's chunk (publish/artifacts.ts CHUNK). */
export const GROUP = 128;

const utf8 = new TextEncoder();

/** The digest of a collection from its features' texts, in `_id` order. */
export async function featuresDigest(features: readonly string[]): Promise<string> {
  const groups = Math.max(1, Math.ceil(features.length / GROUP));
  const parts = new Uint8Array(32 * groups);
  for (let j = 0; j < groups; j++) {
    const text = features.slice(j * GROUP, (j + 1) * GROUP).join(",");
    const bytes = utf8.encode(j > 0 ? `,${text}` : text);
    parts.set(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), 32 * j);
  }
  const root = new Uint8Array(await crypto.subtle.digest("SHA-256", parts));
  return [...root].map((b) => b.toString(16).padStart(2, "0")).join("");
}
