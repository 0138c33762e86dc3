// The chunks of each country's fragments this process serialised last (an in-process memo, like the normalisation's
// in read-stage.ts): by the SHA-256 of a chunk's JSON, its deflated JSON, its deflated OpenAir and its features'
// OpenAir block counts. `watch` derives again on every change; a changed NOTAM then validates and deflates the chunk
// it is in, not its country's other chunks (a country of 28 000 features: 224 chunks). Deflate is deterministic, so
// a chunk taken from here is byte for byte what serialising it again gives. Only chunks whose features all passed the
// contract are kept.
import { createHash } from "node:crypto";
import type { Piece } from "./gzip.js";

export interface MemoChunk {
  json: Piece;
  openair: Piece;
  /** OpenAir blocks per feature of the chunk. */
  counts: readonly number[];
}

/** Per country, tier and day (the stage cache's folder): the chunks by digest. */
const last = new Map<string, ReadonlyMap<string, MemoChunk>>();

export const chunkDigest = (chunk: Uint8Array): string => createHash("sha256").update(chunk).digest("base64");

export function memoChunks(key: string): ReadonlyMap<string, MemoChunk> | undefined {
  return last.get(key);
}

/** The chunks of `key` serialised now, in place of those before. */
export function keepChunks(key: string, chunks: ReadonlyMap<string, MemoChunk>): void {
  last.set(key, chunks);
}

/** As a new process starts: the next serialisation deflates every chunk. */
export function forgetChunks(): void {
  last.clear();
}
