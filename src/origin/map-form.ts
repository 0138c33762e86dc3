// The map page's compact form of a country's features (issue 24): for each feature what the page draws, filters
// and searches by, and its rings in Web Mercator quantised to 2^-26 of the world (0.6 m at the equator) as Int32
// deltas; the whole properties stay in the GeoJSON, which the page fetches per country for a popup. The origin
// writes one frame per country from its fragment, and ends an answer with END (a cut answer is then told from a
// whole one). No Node API here: the page decodes with the same module.
import type { Feature } from "../model/contract.js";
import { feet, intervalsOf, isObstacle } from "../model/feature-facts.js";

/** Changes when the encoding does (origins' ETags name it). */
export const MAP_FORM_VERSION = 1;
/** "AMF1" and "AMFE" little-endian: a frame's and the answer's end's first word. */
const FRAME = 0x31464d41;
const END = 0x45464d41;
const HEAD = 20;
const UNITS = 2 ** 26;

/** How a feature's outline and fill are drawn (its dynamicStyle), shared between features styled alike. */
export interface MapStyle {
  fillColor: string;
  lineColor: string;
  lineWidth: number;
  dash: number[];
  direction: string;
}

/** What the page keeps of a feature: enough to style, filter, search and find its properties again. */
export interface MapFeature {
  id: string;
  name: string;
  /** The country whose collection holds the feature's whole properties. */
  country: string;
  type: number;
  activationType: string;
  category: string;
  obstacle: boolean;
  isActive: string;
  lowerFt: number;
  upperFt: number;
  priority: number;
  style: MapStyle | undefined;
  /** Activation times and schedule rows as epoch ms [start, end, start, end, …]. */
  intervals: number[];
}

/** Rings of a frame's features in Web Mercator (0–1 across the world), with ring and feature ends and boxes. */
export interface Packed {
  /** x0, y0, x1, y1, … of every ring, one feature after another. */
  coords: Float64Array;
  /** Where each ring ends in `coords`. */
  ringEnds: Uint32Array;
  /** Where each feature's rings end in `ringEnds`. */
  featureEnds: Uint32Array;
  /** minX, minY, maxX, maxY of each feature. */
  boxes: Float64Array;
}

export const mercX = (lon: number): number => (lon + 180) / 360;
export const mercY = (lat: number): number => {
  const s = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};

/** A feature in a frame's JSON: its words as indexes into `words`, intervals in `unit` ms from `base`. */
type Row = [
  id: string,
  name: string,
  type: number,
  activationType: number,
  category: number,
  obstacle: 0 | 1,
  isActive: number,
  lowerFt: number,
  upperFt: number,
  priority: number,
  style: number,
  intervals: number[],
];

interface FrameHead {
  country: string;
  styles: MapStyle[];
  /** Activation types, categories and isActive values, once each. */
  words: string[];
  /** Epoch ms the intervals count from, and their unit in ms (a minute when every bound is on one). */
  base: number;
  unit: number;
  rows: Row[];
}

/** A feature's summary, without its country. */
export function summaryOf(f: Pick<Feature, "properties">): Omit<MapFeature, "country"> {
  const p = f.properties;
  const m = p.vendor.dynamicAirspaceMapping;
  const s = m.dynamicStyle;
  return {
    id: p._id,
    name: p.name,
    type: p.type,
    activationType: m.activationType,
    category: p.featureCategory,
    obstacle: isObstacle(f),
    isActive: m.isActive,
    lowerFt: feet(p.lowerLimit),
    upperFt: feet(p.upperLimit),
    priority: s?.priority ?? 0,
    style: s && {
      fillColor: s.fillColor,
      lineColor: s.lineColor,
      lineWidth: s.lineWidth,
      dash: s.lineDasharray,
      direction: s.polygonPaintDirection,
    },
    intervals: distinctPairs(intervalsOf(f).flatMap((i) => [Date.parse(i.start), Date.parse(i.end)])),
  };
}

/** [start, end, …] without a pair seen before (an activation time is often a schedule row too). */
function distinctPairs(flat: number[]): number[] {
  const out: number[] = [];
  outer: for (let i = 0; i < flat.length; i += 2) {
    for (let j = 0; j < out.length; j += 2) if (out[j] === flat[i] && out[j + 1] === flat[i + 1]) continue outer;
    out.push(flat[i]!, flat[i + 1]!);
  }
  return out;
}

const polygonsOf = (f: Pick<Feature, "geometry">) =>
  f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;

