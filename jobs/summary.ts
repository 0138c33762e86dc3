// The short human summary `publish` prints after its one-line result: what was published per country and per
// activation type, how the NOTAM and AUP sources stood, what was skipped, where the files are and how to look.
import { ACTIVATION_TYPES } from "../src/model/vocab.js";
import type { RunReport } from "../src/report.js";
import { describeSources } from "../src/report.js";

export function summaryLines(report: RunReport, store: string): string[] {
  const lines: string[] = [];
  const countries = Object.entries(report.countries).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [cc, c] of countries) {
    const what = `${plural(c.airspaces, "airspace")}, ${plural(c.graphicalNotams, "graphical NOTAM")}`;
    // how many answers rest on evidence and how many on a default (src/resolve/basis.ts)
    const basis = c.decided ? ` (${c.decided.evidence} by evidence, ${c.decided.default} by default)` : "";
    lines.push(
      `  ${cc}  ${String(c.features).padStart(6)} ${c.features === 1 ? "feature" : "features"}: ${what}${basis}`,
    );
  }
  const types = Object.entries(report.activity.activationType).sort(([a], [b]) => rank(a) - rank(b));
  lines.push(`  activation: ${types.map(([t, n]) => `${n} ${t}`).join(", ")}`);
  const active = report.activity.isActive;
  lines.push(`  isActive now: ${["Yes", "No", "Unknown"].map((k) => `${active[k] ?? 0} ${k}`).join(", ")}`);
  if (report.notams) {
    lines.push(
      `  NOTAMs: ${report.notams.read} read, ${report.notams.onTheDay} on the day, ${report.notams.linked} linked ` +
        `to airspaces, ${report.notams.features} drawn as their own features`,
    );
  }
  lines.push(`  sources: ${describeSources(report.sourceStates)}`);
  const skippedFiles = report.diagnostics.byCode["input.skipped"] ?? 0;
  const skippedRecords = report.records.skipped;
  if (skippedFiles + skippedRecords > 0) {
    const files = `${plural(skippedFiles, "file")} that ${skippedFiles === 1 ? "is" : "are"} not data`;
    lines.push(`  skipped: ${files}, ${plural(skippedRecords, "record")} (see the run report)`);
  }
  const local = !/^s3:\/\//.test(store);
  if (local) {
    lines.push(`  files: ${store}/v1/current.json → ${report.manifest}`);
    lines.push(
      `  look at it: npx airspace-publisher serve --store ${store} --dev   (prints the map page's URL, token included)`,
    );
  }
  return lines;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** docs/contract.md §2.7's order: active, inactive, activated, the NOTAM features, the rest. */
const rank = (t: string) => (ACTIVATION_TYPES as readonly string[]).indexOf(t);
