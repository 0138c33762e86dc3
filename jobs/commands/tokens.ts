// `airspace-publisher tokens create|list|revoke --tokens FILE`: the origin's bearer tokens. A new token is printed
// once; the file keeps only its SHA-256 and scopes, and is written whole (temporary file, then rename, mode 0600).
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { isoInstant } from "../../src/model/time.js";
import { newToken, SCOPES, type Scope, TokenFile } from "../../src/origin/tokens.js";
import type { Io } from "../io.js";
import { UsageError } from "../usage.js";

export async function readTokenFile(file: string): Promise<TokenFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new UsageError(`--tokens: cannot read "${file}" (create one with: airspace-publisher tokens create)`);
  }
  const parsed = TokenFile.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new UsageError(`--tokens: "${file}" is not a token file (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

async function writeTokenFile(file: string, data: TokenFile): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

export async function tokensCommand(
  action: string,
  flags: { tokens?: string; scope?: string; name?: string; id?: string },
  io: Io,
): Promise<number> {
  const file = flags.tokens;
  if (!file) throw new UsageError("tokens needs --tokens FILE");
  if (action === "create") {
    if (!SCOPES.includes(flags.scope as Scope)) throw new UsageError("tokens create needs --scope dynamic|static");
    const data = existsSync(file) ? await readTokenFile(file) : { schema: 1 as const, tokens: [] };
    const { token, entry } = newToken(flags.name ?? "", flags.scope as Scope, isoInstant(io.now()));
    data.tokens.push(entry);
    await writeTokenFile(file, data);
    io.stderr.write(`created ${entry.id} (${entry.scopes.join(", ")}); the token is shown once, keep it now:\n`);
    io.stdout.write(`${token}\n`);
    return 0;
  }
  const data = await readTokenFile(file);
  if (action === "list") {
    for (const t of data.tokens) {
      const state = t.revokedAt ? `revoked ${t.revokedAt}` : "live";
      io.stdout.write(`${t.id}\t${t.scopes.join(",")}\t${state}\tcreated ${t.createdAt}\t${t.name}\n`);
    }
    return 0;
  }
  if (action === "revoke") {
    const entry = data.tokens.find((t) => t.id === flags.id);
    if (!entry) throw new UsageError(`tokens revoke: no token with --id "${flags.id ?? ""}" in ${file}`);
    entry.revokedAt ??= isoInstant(io.now());
    await writeTokenFile(file, data);
    io.stdout.write(`revoked ${entry.id}\n`);
    return 0;
  }
  throw new UsageError(`tokens: unknown action "${action}" (create, list or revoke)`);
}
