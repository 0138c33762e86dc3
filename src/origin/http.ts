// HTTP pieces every answer of the origin shares (docs/design.md §6): the access line, cache headers, RFC 9457 problems,
// whole file-like answers, content negotiation of gzip and weak entity-tag matching.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Problem } from "./problem.js";

export interface AccessLine {
  method: string;
  path: string;
  countries?: string;
  scope?: string;
  status: number;
  bytes: number;
  ms: number;
  token?: string;
  encoding?: string;
  /** The connection ended before the whole answer was sent (the client left, or the answer failed midway). */
  aborted?: true;
}

export const DATA_CACHE = "public, max-age=60, stale-while-revalidate=600";
/** For answers to a token in the URL: a shared cache must not keep them (RFC 6750 §2.3). */
export const PRIVATE_CACHE = "private, max-age=60";
export const STATUS_CACHE = "public, max-age=15";
export const ASSET_CACHE = "public, max-age=300";

/** A whole file-like answer: the map page's files, the status document. */
export function sendAsset(
  asset: { body: Buffer; type: string; cache?: string },
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
): void {
  res.setHeader("Content-Type", asset.type);
  res.setHeader("Cache-Control", asset.cache ?? ASSET_CACHE);
  res.setHeader("Content-Length", asset.body.length);
  line.bytes = asset.body.length;
  res.end(req.method === "HEAD" ? undefined : asset.body);
}

/** gzip, x-gzip or * with a quality above 0 (RFC 9110 §12.5.3). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const ok = !q || Number(q[1]) > 0;
    if (coding === "gzip" || coding === "x-gzip") return ok;
    if (coding === "*") star = ok;
  }
  return star ?? false;
}

/** If-None-Match: `*`, or a list of entity tags compared weakly (RFC 9110 §13.1.2). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => bare(t) === etag);
}

export function send(res: ServerResponse, p: Problem, line?: AccessLine): void {
  const body = Buffer.from(`${JSON.stringify(p)}\n`);
  res.statusCode = p.status;
  res.setHeader("Content-Type", "application/problem+json");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", body.length);
  if (line) line.bytes = body.length;
  res.end(res.req?.method === "HEAD" ? undefined : body);
}
