// One access line per request, whatever became of it (docs/design.md §6): 200 in gzip and in identity, 304, 4xx, 5xx,
// HEAD, a request the parser refuses, and a client that leaves mid-answer. Regression: the line was written on the
// response's `finish`, which an inflated (identity) answer often never reached: its client had every byte and closed
// before the origin ended the answer.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { type Published, publishSample, type Running, request, serve } from "./harness.js";

let pub: Published;
let origin: Running;
let empty: Running;
const DATA = "/v1/data/airspaces";
const auth = () => ({ Authorization: `Bearer ${pub.dynamicToken}` });
const gz = { "Accept-Encoding": "gzip" };

beforeAll(async () => {
  pub = await publishSample();
  origin = await serve({ store: pub.store, tokens: pub.tokensFile });
  empty = await serve({ store: tempDir("origin-empty-"), tokens: pub.tokensFile });
});
afterAll(async () => {
  await origin?.close();
  await empty?.close();
});

/** The lines `server` writes for what `act` asks: waits for the first, then a while for any more. */
async function linesOf(server: Running, act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const before = server.log().length;
  await act();
  for (let waited = 0; server.log().length === before && waited < 3000; waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 100));
  return server
    .log()
    .slice(before)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Sends `text` on a connection of its own and waits until the origin closes it. */
function send(base: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () => socket.write(text));
    socket.resume();
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}

/** Asks for `target` without gzip and closes the connection on the first bytes of the body. */
function leaveEarly(base: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${pub.dynamicToken}\r\n\r\n`),
    );
    socket.once("data", () => socket.destroy());
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}

describe("the access log", () => {
  it("writes one line for a 200 in gzip", async () => {
    const lines = await linesOf(origin, () => request(origin.url, `${DATA}?countries=DE`, { ...auth(), ...gz }));
    expect(lines).toEqual([expect.objectContaining({ method: "GET", status: 200, encoding: "gzip" })]);
    expect(lines[0]).not.toHaveProperty("aborted");
  });

  it("writes one line for a 200 inflated for a client without gzip, every time", async () => {
    for (let i = 0; i < 5; i++) {
      const lines = await linesOf(origin, () => request(origin.url, `${DATA}?countries=EUROPE`, auth()));
      expect(lines).toEqual([expect.objectContaining({ status: 200, encoding: "identity", countries: "EUROPE" })]);
      expect(lines[0]).not.toHaveProperty("aborted");
    }
  });

  it("writes one line for a 304", async () => {
    const { headers } = await request(origin.url, `${DATA}?countries=FR`, { ...auth(), ...gz });
    const lines = await linesOf(origin, () =>
      request(origin.url, `${DATA}?countries=FR`, { ...auth(), ...gz, "If-None-Match": headers.etag! }),
    );
    expect(lines).toEqual([expect.objectContaining({ status: 304, bytes: 0 })]);
  });

  it.each([
    ["400", `${DATA}?countries=XX`, true, 400],
    ["401", `${DATA}?countries=DE`, false, 401],
    ["404", "/v1/nothing", false, 404],
  ] as const)("writes one line for a %s", async (_, target, token, status) => {
    const lines = await linesOf(origin, () => request(origin.url, target, token ? auth() : {}));
    expect(lines).toEqual([expect.objectContaining({ status })]);
  });

  it("writes one line for a request the parser refuses: headers over 8 KiB (431), not HTTP (400)", async () => {
    const big = await linesOf(origin, () => request(origin.url, `${DATA}?countries=DE`, { "X-Big": "x".repeat(9000) }));
    expect(big).toEqual([expect.objectContaining({ method: "", path: "(unparsed)", status: 431 })]);
    const garbage = await linesOf(origin, () => send(origin.url, "HELLO\r\n\r\n"));
    expect(garbage).toEqual([expect.objectContaining({ path: "(unparsed)", status: 400 })]);
  });

  it("writes one line for a 503", async () => {
    const lines = await linesOf(empty, () => request(empty.url, `${DATA}?countries=DE`, auth()));
    expect(lines).toEqual([expect.objectContaining({ status: 503 })]);
  });

  it("writes one line for a HEAD, in gzip and in identity", async () => {
    for (const headers of [{ ...auth(), ...gz }, auth()]) {
      const lines = await linesOf(origin, () => request(origin.url, `${DATA}?countries=DE`, headers, "HEAD"));
      expect(lines).toEqual([expect.objectContaining({ method: "HEAD", status: 200 })]);
    }
  });

  it("writes one line, marked aborted, for a client that leaves before the answer is complete", async () => {
    const lines = await linesOf(origin, () => leaveEarly(origin.url, `${DATA}?countries=EUROPE`));
    expect(lines).toEqual([expect.objectContaining({ status: 200, encoding: "identity", aborted: true })]);
  });
});
