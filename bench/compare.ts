// Compares the live versions of two stores feature by feature: how many features changed isActive or
// activationType, grouped by transition and by the decision-table rule before and after (from the explanations).
// The backtest of a rule change: publish the same inputs with the old and the new code, then
//   node dist/bench/compare.js <old store> <new store> [--list N] [--json]

import { readExplanations } from "../src/publish/explanations.js";
import { LocalStore } from "../src/publish/local-store.js";
import { currentManifest, readEurope } from "../src/publish/read-back.js";

interface Side {
  version: string;
  features: Map<string, { isActive: string; activationType: string; name: string; country: string }>;
  rules: Map<string, string>;
}

async function load(dir: string): Promise<Side> {
  const store = new LocalStore(dir, () => Date.now());
  const manifest = await currentManifest(store);
  if (!manifest) throw new Error(`${dir}: nothing published`);
  const fc = await readEurope(store, manifest);
  const explanations = await readExplanations(store, manifest.version);
  const features = new Map<string, { isActive: string; activationType: string; name: string; country: string }>();
  for (const f of fc.features) {
    const p = f.properties;
    features.set(p._id, {
      isActive: p.vendor.dynamicAirspaceMapping.isActive,
      activationType: p.vendor.dynamicAirspaceMapping.activationType,
      name: p.name,
      country: p.country,
    });
  }
  const rules = new Map(Object.entries(explanations?.features ?? {}).map(([id, e]) => [id, e.rule]));
  return { version: manifest.version, features, rules };
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
  if (!a || !b) throw new Error("usage: compare <old store> <new store> [--list N] [--json]");
  const [before, after] = await Promise.all([load(a), load(b)]);
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
