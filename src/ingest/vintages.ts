// Two vintages of one country given together (`de_asp_2022-09.geojson` and `de_asp_2025-06.geojson`) would publish
// every airspace twice, the old shape beside the new. Sources of one country are vintages of each other when most
// airspace names of the smaller one recur in the larger one; of such a pair the newer is kept (the year-month in its name, else the
// one given later) and the other dropped with one warning naming both. Sources that complement each other (a
// YAIXM airspace file and its RA(T) file, two countries) share few names and are both kept.
import type { AirspaceRecord } from "../model/airspace.js";
import type { Diagnostic } from "../model/diagnostic.js";

/** Share of the smaller source's distinct names found in the other, from which they are one country twice. */
const SAME = 0.5;
/** Sources this small (a few hand-picked airspaces) are never taken for a vintage. */
const MIN_NAMES = 10;

export interface VintageSource {
  name: string;
  records: readonly AirspaceRecord[];
  /** Declared for the source (`DE=file`); else its records' own country where most of them state one. */
  country?: string;
}

/** The indices of the sources to keep, in order, and a warning per source dropped. */
export function dropOlderVintages(sources: readonly VintageSource[]): { keep: number[]; diagnostics: Diagnostic[] } {
  const names = sources.map((s) => new Set(s.records.map((r) => comparable(r.name))));
  const countries = sources.map(countryOf);
  const dropped = new Set<number>();
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      if (dropped.has(i) || dropped.has(j)) continue;
      // only one country twice: generated or hand-made sets repeat names across countries
      if (countries[i] === undefined || countries[i] !== countries[j]) continue;
      const [few, many] = names[i]!.size <= names[j]!.size ? [names[i]!, names[j]!] : [names[j]!, names[i]!];
      const small = few.size;
      if (small < MIN_NAMES) continue;
      const common = [...few].filter((n) => many.has(n)).length;
      if (common / small < SAME) continue;
      const older = vintageOf(sources[j]!.name) < vintageOf(sources[i]!.name) ? j : i;
      const newer = older === i ? j : i;
      dropped.add(older);
      const why =
        vintageOf(sources[older]!.name) !== vintageOf(sources[newer]!.name) ? "newer by its name" : "given later";
      diagnostics.push({
        code: "airspace.vintage.duplicate",
        severity: "warning",
        source: sources[older]!.name,
        message:
          `${sources[older]!.name} and ${sources[newer]!.name} hold the same airspaces (${common} of ${small} names): ` +
          `two vintages of one country; only ${sources[newer]!.name} (${why}) is published`,
      });
    }
  }
  return { keep: sources.map((_, i) => i).filter((i) => !dropped.has(i)), diagnostics };
}

/** `ALB-NORD_2 128.950` (2022) and `ALB-NORD 2` (2025): names without frequencies, brackets and punctuation. */
const comparable = (name: string) =>
  name
    .toUpperCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/\b\d{3}[.,]\d{1,3}\b/g, " ")
    .replace(/[^A-Z0-9]+/g, "");

function countryOf(s: VintageSource): string | undefined {
  if (s.country) return s.country;
  const counts = new Map<string, number>();
  for (const r of s.records) if (r.country) counts.set(r.country, (counts.get(r.country) ?? 0) + 1);
  const [top] = [...counts].sort((a, b) => b[1] - a[1]);
  return top && top[1] * 2 > s.records.length ? top[0] : undefined;
}

/** `de_asp_2025-06.geojson` → "2025-06"; no date → "" (older than any dated one; ties go to the later source). */
function vintageOf(name: string): string {
  return (
    /(\d{4})-(\d{2})/
      .exec(name.split("/").pop() ?? name)
      ?.slice(1, 3)
      .join("-") ?? ""
  );
}
