// Raw-deflate fragments that join into one gzip member (docs/design.md §5–6).
// A fragment is deflated on its own and ended with a sync flush: byte-aligned, no final block, no
// back-references before its start. So  header ‖ deflate(prefix) ‖ fragment ‖ deflate(",") ‖ fragment …
// ‖ deflate(suffix, final) ‖ CRC-32 ‖ length  is a valid single-member gzip file.
import { promisify } from "node:util";
import zlib from "node:zlib";
import { crc32Combine } from "./crc32-combine.js";

const deflateRawAsync = promisify(zlib.deflateRaw);
/** gunzip on zlib's thread pool. */
export const gunzipAsync = promisify(zlib.gunzip);

/** Compressed text with what a join needs to know of the uncompressed bytes. */
export interface Piece {
  deflated: Buffer;
  /** CRC-32 of the uncompressed bytes. */
  crc32: number;
  /** Length of the uncompressed bytes. */
  length: number;
}

const LEVEL = 6;

/**
 * CRC-32 of `data` continuing from `previous`. An empty buffer leaves the value as it is: Node 20's
 * zlib.crc32 answers 0 for an empty buffer that an async zlib call has used, whatever `previous` was.
 */
export function crc32(data: Uint8Array, previous = 0): number {
  return data.length === 0 ? previous : zlib.crc32(data, previous);
}

/** Deflates without a final block (sync flush), so more pieces may follow. */
export async function deflatePiece(raw: Buffer): Promise<Piece> {
  const deflated = await deflateRawAsync(raw, { level: LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { deflated, crc32: crc32(raw), length: raw.length };
}

/** Pieces one after the other as one piece (their deflated bytes concatenated). */
export function joinPieces(pieces: readonly Piece[]): Piece {
  let crc = 0;
  let length = 0;
  for (const p of pieces) {
    crc = crc32Combine(crc, p.crc32, p.length);
    length += p.length;
  }
  const deflated = pieces.length === 1 ? pieces[0]!.deflated : Buffer.concat(pieces.map((p) => p.deflated));
  return { deflated, crc32: crc, length };
}

export function deflatePieceSync(raw: Buffer, final: boolean): Piece {
  const deflated = zlib.deflateRawSync(raw, {
    level: LEVEL,
    finishFlush: final ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
  });
  return { deflated, crc32: crc32(raw), length: raw.length };
}

/** gzip header: magic, deflate, no flags, mtime 0, no extra flags, OS unknown (255) — fixed bytes. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);

/**
 * One gzip member from pieces; the last piece must be final (deflated with Z_FINISH).
 * `crc32` and `length` are those of the whole uncompressed text, computed by the caller
 * (chain `zlib.crc32(piece, previous)` over the uncompressed pieces in order).
 */
export function gzipMember(pieces: readonly Buffer[], crc32: number, length: number): Buffer {
  return Buffer.concat(gzipPieces(pieces, crc32, length));
}

/** The same member as a list of buffers: header, the pieces themselves (not copied), trailer. */
export function gzipPieces(pieces: readonly Buffer[], crc32: number, length: number): Buffer[] {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32 >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return [GZIP_HEADER, ...pieces, trailer];
}
