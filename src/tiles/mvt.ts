// A geojson-vt tile as an MVT (Mapbox Vector Tile 2.1), byte for byte what @maplibre/vt-pbf's fromGeojsonVt writes
// (test/tiles/archive.test.ts compares them), with its key and value tables in Maps: vt-pbf keys its value table by
// `typeof value + ":" + value` in a plain object, which was 16 % of the Europe-scale build and most of its garbage
// (the Europe-scale build's profile, 2026-12-02: 3.2 s of property writing in vt-pbf, 1.1 s here).
import type { GeoJSONVTFeature } from "@maplibre/geojson-vt";
import { PbfWriter } from "pbf";

type Value = string | number | boolean;

interface Table {
  keys: string[];
  keyAt: Map<string, number>;
  values: Value[];
  strings: Map<string, number>;
  numbers: Map<number, number>;
  booleans: Map<boolean, number>;
}

/** Layers (name → features, as geojson-vt gives them) as one MVT of version 2. */
export function encodeTile(layers: ReadonlyArray<[string, readonly GeoJSONVTFeature[]]>, extent: number): Uint8Array {
  const out = new PbfWriter();
  for (const [name, features] of layers) out.writeMessage(3, writeLayer, { name, features, extent });
  return out.finish();
}

function writeLayer(l: { name: string; features: readonly GeoJSONVTFeature[]; extent: number }, pbf: PbfWriter): void {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, l.name);
  pbf.writeVarintField(5, l.extent);
  const t: Table = {
    keys: [],
    keyAt: new Map(),
    values: [],
    strings: new Map(),
    numbers: new Map(),
    booleans: new Map(),
  };
  for (const f of l.features) pbf.writeMessage(2, writeFeature, { f, t });
  for (const k of t.keys) pbf.writeStringField(3, k);
  for (const v of t.values) pbf.writeMessage(4, writeValue, v);
}

function writeFeature({ f, t }: { f: GeoJSONVTFeature; t: Table }, pbf: PbfWriter): void {
  if (typeof f.id === "number" && !Number.isNaN(f.id)) pbf.writeVarintField(1, f.id);
  pbf.writeMessage(2, writeProperties, { tags: f.tags ?? {}, t });
  pbf.writeVarintField(3, f.type);
  pbf.writeMessage(4, writeGeometry, f);
}

function writeProperties({ tags, t }: { tags: Record<string, unknown>; t: Table }, pbf: PbfWriter): void {
  for (const key in tags) {
    const raw = tags[key];
    if (raw === null || raw === undefined) continue;
    let k = t.keyAt.get(key);
    if (k === undefined) {
      k = t.keys.push(key) - 1;
      t.keyAt.set(key, k);
    }
    pbf.writeVarint(k);
    const value: Value =
      typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? raw : JSON.stringify(raw);
    const cache = (typeof value === "string" ? t.strings : typeof value === "number" ? t.numbers : t.booleans) as Map<
      Value,
      number
    >;
    let v = cache.get(value);
    if (v === undefined) {
      v = t.values.push(value) - 1;
      cache.set(value, v);
    }
    pbf.writeVarint(v);
  }
}

const command = (cmd: number, length: number) => (length << 3) + (cmd & 7);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

function writeGeometry(f: GeoJSONVTFeature, pbf: PbfWriter): void {
  const rings = f.type === 1 ? [f.geometry] : f.geometry;
  let x = 0;
  let y = 0;
  for (const ring of rings) {
    pbf.writeVarint(command(1, f.type === 1 ? ring.length : 1));
    const last = ring[ring.length - 1]!;
    const closed = f.type === 3 && ring.length > 1 && last[0] === ring[0]![0] && last[1] === ring[0]![1];
    const count = closed ? ring.length - 1 : ring.length;
    for (let i = 0; i < count; i++) {
      if (i === 1 && f.type !== 1) pbf.writeVarint(command(2, count - 1));
      const p = ring[i]!;
      pbf.writeVarint(zigzag(p[0] - x));
      pbf.writeVarint(zigzag(p[1] - y));
      x = p[0];
      y = p[1];
    }
    if (f.type === 3) pbf.writeVarint(command(7, 1));
  }
}

function writeValue(value: Value, pbf: PbfWriter): void {
  if (typeof value === "string") pbf.writeStringField(1, value);
  else if (typeof value === "boolean") pbf.writeBooleanField(7, value);
  else if (value % 1 !== 0) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}
