// The object store port (STYLE habit 14): the local folder, memory and S3 implement it.
// Keys are bucket keys relative to the store's prefix (`v1/objects/…`), with `/` separators.
import { createHash } from "node:crypto";

export interface PutOptions {
  contentType?: string;
  contentEncoding?: string;
  cacheControl?: string;
}

/** What a conditional write expects to find: the object's current `etag` (from `head`), or no object (`absent`). */
export interface PutExpectation {
  etag?: string;
  absent?: boolean;
}

/** `unsupported`: the store cannot compare-and-swap (it would ignore the condition); nothing was written. */
export type ConditionalPut = "written" | "conflict" | "unsupported";

export interface ObjectStore {
  /** The object's bytes, or undefined when it does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  /** Writes the whole object atomically: a reader sees the old bytes or the new, never a mix. */
  put(key: string, body: Buffer, options?: PutOptions): Promise<void>;
  /** Whether the object exists, its size and, where the store has one, its ETag (opaque, compare for equality). */
  head(key: string): Promise<{ size: number; etag?: string } | undefined>;
  /** Keys under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
  delete(key: string): Promise<void>;
  /**
   * Compare-and-swap for the pointer (docs/design.md §5): writes only when the object's ETag is still `expected.etag`,
   * or when `expected.absent` and there is no object. Stores without it fall back to a lock object.
   */
  putIfMatch?(key: string, body: Buffer, options: PutOptions, expected: PutExpectation): Promise<ConditionalPut>;
  /** A name for messages: `file:///…/artifacts`, `s3://bucket/prefix`. */
  readonly url: string;
}

/** A store failure that says which key and operation, with the adapter's error as cause. */
export class StoreError extends Error {
  override readonly name = "StoreError";
  constructor(
    readonly operation: "get" | "put" | "head" | "list" | "delete",
    readonly key: string,
    options: { cause: unknown },
  ) {
    super(`${operation} ${key} failed`, options);
  }
}

/** The ETag of stores that have none of their own: a quoted SHA-256 of the content. */
export function contentEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("hex")}"`;
}

/** Exactly one of `etag` and `absent: true`; anything else is a programmer error. */
export function checkExpectation(expected: PutExpectation): { etag: string } | { absent: true } {
  if (expected.absent === true && expected.etag === undefined) return { absent: true };
  if (expected.etag !== undefined && expected.absent !== true) return { etag: expected.etag };
  throw new TypeError(
    `putIfMatch expected: needs exactly one of \`etag\` or \`absent: true\`, received ${JSON.stringify(expected)}`,
  );
}

/** Whether an object with this ETag (undefined: no object) satisfies the expectation. */
export function expectationHolds(expected: { etag: string } | { absent: true }, current: string | undefined): boolean {
  return "absent" in expected ? current === undefined : current === expected.etag;
}
