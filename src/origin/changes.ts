// `GET /v1/data/changes?countries=…&since=<version>` (docs/design.md §8): the composed change from a version the client holds
// to the live one of the same day, one member per country. Applied to the client's collection it gives the live one
// exactly. `since` = live: 304; unknown, of another day, or no longer kept: 410 (download in full).
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gunzipSync, gzipSync } from "node:zlib";
import { ChangeSet, parseVersioned, type VersionManifest } from "../model/manifest.js";
import { type Change, composeChanges } from "../publish/changes.js";
import { EUROPE } from "./countries.js";
import { type AccessLine, acceptsGzip, send } from "./http.js";
import { PROBLEMS, type Problem, problem } from "./problem.js";
import type { TierView } from "./published.js";

export const VERSION = /^\d{8}T\d{6}Z-[0-9a-f]{8}$/;
/** The longest chain walked back from the live version (a day of 15-minute runs is 96, with tomorrow's 132). */
const MAX_STEPS = 400;

export type Composed = { body: Buffer; etag: string } | { problem: Problem } | { notModified: true };

const gone = (detail: string): { problem: Problem } => ({
  problem: problem(410, "since-gone", "Gone", `${detail} Download the collection in full, then ask for changes.`),
});

/** Change sets read lately, by key (immutable objects). */
const sets = new Map<string, ChangeSet>();

async function changeSet(key: string, read: (key: string) => Promise<Buffer | undefined>) {
  const hit = sets.get(key);
  if (hit) return hit;
  const bytes = await read(key);
  if (!bytes) return undefined;
  const set = parseVersioned(ChangeSet, gunzipSync(bytes).toString("utf8"), key);
  sets.set(key, set);
  if (sets.size > 512) sets.delete(sets.keys().next().value!);
  return set;
}

/**
 * The change from `since` to `live` for `codes` (sorted published codes of `live`). `read` gets an object of the
 * store (the change sets).
 */
export async function composeFor(
  view: TierView,
  live: VersionManifest,
  since: string,
  codes: readonly string[],
  read: (key: string) => Promise<Buffer | undefined>,
): Promise<Composed> {
  if (since === live.version) return { notModified: true };
  // the versions after `since`, oldest first, walking back from the live one
  const path: VersionManifest[] = [];
  let m: VersionManifest | undefined = live;
  while (m && m.version !== since) {
    path.unshift(m);
    if (path.length > MAX_STEPS || !m.previous) {
      return gone(`Version ${since} is not one of ${live.date}'s versions before the live ${live.version}.`);
    }
    m = await view.record.manifest(m.previous);
  }
  if (!m) return gone(`Version ${since} is no longer kept.`);
  const countries: Record<string, Change & { meta: { count: unknown; tier: string }; featuresSha256?: string }> = {};
  for (const cc of codes) {
    const steps: Change[] = [];
    let before: VersionManifest = m;
    for (const v of path) {
      const now = v.countries[cc];
      const was = before.countries[cc];
      if (now?.changes && now.changes.from === before.version) {
        const set = await changeSet(now.changes.key, read);
        if (!set) return gone(`The change set of ${cc} in ${v.version} is no longer kept.`);
        steps.push(set);
      } else if (now?.sha256 !== was?.sha256) {
        return gone(`${cc} changed in ${v.version} without a change set (published before issue 23).`);
      }
      before = v;
    }
    const entry = live.countries[cc]!;
    // the digest the client's collection must have once the change is applied (issue 51)
    const digest = entry.featuresSha256 ? { featuresSha256: entry.featuresSha256 } : {};
    countries[cc] = { meta: { count: entry.count, tier: live.tier }, ...digest, ...composeChanges(steps) };
  }
  const body = Buffer.from(
    `${JSON.stringify({ schema: 1, day: live.date, from: since, to: live.version, countries })}\n`,
  );
  const etag = `"${createHash("sha256")
    .update(`${since}|${live.version}|${codes.join(",")}`)
    .digest("base64url")
    .slice(0, 32)}"`;
  return { body, etag };
}

/** `/v1/data/changes`: the composed change from `since` to the selected (live) version, JSON, gzip when accepted. */
export async function sendChanges(
  read: (key: string) => Promise<Buffer | undefined>,
  view: TierView,
  live: VersionManifest,
  codes: readonly string[],
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
  line: AccessLine,
  cache: string,
): Promise<void> {
  const since = params.getAll("since");
  if (since.length !== 1 || !VERSION.test(since[0]!)) return send(res, PROBLEMS.badSince(), line);
  const names = codes[0] === EUROPE ? Object.keys(live.countries).sort() : codes;
  const composed = await composeFor(view, live, since[0]!, names, read);
  if ("problem" in composed) return send(res, composed.problem, line);
  res.setHeader("X-Data-Version", live.version);
  res.setHeader("Cache-Control", cache);
  res.setHeader("Vary", "Accept-Encoding");
  if ("notModified" in composed) {
    res.statusCode = 304;
    return void res.end();
  }
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  const body = gzip ? gzipSync(composed.body) : composed.body;
  line.encoding = gzip ? "gzip" : "identity";
  res.setHeader("Content-Type", "application/json");
  res.setHeader("ETag", gzip ? composed.etag : `${composed.etag.slice(0, -1)}-identity"`);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  line.bytes = body.length;
  res.end(req.method === "HEAD" ? undefined : body);
}
