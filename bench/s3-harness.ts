// For tests and the S3 benchmark: a real s3rver on loopback, and a real HTTP proxy in front of a server that
// counts requests and can misbehave on cue: answer 503/429, wait before answering, stall a body halfway, drop
// the connection, or honour If-Match / If-None-Match on PUT (no server that honours them installs here;
// docs/design.md §7), so the conditional paths run over real HTTP.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, openSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";

export const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const REGION = "us-east-1";

/** A started S3-compatible server on loopback. */
export interface S3Server {
  name: "s3rver" | "swift";
  endpoint: string;
  credentials: typeof CREDENTIALS;
  /** Its data folder. */
  dir: string;
  close(): Promise<void>;
}

/** A plain SDK client straight at a server, for looking behind the store's back. */
export function rawClient(endpoint: string, credentials = CREDENTIALS): S3Client {
  return new S3Client({
    endpoint,
    region: REGION,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

// s3rver 3.7 encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node >= 17) only has in
// its legacy provider: without it every truncated listing answers 500 InternalError. So it runs in a child node
// with --openssl-legacy-provider; it is still the real server.
// s3rver's deleteObject removes a key's directory once it is empty, racing with a put into that directory (real S3
// has no directories): the put's write stream then fails with ENOENT as an unhandled 'error' event that would end
// the whole server. It is kept alive instead; that request gets no answer, and the client's per-try timeout and
// retry deal with it as with any lost request.
const CHILD = `
process.on("uncaughtException", (e) => console.error("s3rver: request lost (" + e.code + "), server kept running"));
const [, mod, dir, bucket] = process.argv;
const S3rver = require(mod);
new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] })
  .run().then((a) => process.stdout.write(a.port + "\\n"), (e) => { console.error(e); process.exit(1); });
`;

/** s3rver on a free port with `bucket`; its own messages go to the file `log` where given, else to this stderr. */
export async function startS3rver(bucket: string, log?: string): Promise<S3Server> {
  const dir = mkdtempSync(path.join(tmpdir(), "s3rver-"));
  const mod = createRequire(import.meta.url).resolve("s3rver");
  const stderr = log ? openSync(log, "w") : "inherit";
  const child = spawn(process.execPath, ["--openssl-legacy-provider", "-e", CHILD, mod, dir, bucket], {
    stdio: ["ignore", "pipe", stderr],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const [line] = await Promise.race([
    once(createInterface({ input: child.stdout! }), "line") as Promise<string[]>,
    exited.then(() => Promise.reject(new Error(`s3rver exited with ${child.exitCode} before listening`))),
  ]);
  const close = async () => {
    if (child.exitCode === null) child.kill();
    await exited;
  };
  return { name: "s3rver", endpoint: `http://127.0.0.1:${line}`, credentials: CREDENTIALS, dir, close };
}

export type Fault =
  | { kind: "status"; status: number; code: string }
  | { kind: "delay"; ms: number }
  | { kind: "stall-body"; ms: number }
  | { kind: "drop" };

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Bytes of the request body. */
  bytes: number;
  fault?: Fault["kind"];
}

export class FaultProxy {
  /** Faults for the next requests, one each, in order; requests not matching `only` pass untouched. */
  readonly faults: Fault[] = [];
  only: (r: Seen) => boolean = () => true;
  /** When set, PUTs with If-Match / If-None-Match are checked against the object's ETag (HEAD upstream first). */
  honourConditions = false;
  readonly seen: Seen[] = [];
  endpoint = "";
  private readonly server: http.Server;
  private readonly target: URL;
  private readonly client: S3Client;

  constructor(target: string, credentials = CREDENTIALS) {
    this.target = new URL(target);
    this.client = rawClient(target, credentials);
    this.server = http.createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.client.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  reset(): void {
    this.faults.length = 0;
    this.seen.length = 0;
    this.only = () => true;
    this.honourConditions = false;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = Buffer.concat(await req.toArray());
    const seen: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, bytes: body.length };
    this.seen.push(seen);
    const fault = this.only(seen) ? this.faults.shift() : undefined;
    if (fault) seen.fault = fault.kind;
    if (fault?.kind === "drop") return void req.socket.destroy();
    if (fault?.kind === "status") return void errorAnswer(res, fault.status, fault.code);
    if (fault?.kind === "delay") await sleep(fault.ms);
    if (this.honourConditions && req.method === "PUT") {
      const etag = await this.currentEtag(req.url ?? "");
      const ifMatch = req.headers["if-match"];
      const ifNone = req.headers["if-none-match"];
      if ((ifNone === "*" && etag) || (ifMatch !== undefined && ifMatch !== etag)) {
        return void errorAnswer(res, 412, "PreconditionFailed");
      }
    }
    const up = await this.forward(req, body);
    const payload = Buffer.concat(await up.toArray());
    if (res.destroyed) return;
    res.writeHead(up.statusCode ?? 502, up.headers);
    if (fault?.kind === "stall-body" && payload.length > 1) {
      res.write(payload.subarray(0, 1));
      await sleep(fault.ms);
      if (res.destroyed) return;
    }
    res.end(fault?.kind === "stall-body" ? payload.subarray(1) : payload);
  }

  /** The ETag of the object a path-style URL names, asked of the server with a client of our own (own signature). */
  private async currentEtag(url: string): Promise<string | undefined> {
    const [, bucket = "", ...key] = new URL(url, this.target).pathname.split("/").map(decodeURIComponent);
    try {
      return (await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key.join("/") }))).ETag;
    } catch (err) {
      if ((err as { name?: string }).name === "NotFound") return undefined;
      throw err;
    }
  }

  private forward(req: http.IncomingMessage, body: Buffer): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const up = http.request(
        { host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers: req.headers },
        resolve,
      );
      up.on("error", reject);
      up.end(body);
    });
  }
}

function errorAnswer(res: http.ServerResponse, status: number, code: string): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>injected</Message></Error>`;
  res.writeHead(status, { "content-type": "application/xml", "content-length": Buffer.byteLength(xml) });
  res.end(xml);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const sha256 = (b: Buffer): string => createHash("sha256").update(b).digest("hex");
