// Copies the NOTAMs that fixtures/notam-areas/labels name out of the SOFIA route briefs (../shared/data, MIT), block by
// block as the brief prints them, into fixtures/notam-areas/notams.jsonl: `{notam, brief, block}`, one per line,
// sorted. Run after adding labels: `node scripts/label-notams.mjs`.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const briefs = path.resolve(root, "..", "shared", "data", "notam", "sofia_route_briefs_2026-02");
const labels = path.join(root, "fixtures", "notam-areas", "labels");
const wanted = new Set(
  readdirSync(labels)
    .filter((f) => f.endsWith(".json"))
    .flatMap((f) => JSON.parse(readFileSync(path.join(labels, f), "utf8")).labels.map((l) => l.notam)),
);
const ID = /^\s{2,}([A-Z]{4}-[A-Z]\d{4}\/\d{2})\s*$/;
const found = new Map();
for (const brief of readdirSync(briefs)
  .filter((f) => f.endsWith(".txt.gz"))
  .sort()) {
  const lines = gunzipSync(readFileSync(path.join(briefs, brief)))
    .toString("utf8")
    .split("\n");
  for (let i = 0; i < lines.length; i++) {
    const id = ID.exec(lines[i]);
    if (!id || found.has(id[1]) || !wanted.has(id[1])) continue;
    // the block: the id line and the lines after it, blank or indented, up to the next id or a heading
    let j = i + 1;
    while (j < lines.length && !ID.test(lines[j]) && !(lines[j].trim() !== "" && !/^\s{2,}/.test(lines[j]))) j++;
    while (j > i + 1 && lines[j - 1].trim() === "") j--;
    found.set(id[1], { notam: id[1], brief, block: lines.slice(i, j).join("\n") });
  }
}
const missing = [...wanted].filter((k) => !found.has(k));
if (missing.length > 0) throw new Error(`not in the briefs: ${missing.join(", ")}`);
const out = [...found.values()].sort((a, b) => a.notam.localeCompare(b.notam));
writeFileSync(
  path.join(root, "fixtures", "notam-areas", "notams.jsonl"),
  `${out.map((r) => JSON.stringify(r)).join("\n")}\n`,
);
console.log(`${out.length} NOTAMs of ${new Set(out.map((r) => r.brief)).size} briefs`);
