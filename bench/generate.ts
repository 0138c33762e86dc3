// Makes a Europe-scale airspace input from the real openAIP exports in ../shared/data/airspace:
// 40 countries × 500 airspaces = 20 000 features, rings densified to ≈ 1.2 M vertices in all.
// Features keep their real place (with a small deterministic jitter) so FIR lookups cost what they
// would; each gets the target country and a new stable `_id`. Output: one `<cc>_asp.geojson` per country.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const COUNTRIES =
  "AL AM AT AZ BA BE BG BY CH CY CZ DE DK EE ES FI FR GB GE GR HR HU IE IS IT LT LU LV MD MK NL NO PL PT RO RS SE SI SK TR".split(
    " ",
  );
export const PER_COUNTRY = 500;
export const TARGET_VERTICES = 1_200_000;

type Ring = Array<[number, number]>;
interface SourceFeature {
  type: "Feature";
  properties: Record<string, unknown>;
  geometry: { type: "Polygon"; coordinates: Ring[] };
}

/** Deterministic PRNG (mulberry32), so the generated input is the same on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function loadRealFeatures(shared: string): SourceFeature[] {
  const dirs = [path.join(shared, "airspace", "openaip-geojson"), path.join(shared, "airspace", "derived")];
  const out: SourceFeature[] = [];
  for (const dir of dirs) {
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith(".geojson")) continue;
      const fc = JSON.parse(readFileSync(path.join(e.parentPath, e.name), "utf8")) as { features: SourceFeature[] };
      for (const f of fc.features) {
        const p = f.properties;
        // the generator wants records that publish: a name, limits with a datum, a polygon
        const ok =
          f.geometry?.type === "Polygon" &&
          typeof p.name === "string" &&
          p.name !== "" &&
          (p.upperLimit as { referenceDatum?: unknown })?.referenceDatum != null &&
          (p.lowerLimit as { referenceDatum?: unknown })?.referenceDatum != null;
        if (ok) out.push(f);
      }
    }
  }
  return out;
}

/** Inserts midpoints until the ring has at least `n` positions (closing position included). */
function densify(ring: Ring, n: number): Ring {
  let r = ring;
  while (r.length < n) {
    const next: Ring = [];
    for (let i = 0; i < r.length - 1; i++) {
      const a = r[i]!;
      const b = r[i + 1]!;
      next.push(a);
      if (next.length + (r.length - 1 - i) < n) next.push([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    }
    next.push(r[r.length - 1]!);
    if (next.length === r.length) break;
    r = next;
  }
  return r;
}

export function generate(shared: string, outDir: string): { files: string[]; features: number; vertices: number } {
  const real = loadRealFeatures(shared);
  if (real.length === 0) throw new Error(`no openAIP GeoJSON features under ${shared}/airspace`);
  const realVertices = real.reduce((n, f) => n + (f.geometry.coordinates[0]?.length ?? 0), 0);
  const total = COUNTRIES.length * PER_COUNTRY;
  // scale every ring by the same factor so the size distribution stays that of the real data
  const factor = TARGET_VERTICES / total / (realVertices / real.length);
  const random = rng(20260914);
  mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  let vertices = 0;
  for (const cc of COUNTRIES) {
    const features: SourceFeature[] = [];
    for (let i = 0; i < PER_COUNTRY; i++) {
      const src = real[Math.floor(random() * real.length)]!;
      const dx = (random() - 0.5) * 0.5;
      const dy = (random() - 0.5) * 0.5;
      const ring = src.geometry.coordinates[0]!;
      const dense = densify(ring, Math.max(4, Math.round(ring.length * factor))).map(([x, y]): [number, number] => [
        Math.round((x + dx) * 1e6) / 1e6,
        Math.round((y + dy) * 1e6) / 1e6,
      ]);
      dense[dense.length - 1] = [dense[0]![0], dense[0]![1]];
      vertices += dense.length;
      features.push({
        type: "Feature",
        properties: { ...src.properties, _id: `${cc.toLowerCase()}-${i}-${String(src.properties._id)}`, country: cc },
        geometry: { type: "Polygon", coordinates: [dense] },
      });
    }
    const file = path.join(outDir, `${cc.toLowerCase()}_asp.geojson`);
    writeFileSync(file, JSON.stringify({ type: "FeatureCollection", features }));
    files.push(file);
  }
  return { files, features: total, vertices };
}
