// `--store`: a directory (the default `artifacts`) or `s3://bucket/prefix`; `--s3-endpoint` (or
// AWS_ENDPOINT_URL_S3) points at an S3-compatible store. Region and credentials: the standard AWS chain.
import { LocalStore } from "../src/publish/local-store.js";
import { S3Store } from "../src/publish/s3-store.js";
import type { ObjectStore } from "../src/publish/store.js";
import { UsageError } from "./usage.js";

export function openStore(store: string, s3Endpoint?: string): ObjectStore {
  if (!store.startsWith("s3://")) return new LocalStore(store, () => Date.now());
  if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(store)) {
    throw new UsageError(`--store: expected s3://bucket[/prefix] with a valid bucket name, got "${store}"`);
  }
  const endpoint = s3Endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  if (endpoint !== undefined && !/^https?:\/\/\S+$/.test(endpoint)) {
    throw new UsageError(`--s3-endpoint: expected an http(s) URL, got "${endpoint}"`);
  }
  return new S3Store(store, endpoint ? { endpoint } : {});
}
