// A PMTiles v3 archive from tiles (protomaps/PMTiles spec/v3/spec.md): a 127-byte header, the root directory, the
// JSON metadata, the leaf directories, then the tile data in TileId (Hilbert) order. npm has readers (`pmtiles`) but
// no writer; this one is checked by reading every archive back with that reader (test/tiles/pmtiles.test.ts).
//
//   header(127) │ root dir │ metadata │ leaf dirs │ tile data
//   the header and the root directory within the first 16 384 bytes; directories and metadata gzip-compressed.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { zxyToTileId } from "pmtiles";

/** One tile's bytes as they are stored (an MVT, gzip-compressed: `tileCompression` says so). */
export interface Tile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export interface ArchiveOptions {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north], degrees. */
  bounds: [number, number, number, number];
  center: [number, number, number];
  /** The JSON metadata (TileJSON's `vector_layers`, name, attribution, …). */
  metadata: Record<string, unknown>;
}

/** A directory entry: `runLength` 0 points at a leaf directory. */
interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

const HEADER_BYTES = 127;
/** The header and the root directory are read in one request of this many bytes (the spec's limit). */
const ROOT_LIMIT = 16_384;
const GZIP = 2;
const MVT = 1;

/**
 * The archive as pieces (their concatenation is the file): header, directories and metadata, then the tile data.
 * Tiles with the same bytes are stored once; a run of consecutive TileIds with the same bytes is one entry.
 */
export function writeArchive(tiles: readonly Tile[], o: ArchiveOptions): { pieces: Buffer[]; bytes: number } {
  const sorted = tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), data: t.data })).sort((a, b) => a.id - b.id);
  const entries: Entry[] = [];
  const data: Buffer[] = [];
  const stored = new Map<string, { offset: number; length: number }>();
  let dataBytes = 0;
  for (const t of sorted) {
    if (t.data.length === 0) throw new Error(`tile ${t.id} is empty: a PMTiles entry's length must be > 0`);
    const digest = createHash("sha256").update(t.data).digest("base64");
    let at = stored.get(digest);
    if (!at) {
      at = { offset: dataBytes, length: t.data.length };
      stored.set(digest, at);
      data.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      dataBytes += t.data.length;
    }
    const last = entries.at(-1);
    if (last && last.offset === at.offset && last.tileId + last.runLength === t.id) last.runLength++;
    else entries.push({ tileId: t.id, offset: at.offset, length: at.length, runLength: 1 });
  }
  if (entries.length === 0) throw new Error("an archive needs at least one tile (a PMTiles directory is non-empty)");
  const { root, leaves } = directories(entries);
  const metadata = gzipSync(JSON.stringify(o.metadata));
  const rootAt = HEADER_BYTES;
  const metadataAt = rootAt + root.length;
  const leavesAt = metadataAt + metadata.length;
  const dataAt = leavesAt + leaves.length;
  const header = Buffer.alloc(HEADER_BYTES);
  header.write("PMTiles", 0, "ascii");
  header.writeUInt8(3, 7);
  const u64 = (at: number, n: number) => header.writeBigUInt64LE(BigInt(n), at);
  u64(8, rootAt);
  u64(16, root.length);
  u64(24, metadataAt);
  u64(32, metadata.length);
  u64(40, leavesAt);
  u64(48, leaves.length);
  u64(56, dataAt);
  u64(64, dataBytes);
  u64(72, sorted.length);
  u64(80, entries.length);
  u64(88, stored.size);
  header.writeUInt8(1, 96); // clustered: the data in TileId order
  header.writeUInt8(GZIP, 97);
  header.writeUInt8(GZIP, 98);
  header.writeUInt8(MVT, 99);
  header.writeUInt8(o.minZoom, 100);
  header.writeUInt8(o.maxZoom, 101);
  const e7 = (at: number, deg: number) => header.writeInt32LE(Math.round(deg * 1e7), at);
  e7(102, o.bounds[0]);
  e7(106, o.bounds[1]);
  e7(110, o.bounds[2]);
  e7(114, o.bounds[3]);
  header.writeUInt8(o.center[2], 118);
  e7(119, o.center[0]);
  e7(123, o.center[1]);
  const pieces = [header, root, metadata, leaves, ...data];
  return { pieces, bytes: dataAt + dataBytes };
}

/** The root directory alone when it fits; else leaves of `size` entries, the size doubled until the root fits. */
function directories(entries: readonly Entry[]): { root: Buffer; leaves: Buffer } {
  const whole = serialiseDirectory(entries);
  if (HEADER_BYTES + whole.length <= ROOT_LIMIT) return { root: whole, leaves: Buffer.alloc(0) };
  for (let size = 4096; ; size *= 2) {
    const leafList: Buffer[] = [];
    const rootEntries: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += size) {
      const leaf = serialiseDirectory(entries.slice(i, i + size));
      rootEntries.push({ tileId: entries[i]!.tileId, offset, length: leaf.length, runLength: 0 });
      leafList.push(leaf);
      offset += leaf.length;
    }
    const root = serialiseDirectory(rootEntries);
    if (HEADER_BYTES + root.length <= ROOT_LIMIT) return { root, leaves: Buffer.concat(leafList) };
  }
}

/** Entries as the spec writes them: count, TileId deltas, run lengths, lengths, offsets (0: right after the last). */
export function serialiseDirectory(entries: readonly Entry[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let lastId = 0;
  for (const e of entries) {
    varint(out, e.tileId - lastId);
    lastId = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  for (const [i, e] of entries.entries()) {
    const prev = entries[i - 1];
    varint(out, i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  }
  return gzipSync(Uint8Array.from(out));
}

/** An unsigned LEB128 varint (numbers up to 2^53: TileIds of zoom 26 and offsets of any archive here). */
function varint(out: number[], n: number): void {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}
