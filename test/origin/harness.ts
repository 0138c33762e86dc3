// A published sample store (both tiers), a token file with one token per scope, and the origin on a free
// loopback port, in this process; `request` gives raw bytes (no automatic decompression).
import http from "node:http";
import path from "node:path";
import { main } from "../../jobs/cli.js";
import { type Origin, type ServeFlags, startOrigin } from "../../jobs/commands/serve.js";
import { io } from "../cli/io.js";
import { FIXTURES, tempDir } from "../helpers.js";

export const DATE = "2026-09-14";
export const NOW = `${DATE}T10:00:00Z`;

export interface Published {
  store: string;
  tokensFile: string;
  dynamicToken: string;
  staticToken: string;
}

export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const t = io();
  const code = await main(args, t.io);
  return { code, out: t.out(), err: t.err() };
}

/** fixtures/sample published for DATE with the static tier, and two tokens. */
export async function publishSample(): Promise<Published> {
  const store = tempDir("origin-store-");
  const r = await cli([
    "publish",
    ...["--airspaces", path.join(FIXTURES, "sample"), "--date", DATE, "--now", NOW],
    ...["--store", store, "--static", "--tiles", "--quiet"],
  ]);
  if (r.code !== 0) throw new Error(r.err);
  const tokensFile = path.join(tempDir("origin-tokens-"), "tokens.json");
  const token = async (scope: string) => {
    const c = await cli(["tokens", "create", "--tokens", tokensFile, "--scope", scope, "--name", `test ${scope}`]);
    if (c.code !== 0) throw new Error(c.err);
    return c.out.trim();
  };
  return { store, tokensFile, dynamicToken: await token("dynamic"), staticToken: await token("static") };
}

export interface Running extends Origin {
  log: () => string[];
  warnings: () => string;
}

/** The origin on `flags`; `now` its wall clock (a test moves it on past the 5 s a day's pointer is kept). */
export async function serve(
  flags: Partial<ServeFlags> & { store: string; tokens: string },
  now: () => number = Date.now,
): Promise<Running> {
  const t = io();
  t.io.now = now;
  const origin = await startOrigin({ port: "0", ...flags }, t.io);
  return {
    ...origin,
    log: () => t.out().split("\n").filter(Boolean),
    warnings: () => t.err(),
  };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function request(
  base: string,
  target: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: target, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
