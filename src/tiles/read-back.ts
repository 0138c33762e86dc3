// A PMTiles archive read back with npm's reader (`pmtiles`), its tiles decoded with `@mapbox/vector-tile`: the origin
// answers a tile from it, and check.ts holds an archive to the features it was built from.
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import {
  bytesToHeader,
  Compression,
  type Header,
  PMTiles,
  type RangeResponse,
  type Source,
  tileIdToZxy,
} from "pmtiles";

/** Where an archive's bytes are read: a whole buffer, or ranges of a stored object. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

export interface Archive {
  header: Header;
  metadata: unknown;
  /** Tile z/x/y as stored (compressed as `header.tileCompression` says); undefined where the archive has none. */
  raw(z: number, x: number, y: number): Promise<Uint8Array | undefined>;
  /** Tile z/x/y decoded; undefined where the archive has none. */
  tile(z: number, x: number, y: number): Promise<VectorTile | undefined>;
}

/** The archive `read` gives bytes of, its header and metadata read (a malformed archive is refused here). */
export async function openArchive(read: ReadRange | Uint8Array, key = "archive"): Promise<Archive> {
  const range: ReadRange =
    read instanceof Uint8Array ? async (offset, length) => read.subarray(offset, offset + length) : read;
  // the buffers read from the tile data: the raw reader hands them on as stored, and gunzips only directories
  const tileData = new WeakSet<ArrayBuffer>();
  let dataAt = Number.POSITIVE_INFINITY;
  const source: Source = {
    getKey: () => key,
    getBytes: async (offset, length): Promise<RangeResponse> => {
      const b = await range(offset, length);
      const data = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
      if (offset >= dataAt) tileData.add(data);
      return { data };
    },
  };
  const inflate = async (buf: ArrayBuffer, c: Compression): Promise<ArrayBuffer> => {
    if (c === Compression.None || c === Compression.Unknown) return buf;
    if (c !== Compression.Gzip) throw new Error(`compression ${c} is not read here (gzip only)`);
    const out = gunzipSync(new Uint8Array(buf));
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  };
  // the reader's default is the browser's DecompressionStream; here zlib
  const p = new PMTiles(source, undefined, inflate);
  const header = await p.getHeader();
  dataAt = header.tileDataOffset;
  const metadata = await p.getMetadata();
  const reader = new PMTiles(source, undefined, async (buf, c) => (tileData.has(buf) ? buf : inflate(buf, c)));
  const raw = async (z: number, x: number, y: number) => {
    const r = await reader.getZxy(z, x, y);
    return r ? new Uint8Array(r.data) : undefined;
  };
  return {
    header,
    metadata,
    raw,
    async tile(z, x, y) {
      const r = await p.getZxy(z, x, y);
      return r ? new VectorTile(new PbfReader(new Uint8Array(r.data))) : undefined;
    },
  };
}

/** Where a tile lies in an archive's bytes. */
export interface TileEntry {
  z: number;
  x: number;
  y: number;
  /** From the start of the archive. */
  offset: number;
  length: number;
}

/** An archive's header, read from its first 127 bytes by the pmtiles package. */
export const headerOf = (bytes: Uint8Array): Header =>
  bytesToHeader(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 127) as ArrayBuffer);

/** Every tile an archive addresses (runs expanded), in TileId order: what a patch (patch.ts) copies or rewrites. */
export function tileEntries(bytes: Uint8Array): TileEntry[] {
  const header = headerOf(bytes);
  const out: TileEntry[] = [];
  const walk = (offset: number, length: number, depth: number): void => {
    if (depth > 3) throw new Error("the archive's directories are nested more than three deep");
    for (const e of readDirectory(gunzipSync(bytes.subarray(offset, offset + length)))) {
      if (e.runLength === 0) walk(header.leafDirectoryOffset + e.offset, e.length, depth + 1);
      else
        for (let k = 0; k < e.runLength; k++) {
          const [z, x, y] = tileIdToZxy(e.tileId + k);
          out.push({ z, x, y, offset: header.tileDataOffset + e.offset, length: e.length });
        }
    }
  };
  walk(header.rootDirectoryOffset, header.rootDirectoryLength, 0);
  return out;
}

/** A directory's entries, as pmtiles/pmtiles.ts serialiseDirectory writes them (the reader keeps its own private). */
function readDirectory(b: Uint8Array): Array<{ tileId: number; offset: number; length: number; runLength: number }> {
  let at = 0;
  const varint = (): number => {
    let [n, scale] = [0, 1];
    for (;;) {
      const byte = b[at++]!;
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
    }
  };
  const count = varint();
  const entries = Array.from({ length: count }, () => ({ tileId: 0, offset: 0, length: 0, runLength: 0 }));
  let id = 0;
  for (const e of entries) e.tileId = id += varint();
  for (const e of entries) e.runLength = varint();
  for (const e of entries) e.length = varint();
  for (const [i, e] of entries.entries()) {
    const v = varint();
    const prev = entries[i - 1];
    e.offset = v === 0 && prev ? prev.offset + prev.length : v - 1;
  }
  return entries;
}
