// `airspace-publisher serve`: the /v1 origin over a store (docs/design.md §6). Follows the pointers and the token file
// on an interval, keeps the last good version when the store is unreachable, limits request heads and slow
// clients, and writes one JSON access line per request on stdout (warnings on stderr).
import { existsSync } from "node:fs";
import { mkdtemp, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { isoInstant } from "../../src/model/time.js";
import { ExplainView } from "../../src/origin/explain.js";
import { createHandler } from "../../src/origin/handler.js";
import type { AccessLine } from "../../src/origin/http.js";
import { PROBLEMS } from "../../src/origin/problem.js";
import { FragmentCache, TierView } from "../../src/origin/published.js";
import { newToken, type TokenFile } from "../../src/origin/tokens.js";
import type { Io } from "../io.js";
import { openStore } from "../store.js";
import { UsageError } from "../usage.js";
import { mapPage } from "../web-assets.js";
import { readTokenFile } from "./tokens.js";

export interface ServeFlags {
  store: string;
  s3Endpoint?: string;
  tokens?: string;
  port?: string;
  host?: string;
  refreshSeconds?: string;
  cacheMb?: string;
  /** Time allowed for a request's head, ms (slow clients are cut off). */
  headersTimeoutMs?: number;
  /** Loopback only: a development token is made (in --tokens, else a file of its own) and the page's URL printed with it. */
  dev?: boolean;
}

const MAX_HEADER_BYTES = 8192;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** `serve --dev`: a dynamic-scope token named "dev", added to --tokens or to a token file of its own. */
async function devToken(flags: ServeFlags, io: Io): Promise<{ file: string; token: string }> {
  if (!LOOPBACK.has(flags.host ?? "127.0.0.1")) {
    throw new UsageError(`--dev serves loopback only; drop --host ${flags.host} or --dev`);
  }
  const file = flags.tokens ?? path.join(await mkdtemp(path.join(tmpdir(), "airspace-dev-")), "tokens.json");
  const data: TokenFile = existsSync(file) ? await readTokenFile(file) : { schema: 1, tokens: [] };
  const { token, entry } = newToken("dev", "dynamic", isoInstant(io.now()));
  data.tokens.push(entry);
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  return { file, token };
}

export interface Origin {
  url: string;
  /** Re-reads pointers, status and tokens now (the interval does it on its own). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export async function startOrigin(flags: ServeFlags, io: Io): Promise<Origin> {
  if (!flags.tokens)
    throw new UsageError("serve needs --tokens FILE (create one with: airspace-publisher tokens create)");
  const port = Number(flags.port ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: expected 0–65535, got "${flags.port}"`);
  const refreshMs = Number(flags.refreshSeconds ?? 5) * 1000;
  const cacheBytes = Number(flags.cacheMb ?? 512) * 1024 * 1024;
  if (!(refreshMs > 0) || !(cacheBytes > 0)) throw new UsageError("--refresh-seconds and --cache-mb must be positive");
  const tokenPath = flags.tokens;
  let tokens: TokenFile = await readTokenFile(tokenPath);
  // mtime, size and inode: file times tick coarsely (a few ms), and a rewrite within one tick must still be seen
  const signature = async () => {
    const st = await stat(tokenPath);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  };
  let tokensSeen = await signature();
  const store = await openStore(flags.store, flags.s3Endpoint, (line) =>
    io.stderr.write(`airspace-publisher: ${line}\n`),
  );
  const cache = new FragmentCache(cacheBytes);
  const views = { dynamic: new TierView(store, "dynamic", cache), static: new TierView(store, "static", cache) };
  let status: Buffer | undefined;
  const say = (level: string, msg: string, fields: Record<string, unknown> = {}) =>
    io.stderr.write(`${JSON.stringify({ time: new Date(io.now()).toISOString(), level, msg, ...fields })}\n`);
  const warn = (msg: string, fields: Record<string, unknown> = {}) => say("warn", msg, fields);

  const refresh = async () => {
    for (const view of Object.values(views)) {
      try {
        if ((await view.refresh()) === "switched") {
          say("info", "serving", { tier: view.tier, version: view.current?.version });
          // the map page's compact form, made now rather than under the first page's request
          if (view.tier === "dynamic") {
            const started = io.now();
            const version = view.current?.version;
            void view.warmMap().then((countries) => {
              say("info", "map form ready", { tier: view.tier, version, countries, ms: io.now() - started });
            });
          }
        }
      } catch (err) {
        warn("store unreadable; still serving the last good version", {
          tier: view.tier,
          version: view.current?.version ?? null,
          error: (err as Error).name,
        });
      }
    }
    status = (await store.get("v1/status/master-features.json").catch(() => undefined)) ?? status;
    try {
      const seen = await signature();
      if (seen !== tokensSeen) {
        tokens = await readTokenFile(tokenPath);
        tokensSeen = seen;
      }
    } catch (err) {
      warn("token file unreadable; keeping the tokens read before", { error: (err as Error).message });
    }
  };
  await refresh();

  const log = (line: AccessLine) =>
    io.stdout.write(`${JSON.stringify({ time: new Date(io.now()).toISOString(), ...line })}\n`);
  const handler = createHandler({
    views,
    explanations: new ExplainView(store),
    assets: await mapPage(),
    tokens: () => tokens,
    status: () => status,
    read: (key) => store.get(key),
    clock: () => performance.now(),
    wallClock: () => io.now(),
    log,
  });
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: flags.headersTimeoutMs ?? 10_000,
      // how often Node looks for requests over their time: often enough for the limits above to hold
      connectionsCheckingInterval: Math.min(1_000, flags.headersTimeoutMs ?? 1_000),
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
    },
    handler,
  );
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return void socket.destroy();
    const p =
      err.code === "HPE_HEADER_OVERFLOW"
        ? PROBLEMS.headersTooLarge()
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? PROBLEMS.timeout()
          : PROBLEMS.badRequest();
    const body = `${JSON.stringify(p)}\n`;
    // a request the parser refused is a request too: its line has no method or path to name
    log({ method: "", path: "(unparsed)", status: p.status, bytes: Buffer.byteLength(body), ms: 0 });
    socket.end(
      `HTTP/1.1 ${p.status} ${p.title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, flags.host ?? "127.0.0.1", resolve);
  });
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  const { address, port: bound } = server.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${bound}`;
  return {
    url,
    refresh,
    close: async () => {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function serveCommand(flags: ServeFlags, io: Io): Promise<number> {
  const dev = flags.dev ? await devToken(flags, io) : undefined;
  const origin = await startOrigin(dev ? { ...flags, tokens: dev.file } : flags, io);
  io.stderr.write(`${JSON.stringify({ level: "info", msg: "listening", url: origin.url })}\n`);
  io.stderr.write(
    dev
      ? `map page: ${origin.url}/#token=${dev.token}  (development token, loopback only)\n`
      : `map page: ${origin.url}/  (it asks for a token: airspace-publisher tokens create --tokens FILE --scope dynamic)\n`,
  );
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  await origin.close();
  return 0;
}