/** A feature's bounding box as one closed ring: the shape `shapes=boxes` gives (the page draws from tiles then). */
function boxOf(f: Pick<Feature, "geometry">): number[][][][] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygonsOf(f))
    for (const ring of polygon)
      for (const [x, y] of ring) {
        [w, s] = [Math.min(w, x!), Math.min(s, y!)];
        [e, n] = [Math.max(e, x!), Math.max(n, y!)];
      }
  return [
    [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  ];
}

/**
 * One country's frame: header words, the summaries as JSON (padded to 4 bytes), deltas, ring and feature ends.
 * `boxes`: each feature's rings are its bounding box alone (the summaries and boxes of a page that draws tiles).
 */
export function encodeMapFrame(country: string, features: readonly Feature[], boxes = false): Uint8Array {
  const shapes = features.map(boxes ? boxOf : polygonsOf);
  const styles: MapStyle[] = [];
  const styleIndex = new Map<string, number>();
  const words: string[] = [];
  const wordIndex = new Map<string, number>();
  const word = (w: string) => {
    const k = wordIndex.get(w) ?? words.push(w) - 1;
    wordIndex.set(w, k);
    return k;
  };
  const summaries = features.map(summaryOf);
  const bounds = summaries.flatMap((s) => s.intervals);
  const base = bounds.length === 0 ? 0 : bounds.reduce((m, t) => Math.min(m, Math.floor(t / 60_000) * 60_000));
  const unit = bounds.every((t) => t % 60_000 === 0) ? 60_000 : 1;
  const rows = summaries.map((s): Row => {
    let k = -1;
    if (s.style) {
      const key = JSON.stringify(s.style);
      k = styleIndex.get(key) ?? styles.push(s.style) - 1;
      styleIndex.set(key, k);
    }
    const intervals = s.intervals.map((t) => (t - base) / unit);
    return [
      ...([s.id, s.name, s.type, word(s.activationType), word(s.category), s.obstacle ? 1 : 0] as const),
      ...([word(s.isActive), s.lowerFt, s.upperFt, s.priority, k, intervals] as const),
    ];
  });
  const head: FrameHead = { country, styles, words, base, unit, rows };
  const json = new TextEncoder().encode(JSON.stringify(head));
  let points = 0;
  let rings = 0;
  for (const shape of shapes)
    for (const polygon of shape)
      for (const ring of polygon) {
        points += ring.length;
        rings++;
      }
  const jsonPadded = (json.length + 3) & ~3;
  const out = new Uint8Array(HEAD + jsonPadded + 8 * points + 4 * rings + 4 * features.length);
  const view = new DataView(out.buffer);
  for (const [i, w] of [FRAME, json.length, points, rings, features.length].entries()) view.setUint32(4 * i, w, true);
  out.set(json, HEAD);
  let at = HEAD + jsonPadded;
  let ringAt = at + 8 * points;
  let featureAt = ringAt + 4 * rings;
  let [px, py, coord, ring] = [0, 0, 0, 0];
  for (const shape of shapes) {
    for (const polygon of shape)
      for (const r of polygon) {
        for (const point of r) {
          const x = Math.round(mercX(point[0]!) * UNITS);
          const y = Math.round(mercY(point[1]!) * UNITS);
          view.setInt32(at, x - px, true);
          view.setInt32(at + 4, y - py, true);
          [px, py, at, coord] = [x, y, at + 8, coord + 2];
        }
        view.setUint32(ringAt, coord, true);
        [ringAt, ring] = [ringAt + 4, ring + 1];
      }
    view.setUint32(featureAt, ring, true);
    featureAt += 4;
  }
  return out;
}

/** The answer's last bytes, after every frame: END and the number of frames. */
export function mapEnd(frames: number): Uint8Array {
  const out = new Uint8Array(8);
  const words = new DataView(out.buffer);
  words.setUint32(0, END, true);
  words.setUint32(4, frames, true);
  return out;
}

export interface MapFrame {
  features: MapFeature[];
  packed: Packed;
}

export class MapFormError extends Error {
  override readonly name = "MapFormError";
}

/** Every frame of a whole answer, checked: a missing end, a cut frame or a wrong word is a MapFormError. */
export function decodeMapForm(bytes: Uint8Array): MapFrame[] {
  const reader = new MapFormReader();
  reader.push(bytes);
  return reader.end();
}

/** Decodes an answer as it arrives: each frame as soon as its last byte is in. */
export class MapFormReader {
  readonly frames: MapFrame[] = [];
  private buffer = new Uint8Array(0);
  /** Bytes in `buffer` not yet decoded. */
  private held = 0;
  /** Bytes decoded before `buffer`'s start. */
  private consumed = 0;
  /** The number of frames the end word tells, once read. */
  private told: number | undefined;

