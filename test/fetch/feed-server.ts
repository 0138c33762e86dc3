// The HTTP server of the fetch tests: 127.0.0.1, a random port, one route per way a download can go.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

export const GEOJSON = Buffer.from(
  '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"ED-R 116"}}]}',
);
export const LINES = Buffer.from('{"id":"A1234/26","e":"[ED-R 116]"}\n{"id":"A1235/26","e":"{"}\n');
export const NEWER = Buffer.from('{"type":"FeatureCollection","features":[]}');
/** The FAA NOTAM API's pages of fixtures/notam (PROVENANCE.md there: written from the API's documentation). */
const FAA = (n: number) => readFileSync(new URL(`../../fixtures/notam/faa-api-page${n}.json`, import.meta.url));
export const FAA_DATE = "Mon, 09 Feb 2026 06:10:00 GMT";

/** What the /feed.geojson route serves (tests change it), the request headers seen, bytes /big wrote. */
export const state = {
  feed: { body: GEOJSON, etag: '"v1"' } as { body: Buffer; etag: string; age?: number },
  seen: [] as http.IncomingHttpHeaders[],
  /** The query strings of the FAA routes, and whether page 2 fails. */
  faaQueries: [] as string[],
  faaPage2: "ok" as "ok" | "500" | "cut",
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
  // the FAA NOTAM API: two pages, client_id and client_secret headers required
  "/notamapi/v1/notams": (req, res) => {
    const q = new URL(req.url!, "http://x").searchParams;
    state.faaQueries.push(q.toString());
    if (req.headers.client_id !== "id-1" || req.headers.client_secret !== "secret-1") {
      return void res.writeHead(401).end('{"error":"invalid client"}');
    }
    const page = q.get("pageNum") ?? "1";
    const json = { "Content-Type": "application/json", Date: FAA_DATE };
    if (page === "2" && state.faaPage2 === "500") return void res.writeHead(503).end();
    const body = FAA(page === "2" ? 2 : 1);
    if (page === "2" && state.faaPage2 === "cut") return void res.writeHead(200, json).end(body.subarray(0, 200));
    res.writeHead(200, json).end(body);
  },
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
