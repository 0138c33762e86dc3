// A loopback proxy in front of a real origin that can alter what passes (a test's stand-in for the network between
// app and service): each answer's body is read whole (asked in identity) and given to `alter`, which returns it as
// is, changed, or `cut` (the head promises the whole body, half of it is sent, the socket closes).
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export type Alter = (path: string, body: Buffer) => Buffer | "cut";

export async function proxy(
  origin: string,
  alter: { current: Alter },
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(origin);
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, "accept-encoding": "identity" };
    const up = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (r) => {
        const parts: Buffer[] = [];
        r.on("data", (d: Buffer) => parts.push(d));
        r.on("end", () => {
          let body: Buffer | "cut";
          try {
            body = alter.current(req.url ?? "/", Buffer.concat(parts));
          } catch {
            // an alteration that cannot be made (the answer is not what the test expected): the answer fails at once
            return void res.destroy();
          }
          const rest = { ...r.headers };
          for (const h of ["content-length", "content-encoding", "transfer-encoding", "connection", "etag"])
            delete rest[h];
          const whole = body === "cut" ? Buffer.concat(parts) : body;
          res.writeHead(r.statusCode ?? 502, { ...rest, "content-length": whole.length });
          if (body !== "cut") return void res.end(whole);
          res.write(whole.subarray(0, whole.length >> 1), () => res.socket?.destroy());
        });
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