  push(chunk: Uint8Array): void {
    if (this.held + chunk.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.held + chunk.length, 2 * this.buffer.length, 1 << 16));
      grown.set(this.buffer.subarray(0, this.held));
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.held);
    this.held += chunk.length;
    this.drain();
  }

  /** The frames of the whole answer; throws when it is cut off, over-long or short of frames. */
  end(): MapFrame[] {
    if (this.told === undefined)
      throw new MapFormError(`the answer is cut off after ${this.consumed + this.held} bytes`);
    if (this.held > 0) throw new MapFormError("the answer has bytes after its end");
    if (this.told !== this.frames.length)
      throw new MapFormError(`the answer ends after ${this.frames.length} of ${this.told} frames`);
    return this.frames;
  }

  private drain(): void {
    const bytes = this.buffer.subarray(0, this.held);
    const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    while (this.told === undefined && at + 8 <= bytes.length) {
      const word = words.getUint32(at, true);
      if (word === END) {
        this.told = words.getUint32(at + 4, true);
        at += 8;
        break;
      }
      if (word !== FRAME) throw new MapFormError(`no map frame at byte ${this.consumed + at}`);
      if (at + HEAD > bytes.length) break;
      const [jsonBytes, points, rings, count] = [4, 8, 12, 16].map((k) => words.getUint32(at + k, true)) as [
        number,
        number,
        number,
        number,
      ];
      const size = HEAD + ((jsonBytes + 3) & ~3) + 8 * points + 4 * rings + 4 * count;
      if (at + size > bytes.length) break;
      this.frames.push(frameAt(bytes, at, jsonBytes, points, rings, count));
      at += size;
    }
    this.buffer.copyWithin(0, at, this.held);
    this.held -= at;
    this.consumed += at;
  }
}

function frameAt(bytes: Uint8Array, at: number, jsonBytes: number, points: number, rings: number, count: number) {
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(at + HEAD, at + HEAD + jsonBytes))) as FrameHead;
  const { words, base, unit } = head;
  if (head.rows.length !== count) throw new MapFormError(`${head.country}: ${head.rows.length} rows for ${count}`);
  const features = head.rows.map(
    ([id, name, type, activationType, category, obstacle, isActive, lowerFt, upperFt, priority, style, intervals]) => ({
      id,
      name,
      country: head.country,
      type,
      activationType: words[activationType]!,
      category: words[category]!,
      obstacle: obstacle === 1,
      isActive: words[isActive]!,
      lowerFt,
      upperFt,
      priority,
      style: head.styles[style],
      intervals: intervals.map((t) => base + t * unit),
    }),
  );
  // copied out of the answer's bytes: Int32Array needs an offset that is a multiple of 4
  let from = at + HEAD + ((jsonBytes + 3) & ~3);
  const aligned = (n: number) => {
    const copy = new Uint8Array(n);
    copy.set(bytes.subarray(from, from + n));
    from += n;
    return copy.buffer;
  };
  const deltas = new Int32Array(aligned(8 * points));
  const ringEnds = new Uint32Array(aligned(4 * rings));
  const featureEnds = new Uint32Array(aligned(4 * count));
  const coords = new Float64Array(2 * points);
  const boxes = new Float64Array(4 * count);
  const scale = 1 / UNITS;
  let [x, y, c, r] = [0, 0, 0, 0];
  for (let i = 0; i < count; i++) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    const end = featureEnds[i]! > rings ? rings : featureEnds[i]!;
    const stop = end === 0 ? 0 : Math.min(ringEnds[end - 1]!, 2 * points);
    for (; c < stop; c += 2) {
      x += deltas[c]!;
      y += deltas[c + 1]!;
      const mx = x * scale;
      const my = y * scale;
      coords[c] = mx;
      coords[c + 1] = my;
      if (mx < x0) x0 = mx;
      if (my < y0) y0 = my;
      if (mx > x1) x1 = mx;
      if (my > y1) y1 = my;
    }
    r = end;
    boxes[4 * i] = x0;
    boxes[4 * i + 1] = y0;
    boxes[4 * i + 2] = x1;
    boxes[4 * i + 3] = y1;
  }
  if (r !== rings || c !== 2 * points) throw new MapFormError(`${head.country}: ring or feature ends disagree`);
  return { features, packed: { coords, ringEnds, featureEnds, boxes } };
}
