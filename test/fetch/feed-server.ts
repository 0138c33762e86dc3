// The HTTP server of the fetch tests: 127.0.0.1, a random port, one route per way a download can go.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

export const GEOJSON = Buffer.from(
  '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"ED-R 116"}}]}',
);
export const LINES = Buffer.from('{"id":"A1234/26","e":"[ED-R 116]"}\n{"id":"A1235/26","e":"{"}\n');
export const NEWER = Buffer.from('{"type":"FeatureCollection","features":[]}');

/** What the /feed.geojson route serves (tests change it), the request headers seen, bytes /big wrote. */
export const state = {
  feed: { body: GEOJSON, etag: '"v1"' } as { body: Buffer; etag: string; age?: number },
  seen: [] as http.IncomingHttpHeaders[],
  bigWritten: 0,
};

const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
  "/feed.geojson": (req, res) => {
    if (req.headers["if-none-match"] === state.feed.etag)
      return void res.writeHead(304, { ETag: state.feed.etag }).end();
    const age = state.feed.age === undefined ? {} : { Age: String(state.feed.age) };
    res.writeHead(200, { "Content-Type": "application/geo+json", ETag: state.feed.etag, ...age }).end(state.feed.body);
  },
  "/error": (_, res) => void res.writeHead(500).end("boom"),
  "/slow-headers": (_, res) => {
    const timer = setTimeout(() => res.writeHead(200).end("late"), 5_000);
    res.on("close", () => clearTimeout(timer));
  },
  "/slow-body": (_, res) => {
    res.writeHead(200, { "Content-Length": "8" }).write("part");
    const timer = setTimeout(() => res.end("rest"), 5_000);
    res.on("close", () => clearTimeout(timer));
  },
  "/truncated": (_, res) => {
    res.writeHead(200, { "Content-Length": "1000", "Content-Type": "text/plain" });
    res.write("(A1234/26 NOTAMN", () => res.destroy());
  },
  "/big": (_, res) => {
    // 100 MiB offered in 64 KiB chunks, chunked (no Content-Length): only reading can tell it is too big
    res.writeHead(200, { "Content-Type": "text/plain" });
    state.bigWritten = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const pump = () => {
      while (state.bigWritten < 100 * 1024 * 1024 && !res.destroyed) {
        state.bigWritten += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  },
  "/big-declared": (_, res) => void res.writeHead(200, { "Content-Length": String(10 * 1024 * 1024) }).end(),
  "/broken.gz": (_, res) => {
    const gz = zlib.gzipSync(Buffer.alloc(100_000, "NOTAM "));
    res.writeHead(200, { "Content-Type": "application/gzip" }).end(gz.subarray(0, gz.length - 20));
  },
  "/cut.geojson": (_, res) => void res.writeHead(200).end(GEOJSON.subarray(0, GEOJSON.length - 2)),
  "/empty": (_, res) => void res.writeHead(200).end(),
  "/bad.json": (_, res) => void res.writeHead(200).end('{"notams":[{"id":"A1234/26",}]}'),
  "/lines": (_, res) => void res.writeHead(200, { "Content-Type": "application/json" }).end(LINES),
};

const server = http.createServer((req, res) => {
  state.seen.push(req.headers);
  const route = routes[new URL(req.url!, "http://x").pathname];
  if (route) route(req, res);
  else res.writeHead(404).end();
});
/** Starts the server; also finds a port where nothing listens, for connection errors. */
export async function startServer(): Promise<{ base: string; closedPort: number; stop: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { base, closedPort, stop };
}
