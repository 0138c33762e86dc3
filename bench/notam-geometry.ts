// Per state, the NOTAMs of ../shared/data/notam whose Item E holds three coordinates or more, and how many of them are
// drawn as the Q-line circle (issue 57's corpus figure), by the geometry of this build or of another:
//   node dist/bench/notam-geometry.js [--build <other checkout>/dist/src] [--list]
// Writes bench/out/notam-geometry.json (or -<label>.json with --label) and prints a Markdown table.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countryOfIcao } from "../src/geo/icao-prefixes.js";
import { notamKey } from "../src/model/notam.js";
import type * as Geometry from "../src/notam/geometry.js";
import { readNotamSource } from "../src/notam/read.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATA = process.env.SHARED_DATA ?? path.resolve(ROOT, "..", "shared", "data");

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const build = at("--build");
  const label = at("--label") ?? (build ? "other" : "this");
  const g = (await import(
    build ? path.resolve(build, "notam", "geometry.js") : "../src/notam/geometry.js"
  )) as typeof Geometry;
  const dir = path.join(DATA, "notam");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(jsonl|txt|xml)(\.gz)?$/.test(f) && !path.basename(f).startsWith("itemD_"))
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .sort();
  const seen = new Set<string>();
  const byState: Record<string, { notams: number; qLine: number }> = {};
  const misses: Array<{ notam: string; file: string; why: string; itemE: string }> = [];
  for (const file of files) {
    const r = readNotamSource(readFileSync(path.join(dir, file)), file);
    for (const n of r.notams) {
      const key = `${notamKey(n)} ${n.itemE.length}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (g.parseCoordinates(n.itemE).length < 3) continue;
      const cc = countryOfIcao(n.itemA[0] ?? "") ?? (n.q ? countryOfIcao(n.q.fir) : undefined) ?? "??";
      const st = byState[cc] ?? { notams: 0, qLine: 0 };
      byState[cc] = st;
      st.notams++;
      const drawn = g.notamGeometry(n.itemE, n.q);
      if (drawn.value?.source === "itemE") continue;
      st.qLine++;
      const why = drawn.issues.map((i) => i.code.replace("notam.geometry.", "")).join("+");
      misses.push({ notam: notamKey(n), file, why, itemE: n.itemE.replace(/\s+/g, " ").slice(0, 160) });
    }
  }
  const total = Object.values(byState).reduce((s, v) => ({ notams: s.notams + v.notams, qLine: s.qLine + v.qLine }), {
    notams: 0,
    qLine: 0,
  });
  mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  const out = path.join(ROOT, "bench", "out", `notam-geometry-${label}.json`);
  writeFileSync(out, `${JSON.stringify({ build: build ?? "this", total, byState, misses }, null, 2)}\n`);
  const rows = Object.entries(byState).sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = [
    `NOTAMs with ≥ 3 coordinates in Item E (${files.length} files, ${seen.size} distinct NOTAMs), drawn as the Q-line circle (${label}):`,
    "| state | NOTAMs | Q-line circle |",
    "|---|---|---|",
    ...rows.map(([cc, v]) => `| ${cc} | ${v.notams} | ${v.qLine} (${((100 * v.qLine) / v.notams).toFixed(1)} %) |`),
    `| all | ${total.notams} | ${total.qLine} (${((100 * total.qLine) / total.notams).toFixed(1)} %) |`,
    ...(args.includes("--list") ? misses.map((m) => `  ${m.notam} [${m.why}] ${m.itemE}`) : []),
    `written to ${path.relative(process.cwd(), out)}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`notam-geometry: ${(err as Error).message}\n`);
  process.exit(1);
});
