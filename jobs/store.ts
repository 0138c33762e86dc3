// `--store`: a directory (the default `artifacts`) or `s3://bucket/prefix`; `--s3-endpoint` (or
// AWS_ENDPOINT_URL_S3) points at an S3-compatible store. Region and credentials: the standard AWS chain.
import { LocalStore } from "../src/store/local-store.js";
import type { ObjectStore } from "../src/store/store.js";
import { UsageError } from "./usage.js";

/**
 * `warn` hears once that the Node version is past end of life, in one line, instead of the AWS SDK's eight-line
 * NodeVersionSupportWarning (the SDK drops Node 20 in January 2027; README "Set-up" names the supported versions).
 */
export async function openStore(
  store: string,
  s3Endpoint?: string,
  warn?: (line: string) => void,
): Promise<ObjectStore> {
  if (!store.startsWith("s3://")) return new LocalStore(store, () => Date.now());
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22 && process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED !== "true") {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
    // NODE_NO_WARNINGS=1 silences Node's process warnings, the SDK's among them: ours too
    if (process.env.NODE_NO_WARNINGS !== "1")
      warn?.(
        `warning: Node ${process.versions.node} is past its end of life and the AWS SDK drops it in January 2027; run on Node 24 LTS`,
      );
  }
  if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(store)) {
    throw new UsageError(`--store: expected s3://bucket[/prefix] with a valid bucket name, got "${store}"`);
  }
  const endpoint = s3Endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  if (endpoint !== undefined && !/^https?:\/\/\S+$/.test(endpoint)) {
    throw new UsageError(`--s3-endpoint: expected an http(s) URL, got "${endpoint}"`);
  }
  // the AWS SDK only when the store is S3: loading it is a sixth of a local refresh's start (180 ms)
  const { S3Store } = await import("../src/store/s3-store.js");
  return new S3Store(store, endpoint ? { endpoint } : {});
}
