// The S3 store: `s3://bucket/prefix`, on AWS or any S3-compatible server (`endpoint`). Every command runs in our
// own retry loop (the SDK's retries are off) with a timeout per try, and SDK errors become StoreErrors here.
import { randomBytes } from "node:crypto";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { errorName, httpStatus, type RetryOptions, retry } from "./retry.js";
import {
  type ConditionalPut,
  checkExpectation,
  type ObjectStore,
  type PutExpectation,
  type PutOptions,
  StoreError,
} from "./store.js";

export interface S3StoreOptions {
  /**
   * An S3-compatible server (`http://127.0.0.1:4568`). With it the client addresses buckets by path and sends
   * checksums only where an operation requires them (docs/design.md §5). @default AWS S3
   */
  endpoint?: string;
  /** @default the SDK's chain (`AWS_REGION`, `~/.aws/config`) */
  region?: string;
  /** @default the SDK's chain (environment, shared files, SSO, instance roles) */
  credentials?: S3ClientConfig["credentials"];
  /** Tries per command, the first included. @default 5 */
  maxAttempts?: number;
  /** Limit of one try, ms: the request and reading the whole answer. @default 30000 */
  timeoutMs?: number;
  /** Waits between tries (full jitter; see retry.ts). @default {baseMs: 100, maxMs: 5000} */
  backoff?: Partial<Pick<RetryOptions, "baseMs" | "maxMs" | "random" | "sleep">>;
  /** Told about each failed try that will be retried (the job logs it). */
  onRetry?: (info: { operation: StoreError["operation"]; key: string; attempt: number; error: unknown }) => void;
  /** Keys per listing page (MaxKeys). @default the server's (1000 on AWS S3) */
  listPageSize?: number;
  /** A ready client, used as it is (`endpoint`, `region` and `credentials` are then ignored). */
  client?: S3Client;
}

type Try<T> = (signal: AbortSignal, attempt: number) => Promise<T>;
const PROBE_BODY = Buffer.from("conditional write probe\n");

export class S3Store implements ObjectStore {
  readonly url: string;
  readonly bucket: string;
  /** The key prefix with its trailing `/`, or "" for the bucket's root. */
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly retryOptions: Partial<RetryOptions>;
  private readonly onRetry: S3StoreOptions["onRetry"];
  private readonly listPageSize: number | undefined;
  /** Whether the server honours If-Match / If-None-Match, probed once on the first conditional write. */
  private conditional: Promise<boolean> | undefined;

