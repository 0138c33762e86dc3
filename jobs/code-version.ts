// The digest of the running code (every file of src/ beside this one: dist/src when built, src when run from
// source), so a cache entry one build derived is never served to another (src/publish/stage-cache.ts). Read once.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let digest: string | undefined;

export function codeVersion(): string {
  if (digest) return digest;
  const src = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src");
  const hash = createHash("sha256");
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(js|ts|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(`${path.relative(src, file)}\0`).update(readFileSync(file));
  digest = hash.digest("hex");
  return digest;
}
