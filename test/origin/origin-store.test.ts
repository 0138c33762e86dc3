// The origin over S3 (a real s3rver on loopback): it follows the pointer to a new version, and when the store
// goes away it keeps answering from the last good version (fragments in memory) and says so in its log.
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGION, type S3Server, startS3rver } from "../../bench/s3-harness.js";
import { FIXTURES } from "../helpers.js";
import { cli, DATE, type Published, publishSample, type Running, request, serve } from "./harness.js";

let server: S3Server;
let pub: Published;
let origin: Running;
const saved = { ...process.env };
const STORE = "s3://origin/p";

const publish = (now: string, airspaces = path.join(FIXTURES, "sample")) =>
  cli(["publish", "--airspaces", airspaces, "--date", DATE, "--now", now, "--store", STORE, "--quiet"]);

beforeAll(async () => {
  server = await startS3rver("origin");
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    AWS_REGION: REGION,
    AWS_ENDPOINT_URL_S3: server.endpoint,
  });
  pub = await publishSample(); // for its token file
  expect((await publish(`${DATE}T06:00:00Z`)).code).toBe(0);
  origin = await serve({ store: STORE, tokens: pub.tokensFile });
});
afterAll(async () => {
  await origin?.close();
  await server?.close();
  process.env = saved;
});

describe("the origin over S3", () => {
  it("follows the pointer to a new version, then keeps serving it while the store is down", async () => {
    const headers = { Authorization: `Bearer ${pub.dynamicToken}`, "Accept-Encoding": "gzip" };
    const first = await request(origin.url, "/v1/data/airspaces?countries=EUROPE", headers);
    expect(first.status).toBe(200);
    const de = path.join(FIXTURES, "pipeline", "de-mixed", "de_asp.geojson");
    const second = await publish(`${DATE}T06:15:00Z`, de);
    expect(second.code).toBe(0);
    await origin.refresh();
    const now = await request(origin.url, "/v1/data/airspaces?countries=DE", headers);
    expect(now.headers["x-data-version"]).toBe(second.out.match(/published (\S+):/)![1]);
    expect(now.headers["x-data-version"]).not.toBe(first.headers["x-data-version"]);
    const before = zlib.gunzipSync(now.body).toString();

    await server.close();
    await origin.refresh();
    expect(origin.warnings()).toMatch(/"msg":"store unreadable; still serving the last good version"/);
    const down = await request(origin.url, "/v1/data/airspaces?countries=de", headers);
    expect(down.status).toBe(200);
    expect(down.headers["x-data-version"]).toBe(now.headers["x-data-version"]);
    expect(zlib.gunzipSync(down.body).toString()).toBe(before);
  }, 60_000);
});
