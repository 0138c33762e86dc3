// Compares the live versions of two stores feature by feature: how many features changed isActive or
// activationType, grouped by transition and by the decision-table rule before and after (from the explanations).
// The backtest of a rule change: publish the same inputs with the old and the new code, then
//   node dist/bench/compare.js <old store> <new store> [--list N] [--json]
// With --every, every version of the new store is set against the version of the old one published at the same
// instant (a replay of the same snapshots): each feature whose isActive (or only its activationType) changed in any
// of them is listed once, with
// the versions, the transition, the rule before and after and the new explanation (the reason).
// With --geometry, the features whose geometry or vertical limits changed are listed instead (bench/compare-shape.ts):
// vertices and area before and after, the limits before and after.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readExplanations } from "../src/publish/explanations.js";
import { currentManifest, manifestOf, readEurope } from "../src/publish/read-back.js";
import { LocalStore } from "../src/store/local-store.js";
import { type Shape, type ShapeChange, shapeChange, shapeOf } from "./compare-shape.js";

interface Seen {
  isActive: string;
  activationType: string;
  name: string;
  country: string;
  shape: Shape;
}
interface Side {
  version: string;
  features: Map<string, Seen>;
  rules: Map<string, string>;
}

async function load(dir: string, version?: string): Promise<Side & { because: Map<string, string> }> {
  const store = new LocalStore(dir, () => Date.now());
  const manifest = version
    ? await manifestOf(store, { schema: 1, version, manifest: `v1/versions/${version}.json`, publishedAt: "" })
    : await currentManifest(store);
  if (!manifest) throw new Error(`${dir}: nothing published`);
  const fc = await readEurope(store, manifest);
  const explanations = await readExplanations(store, manifest.version);
  const features = new Map<string, Seen>();
  for (const f of fc.features) {
    const p = f.properties;
    features.set(p._id, {
      isActive: p.vendor.dynamicAirspaceMapping.isActive,
      activationType: p.vendor.dynamicAirspaceMapping.activationType,
      name: p.name,
      country: p.country,
      shape: shapeOf(f),
    });
  }
  const rules = new Map(Object.entries(explanations?.features ?? {}).map(([id, e]) => [id, e.rule]));
  const because = new Map(Object.entries(explanations?.features ?? {}).map(([id, e]) => [id, e.because]));
  return { version: manifest.version, features, rules, because };
}

/**
 * Every version of `b` against `a`'s version of the same instant: the features whose isActive or activationType
 * changed, with why.
 */
