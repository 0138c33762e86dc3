// A PMTiles archive read back with npm's reader (`pmtiles`), its tiles decoded with `@mapbox/vector-tile`: the origin
// answers a tile from it, and check.ts holds an archive to the features it was built from.
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { Compression, type Header, PMTiles, type RangeResponse, type Source } from "pmtiles";

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
