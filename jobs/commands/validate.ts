// `airspace-publisher validate <file.geojson[.gz]>`: every contract violation, one per line.
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { validateCollection } from "../../src/publish/validate.js";
import type { Io } from "../io.js";
import { UsageError } from "../usage.js";

export async function validateCommand(file: string, io: Io): Promise<number> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new UsageError(`no such file "${file}"`);
  }
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
  } catch (err) {
    io.stdout.write(`${file}: not a readable gzip file (${(err as Error).message})\n`);
    return 1;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    io.stdout.write(`${file}: not JSON (${(err as Error).message})\n`);
    return 1;
  }
  const violations = validateCollection(doc);
  for (const v of violations) {
    // `features[12].properties.lowerLimit.value: … (id v1-123) [contract.schema]`
    const where = v.feature === undefined ? v.path : `features[${v.feature}]${v.path ? `.${v.path}` : ""}`;
    const id = v.id ? ` (id ${v.id})` : "";
    io.stdout.write(`${file}: ${where ? `${where}: ` : ""}${v.message}${id} [${v.code}]\n`);
  }
  const n = (doc as { features?: unknown[] }).features?.length ?? 0;
  io.stdout.write(`${file}: ${violations.length} violation${violations.length === 1 ? "" : "s"} in ${n} features\n`);
  return violations.length === 0 ? 0 : 1;
}
