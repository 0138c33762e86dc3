// Is a downloaded body whole? Cheap, generic checks only; the readers in ingest/, notam/ and aup/ judge the
// content. A cut body must not replace a whole last-good copy: a NOTAM feed missing its tail would read as
// "nothing activates these areas" (docs/design.md §4).
import zlib from "node:zlib";
import { tryJson } from "../model/json.js";

/** JSON documents up to this size are also parsed whole; larger ones get the bracket count only. */
const JSON_PARSE_LIMIT = 16 * 1024 * 1024;

export interface BodyFacts {
  bytes: Buffer;
  /** Content-Length, when the body came as sent (no Content-Encoding). */
  contentLength?: number | undefined;
  contentType?: string | undefined;
  url: string;
}

/** Why the body is not whole (`<code>: <explanation>`), or undefined when it passes. */
export async function notWhole(body: BodyFacts): Promise<string | undefined> {
  const { bytes } = body;
  if (body.contentLength !== undefined && body.contentLength !== bytes.length) {
    return `incomplete: ${bytes.length} of ${body.contentLength} bytes (Content-Length)`;
  }
  if (bytes.length === 0) return "empty: the body has no bytes";
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const broken = await gunzipError(bytes);
    return broken === undefined ? undefined : `gzip: does not gunzip (${broken})`;
  }
  if (saysJson(body)) return jsonError(bytes);
  return undefined;
}

/** Decompresses to nowhere: integrity (deflate stream, CRC-32, length) without holding the output. */
function gunzipError(bytes: Buffer): Promise<string | undefined> {
  return new Promise((resolve) => {
    const gunzip = zlib.createGunzip();
    gunzip.on("data", () => {});
    gunzip.on("error", (e) => resolve(e.message));
    gunzip.on("end", () => resolve(undefined));
    gunzip.end(bytes);
  });
}

/** The URL or the Content-Type says one JSON document (JSON lines and sequences are not one document). */
function saysJson(body: BodyFacts): boolean {
  const type = body.contentType?.toLowerCase() ?? "";
  if (/ndjson|jsonl|json-seq|lines/.test(type)) return false;
  if (/\bjson\b/.test(type)) return true;
  try {
    return /\.(geo)?json$/i.test(new URL(body.url).pathname);
  } catch {
    return false;
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Bracket depth at the end, outside strings (negative: a stray closer). One pass, no allocation. */
function unclosed(bytes: Buffer, from: number, to: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      if (--depth < 0) return depth;
    }
  }
  return inString ? Math.max(depth, 1) : depth;
}

function jsonError(bytes: Buffer): string | undefined {
  let first = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (first < bytes.length && WHITESPACE.has(bytes[first]!)) first++;
  let last = bytes.length - 1;
  while (last > first && WHITESPACE.has(bytes[last]!)) last--;
  if (bytes[first] !== 0x7b && bytes[first] !== 0x5b) return "json: does not start with { or [";
  // `{"type":"FeatureCollection","features":[ … ]}`: a cut export lacks its final `]}`
  const open = unclosed(bytes, first, last + 1);
  if (open > 0) return `json: ends with ${open} bracket${open > 1 ? "s" : ""} still open`;
  if (open < 0) return "json: a bracket closes that was never opened";
  if (bytes.length > JSON_PARSE_LIMIT) return undefined;
  const text = bytes.toString("utf8", first, last + 1);
  const whole = tryJson(text);
  // a feed may label JSON lines as application/json: accept when every line is a document
  if (whole.ok || text.split(/\r?\n/).every((l) => l.trim() === "" || tryJson(l).ok)) return undefined;
  return `json: does not parse (${whole.reason})`;
}
