// Bearer tokens (docs/design.md §6): random, shown once, stored only as SHA-256 hashes with their scopes in a token file
// the operator manages with `airspace-publisher tokens`. A `static` token reads both tiers; a `dynamic` one the
// public tier only. Presented tokens are compared in constant time against every stored hash.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { IsoInstant } from "../model/contract.js";

export const SCOPES = ["dynamic", "static"] as const;
export type Scope = (typeof SCOPES)[number];

export const TokenEntry = z.strictObject({
  /** Public handle of the token (in `tokens list`, the access log and `tokens revoke`). */
  id: z.string().regex(/^tok_[0-9a-f]{12}$/),
  name: z.string().max(200),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  scopes: z.array(z.enum(SCOPES)).min(1),
  createdAt: IsoInstant,
  revokedAt: IsoInstant.nullable(),
});
export type TokenEntry = z.infer<typeof TokenEntry>;

export const TokenFile = z.strictObject({ schema: z.literal(1), tokens: z.array(TokenEntry) });
export type TokenFile = z.infer<typeof TokenFile>;

const PREFIX = "asp_";

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

/** A new token and its entry: the token itself is returned once and never stored. */
export function newToken(
  name: string,
  scope: Scope,
  createdAt: string,
  random: (n: number) => Buffer = randomBytes,
): { token: string; entry: TokenEntry } {
  const token = `${PREFIX}${random(32).toString("base64url")}`;
  const entry: TokenEntry = {
    id: `tok_${random(6).toString("hex")}`,
    name,
    sha256: hashToken(token),
    scopes: scope === "static" ? ["dynamic", "static"] : ["dynamic"],
    createdAt,
    revokedAt: null,
  };
  return { token, entry };
}

/** The live entry whose hash matches; every stored hash is compared, so the time does not tell which matched. */
export function verifyToken(file: TokenFile, token: string): TokenEntry | undefined {
  const presented = createHash("sha256").update(token, "utf8").digest();
  let found: TokenEntry | undefined;
  for (const entry of file.tokens) {
    const equal = timingSafeEqual(presented, Buffer.from(entry.sha256, "hex"));
    if (equal && entry.revokedAt === null) found = entry;
  }
  return found;
}

/** The token of an `Authorization: Bearer <token>` header, or why there is none. */
export function bearer(header: string | undefined): { token: string } | { missing: string } {
  if (header === undefined) return { missing: "An Authorization: Bearer <token> header is required." };
  const m = /^Bearer +([\x21-\x7e]{1,256})$/i.exec(header.trim());
  return m ? { token: m[1]! } : { missing: "The Authorization header must be Bearer <token>." };
}