  constructor(url: string, options: S3StoreOptions = {}) {
    const m = /^s3:\/\/([^/]+)\/*(.*?)\/*$/.exec(url);
    if (!m?.[1]) throw new TypeError(`S3Store url: expected s3://bucket[/prefix], received "${url}"`);
    this.bucket = m[1];
    this.prefix = m[2] ? `${m[2]}/` : "";
    this.url = `s3://${this.bucket}${this.prefix ? `/${this.prefix.slice(0, -1)}` : ""}`;
    this.retryOptions = {
      ...options.backoff,
      attempts: options.maxAttempts ?? 5,
      timeoutMs: options.timeoutMs ?? 30_000,
    };
    this.onRetry = options.onRetry;
    this.listPageSize = options.listPageSize;
    this.client = options.client ?? new S3Client(clientConfig(options));
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await this.run("get", key, async (abortSignal) => {
        const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }), {
          abortSignal,
        });
        const bytes = await res.Body?.transformToByteArray();
        return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.alloc(0);
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new StoreError("get", key, { cause: err });
    }
  }

  async put(key: string, body: Buffer, options: PutOptions = {}): Promise<void> {
    try {
      await this.run("put", key, (abortSignal) =>
        this.client.send(this.putCommand(key, body, options), { abortSignal }),
      );
    } catch (err) {
      throw new StoreError("put", key, { cause: err });
    }
  }

  async head(key: string): Promise<{ size: number; etag?: string } | undefined> {
    try {
      const res = await this.run("head", key, (abortSignal) =>
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }), { abortSignal }),
      );
      return { size: res.ContentLength ?? 0, ...(res.ETag ? { etag: res.ETag } : {}) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new StoreError("head", key, { cause: err });
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    try {
      do {
        const input = {
          Bucket: this.bucket,
          Prefix: this.key(prefix),
          ContinuationToken: token,
          ...(this.listPageSize ? { MaxKeys: this.listPageSize } : {}),
        };
        const page = await this.run("list", prefix, (abortSignal) =>
          this.client.send(new ListObjectsV2Command(input), { abortSignal }),
        );
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(this.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (err) {
      throw new StoreError("list", prefix, { cause: err });
    }
    return keys.sort();
  }

  async delete(key: string): Promise<void> {
    try {
      await this.run("delete", key, (abortSignal) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }), { abortSignal }),
      );
    } catch (err) {
      if (!isNotFound(err)) throw new StoreError("delete", key, { cause: err });
    }
  }

  async putIfMatch(key: string, body: Buffer, options: PutOptions, expected: PutExpectation): Promise<ConditionalPut> {
    const want = checkExpectation(expected);
    if (!(await this.conditionalWrites())) return "unsupported";
    const condition = "absent" in want ? { IfNoneMatch: "*" } : { IfMatch: want.etag };
    let retried = false;
    try {
      await this.run("put", key, (abortSignal, attempt) => {
        retried = attempt > 1;
        return this.client.send(this.putCommand(key, body, options, condition), { abortSignal });
      });
      return "written";
    } catch (err) {
      if (isPreconditionFailed(err) || ("etag" in want && isNotFound(err))) {
        // A try that timed out may have landed before the retry found its own write: the bytes tell.
        if (retried && (await this.get(key))?.equals(body)) return "written";
        return "conflict";
      }
      if (isNotImplemented(err)) {
        this.conditional = Promise.resolve(false);
        return "unsupported";
      }
      throw new StoreError("put", key, { cause: err });
    }
  }

  /** Some servers (s3rver) ignore the conditional headers and overwrite: writing the same new key twice shows it. */
  private conditionalWrites(): Promise<boolean> {
    this.conditional ??= this.probe().catch((err: unknown) => {
      this.conditional = undefined;
      throw err;
    });
    return this.conditional;
  }

  private async probe(): Promise<boolean> {
    const key = `internal/probe/conditional-write-${randomBytes(8).toString("hex")}`;
    const once = () =>
      this.run("put", key, (abortSignal) =>
        this.client.send(this.putCommand(key, PROBE_BODY, {}, { IfNoneMatch: "*" }), { abortSignal }),
      );
    try {
      await once();
      await once();
      return false;
    } catch (err) {
      // The key is new, so a refusal on either write (a retried first one included) means the header was honoured.
      if (isPreconditionFailed(err)) return true;
      if (isNotImplemented(err)) return false;
      throw new StoreError("put", key, { cause: err });
    } finally {
      // The probe object is internal and tiny; failing to remove it must not fail the write that asked.
      await this.delete(key).catch(() => undefined);
    }
  }

  private putCommand(key: string, body: Buffer, o: PutOptions, condition = {}): PutObjectCommand {
    return new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.key(key),
      Body: body,
      ContentLength: body.length,
      ContentType: o.contentType,
      ContentEncoding: o.contentEncoding,
      CacheControl: o.cacheControl,
      ...condition,
    });
  }

  private key(key: string): string {
    return `${this.prefix}${key}`;
  }

  /** One command under retry, each try with its own timeout covering the whole answer, body included. */
  private run<T>(operation: StoreError["operation"], key: string, fn: Try<T>): Promise<T> {
    const onRetry = ({ attempt, error }: { attempt: number; error: unknown }) =>
      this.onRetry?.({ operation, key, attempt, error });
    return retry((attempt, signal) => fn(signal, attempt), { ...this.retryOptions, onRetry });
  }
}

function clientConfig(o: S3StoreOptions): S3ClientConfig {
  return {
    maxAttempts: 1,
    ...(o.region ? { region: o.region } : {}),
    ...(o.credentials ? { credentials: o.credentials } : {}),
    ...(o.endpoint
      ? {
          endpoint: o.endpoint,
          forcePathStyle: true,
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        }
      : {}),
  };
}

const named = (err: unknown, ...names: string[]): boolean => names.includes(errorName(err));

/** A missing object, not a missing bucket (a HEAD answer has no body to tell them apart). */
function isNotFound(err: unknown): boolean {
  return !named(err, "NoSuchBucket") && (httpStatus(err) === 404 || named(err, "NoSuchKey", "NotFound"));
}
/** 412, or 409 ConditionalRequestConflict: another conditional write to the key won. */
function isPreconditionFailed(err: unknown): boolean {
  return httpStatus(err) === 412 || named(err, "PreconditionFailed", "ConditionalRequestConflict");
}
function isNotImplemented(err: unknown): boolean {
  return httpStatus(err) === 501 || named(err, "NotImplemented");
}
