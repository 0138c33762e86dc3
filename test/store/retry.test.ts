import { describe, expect, it } from "vitest";
import { isTransient, retry } from "../../src/store/retry.js";

const transient = () => Object.assign(new Error("slow down"), { name: "SlowDown", $metadata: { httpStatusCode: 503 } });

describe("retry", () => {
  it("waits with full jitter under a doubling, capped ceiling, then returns the first success", async () => {
    const sleeps: number[] = [];
    const randoms = [0.99, 0.5, 0.99, 0.25, 0.99];
    let calls = 0;
    const r = await retry(
      async (attempt) => {
        calls++;
        if (attempt < 6) throw transient();
        return "ok";
      },
      {
        attempts: 6,
        baseMs: 100,
        maxMs: 500,
        random: () => randoms.shift()!,
        sleep: async (ms) => void sleeps.push(ms),
      },
    );
    expect(r).toBe("ok");
    expect(calls).toBe(6);
    // ceilings 100, 200, 400, 500 (capped), 500
    expect(sleeps).toEqual([99, 100, 396, 125, 495]);
  });

  it("throws the last failure when the tries run out, and stops at once on a failure that is not transient", async () => {
    let calls = 0;
    const sleep = async () => {};
    const exhausted = retry(
      async (a) => {
        calls++;
        throw Object.assign(transient(), { message: `try ${a}` });
      },
      { attempts: 3, sleep },
    );
    await expect(exhausted).rejects.toThrow("try 3");
    expect(calls).toBe(3);
    const denied = Object.assign(new Error("no"), { name: "AccessDenied", $metadata: { httpStatusCode: 403 } });
    calls = 0;
    await expect(retry(async () => ++calls && Promise.reject(denied), { sleep })).rejects.toBe(denied);
    expect(calls).toBe(1);
  });

  it("gives each try its own timeout signal and retries a try that ran over", async () => {
    const seen: string[] = [];
    const r = await retry(
      (attempt, signal) =>
        new Promise<string>((resolve, reject) => {
          if (attempt > 1) return resolve("second");
          signal.addEventListener("abort", () => reject(new Error("aborted")));
        }),
      { timeoutMs: 20, sleep: async () => {}, onRetry: ({ error }) => seen.push((error as Error).name) },
    );
    expect(r).toBe("second");
    expect(seen).toEqual(["TimeoutError"]);
  });

  it("names the option and the value it refuses", async () => {
    await expect(retry(async () => 1, { attempts: 0 })).rejects.toThrow(
      "retry option `attempts`: expected an integer >= 1, received 0",
    );
  });
});

describe("isTransient", () => {
  const status = (httpStatusCode: number, name = "X") =>
    Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });
  const code = (c: string) => Object.assign(new Error(c), { code: c });
  it.each([
    ["429", status(429), true],
    ["503 SlowDown", status(503, "SlowDown"), true],
    ["500", status(500), true],
    ["501 Not Implemented", status(501), false],
    ["400 RequestTimeout", status(400, "RequestTimeout"), true],
    ["403", status(403, "AccessDenied"), false],
    ["404", status(404, "NoSuchKey"), false],
    ["412", status(412, "PreconditionFailed"), false],
    ["ECONNRESET", code("ECONNRESET"), true],
    ["EPIPE", code("EPIPE"), true],
    ["socket hang up", new Error("socket hang up"), true],
    ["reset as a cause", new Error("wrapped", { cause: code("ECONNRESET") }), true],
    ["TypeError", new TypeError("x is not a function"), false],
    ["a string", "ECONNRESET", false],
  ])("%s → %s", (_, err, want) => {
    expect(isTransient(err)).toBe(want);
  });
});
