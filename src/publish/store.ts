// The object store port (STYLE habit 14): the local folder and, later, S3 implement it.
// Keys are bucket keys relative to the store's prefix (`v1/objects/…`), with `/` separators.

export interface PutOptions {
  contentType?: string;
  contentEncoding?: string;
  cacheControl?: string;
}

export interface ObjectStore {
  /** The object's bytes, or undefined when it does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  /** Writes the whole object atomically: a reader sees the old bytes or the new, never a mix. */
  put(key: string, body: Buffer, options?: PutOptions): Promise<void>;
  /** Whether the object exists (and its size). */
  head(key: string): Promise<{ size: number } | undefined>;
  /** Keys under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
  delete(key: string): Promise<void>;
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
