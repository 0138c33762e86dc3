// The chunks of each country's fragments this process serialised last (an in-process memo, like the normalisation's
// in read-stage.ts): by the SHA-256 of a chunk's JSON, its deflated JSON, its deflated OpenAir and its features'
// OpenAir block counts; and by place, each chunk's feature objects, digest and JSON lengths. `watch` derives again on
// every change; a changed NOTAM then writes, validates and deflates the chunk it is in, not its country's other chunks
// (a country of 28 000 features: 224 chunks). Deflate is deterministic, so a chunk taken from here is byte for byte
// what serialising it again gives. Only chunks whose features all passed the contract are kept.
import { createHash } from "node:crypto";
import type { Feature } from "../model/contract.js";
import type { Piece } from "./gzip.js";

export interface MemoChunk {
  json: Piece;
  openair: Piece;
  /** OpenAir blocks per feature of the chunk. */
  counts: readonly number[];
}

/** One chunk as laid out: its features (the objects), its JSON's digest, and each feature's JSON length. */
export interface LaidChunk {
  features: readonly Feature[];
  digest: string;
  lengths: readonly number[];
}

export interface Generation {
  byDigest: ReadonlyMap<string, MemoChunk>;
  laid: readonly LaidChunk[];
  /** The SHA-256 of the collection made of them (its manifest entry's). */
  sha256: string;
}

/** Per country, tier and day (the stage cache's folder): its last serialisation's chunks. */
const last = new Map<string, Generation>();

export const chunkDigest = (chunk: Uint8Array): string => createHash("sha256").update(chunk).digest("base64");

export function memoChunks(key: string): ReadonlyMap<string, MemoChunk> | undefined {
  return last.get(key)?.byDigest;
}

/** `key`'s last serialisation: its chunks by digest and by place, and the SHA-256 of the collection they made. */
export function laidChunks(key: string): Generation | undefined {
  return last.get(key);
}

/** The chunks of `key` serialised now, in place of those before. */
export function keepChunks(key: string, generation: Generation): void {
  last.set(key, generation);
}

/** As a new process starts: the next serialisation deflates every chunk. */
export function forgetChunks(): void {
  last.clear();
}

/** The collection's features digest from its chunks' digests (src/client/digest.ts says how a client computes it). */
export function featuresDigestOf(digests: readonly string[]): string {
  const hash = createHash("sha256");
  for (const d of digests) hash.update(Buffer.from(d, "base64"));
  return hash.digest("hex");
}