async function every(a: string, b: string, asJson: boolean, geometry: boolean): Promise<void> {
  // a version is one day's picture at one instant: from 15:00 today and tomorrow are published at the same instant
  const versions = (dir: string) =>
    readdirSync(path.join(dir, "v1", "versions"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -".json".length))
      .sort()
      .map((v) => {
        const m = JSON.parse(readFileSync(path.join(dir, "v1", "versions", `${v}.json`), "utf8")) as { date: string };
        return { v, key: `${v.split("-")[0]} ${m.date}` };
      });
  const before = new Map(versions(a).map((x) => [x.key, x.v]));
  const changed = new Map<
    string,
    { name: string; country: string; transitions: Set<string>; rules: Set<string>; versions: string[]; because: string }
  >();
  let pairs = 0;
  const shapes = new Map<string, ShapeChange & { versions: number; first: string }>();
  for (const { v, key } of versions(b)) {
    const was = before.get(key);
    if (!was) continue;
    pairs++;
    const [x, y] = await Promise.all([load(a, was), load(b, v)]);
    if (geometry) {
      for (const [id, now] of y.features) {
        const old = x.features.get(id);
        const c = old && shapeChange(id, now.name, now.country, old.shape, now.shape);
        if (!c) continue;
        const seen = shapes.get(id);
        shapes.set(id, { ...c, versions: (seen?.versions ?? 0) + 1, first: seen?.first ?? v });
      }
      continue;
    }
    for (const [id, now] of y.features) {
      const old = x.features.get(id);
      if (!old || (old.isActive === now.isActive && old.activationType === now.activationType)) continue;
      const c = changed.get(id) ?? {
        name: now.name,
        country: now.country,
        transitions: new Set<string>(),
        rules: new Set<string>(),
        versions: [],
        because: "",
      };
      c.transitions.add(
        old.isActive === now.isActive
          ? `${now.isActive}, ${old.activationType} → ${now.activationType}`
          : `${old.isActive} → ${now.isActive}`,
      );
      c.rules.add(`${x.rules.get(id) ?? "?"} → ${y.rules.get(id) ?? "?"}`);
      c.versions.push(v);
      c.because = y.because.get(id) ?? "";
      changed.set(id, c);
    }
  }
  if (geometry)
    return printShapes(`${a} → ${b}: ${pairs} versions of the same instants compared`, [...shapes.values()], asJson);
  const list = [...changed].map(([id, c]) => ({
    id,
    isActiveChanged: [...c.transitions].some((t) => !t.includes(",")),
    name: c.name,
    country: c.country,
    transitions: [...c.transitions],
    rules: [...c.rules],
    versions: c.versions.length,
    first: c.versions[0],
    because: c.because,
  }));
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ pairs, features: list.length, changed: list }, null, 2)}
`);
    return;
  }
  const active = list.filter((c) => c.isActiveChanged).length;
  const lines = [
    `${a} → ${b}: ${pairs} versions of the same instants compared; ${active} features changed isActive in any, ` +
      `${list.length - active} only their activationType`,
    ...list.map(
      (c) =>
        `  ${c.id} ${c.name} (${c.country}): ${c.transitions.join(", ")} in ${c.versions} versions from ${c.first}; ` +
        `rule ${c.rules.join(", ")}; now: ${c.because}`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

function printShapes(head: string, changes: ShapeChange[], asJson: boolean): void {
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ changed: changes.length, features: changes }, null, 2)}\n`);
    return;
  }
  const lines = [
    `${head}; ${changes.length} features changed geometry or limits`,
    ...changes.map((c) => `  ${c.id} ${c.name} (${c.country}): ${c.what}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

function tally<K>(items: readonly K[], key: (k: K) => string): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [a, b] = args.filter((x) => !x.startsWith("--") && !/^\d+$/.test(x));
  const listAt = args.indexOf("--list");
  const list = listAt >= 0 ? Number(args[listAt + 1] ?? 10) : 0;
  if (!a || !b) throw new Error("usage: compare <old store> <new store> [--list N] [--json] [--every] [--geometry]");
  const geometry = args.includes("--geometry");
  if (args.includes("--every")) return every(a, b, args.includes("--json"), geometry);
  const [before, after] = await Promise.all([load(a), load(b)]);
  if (geometry) {
    const changes = [...after.features].flatMap(([id, now]) => {
      const was = before.features.get(id);
      const c = was && shapeChange(id, now.name, now.country, was.shape, now.shape);
      return c ? [c] : [];
    });
    return printShapes(`${a} (${before.version}) → ${b} (${after.version})`, changes, args.includes("--json"));
  }
  const changed = [...after.features].flatMap(([id, now]) => {
    const was = before.features.get(id);
    if (!was || (was.isActive === now.isActive && was.activationType === now.activationType)) return [];
    const rule = `${before.rules.get(id) ?? "?"} → ${after.rules.get(id) ?? "?"}`;
    return [{ id, was, now, rule }];
  });
  const out = {
    before: before.version,
    after: after.version,
    features: after.features.size,
    onlyBefore: [...before.features.keys()].filter((id) => !after.features.has(id)).length,
    onlyAfter: [...after.features.keys()].filter((id) => !before.features.has(id)).length,
    changed: changed.length,
    byIsActive: tally(changed, (c) => `${c.was.isActive} → ${c.now.isActive}`),
    byActivationType: tally(changed, (c) => `${c.was.activationType} → ${c.now.activationType}`),
    byRule: tally(changed, (c) => c.rule),
    byCountry: tally(changed, (c) => c.now.country),
    sample: changed
      .slice(0, list)
      .map((c) => `${c.id} ${c.now.name}: ${c.was.isActive} → ${c.now.isActive} (${c.rule})`),
  };
  if (args.includes("--json")) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const lines = [
    `${a} (${out.before}) → ${b} (${out.after}): ${out.changed} of ${out.features} features changed state` +
      ` (${out.onlyBefore} only before, ${out.onlyAfter} only after)`,
    ...(["byIsActive", "byActivationType", "byRule", "byCountry"] as const).flatMap((k) => [
      `  ${k}:`,
      ...out[k].map(([t, n]) => `    ${String(n).padStart(5)}  ${t}`),
    ]),
    ...out.sample.map((s) => `  ${s}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`compare: ${(err as Error).message}\n`);
  process.exit(1);
});
