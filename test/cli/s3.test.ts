// publish and explain against a real s3rver on loopback, through the CLI as a process: the same
// command an operator runs against a bucket (credentials and region from the AWS environment).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS, REGION, startS3rver } from "../../bench/s3-harness.js";
import { FIXTURES, ROOT } from "../helpers.js";

const cli = path.join(ROOT, "dist/jobs/cli.js");
let server: Awaited<ReturnType<typeof startS3rver>>;

beforeAll(async () => {
  if (!existsSync(cli)) spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT });
  server = await startS3rver("artifacts");
});
afterAll(async () => server?.close());

/** A user's shell: without what a CLI run in this process may have set (the SDK's warning switched off). */
const env = () => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => k !== "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED" && k !== "NODE_NO_WARNINGS",
    ),
  ),
  AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
  AWS_REGION: REGION,
  AWS_ENDPOINT_URL_S3: server.endpoint,
});

describe("the CLI against an S3-compatible store", () => {
  it("publishes to s3://bucket/prefix, explains from it, and refuses a bad bucket URL with exit 2", () => {
    const de = path.join(FIXTURES, "pipeline", "de-mixed", "de_asp.geojson");
    const store = "s3://artifacts/prod";
    const publish = spawnSync(
      "node",
      [
        cli,
        "publish",
        "--airspaces",
        de,
        "--date",
        "2025-06-20",
        "--now",
        "2025-06-20T10:00:00Z",
        "--store",
        store,
        "--quiet",
      ],
      { env: env(), encoding: "utf8" },
    );
    // Node before 22: one line of ours instead of the AWS SDK's eight-line NodeVersionSupportWarning; else nothing
    const major = Number(process.versions.node.split(".")[0]);
    expect(publish.stderr).not.toMatch(/NodeVersionSupportWarning/);
    expect(publish.stderr).toBe(
      major < 22
        ? `airspace-publisher: warning: Node ${process.versions.node} is past its end of life and the AWS SDK drops it in January 2027; run on Node 24 LTS\n`
        : "",
    );
    expect(publish.status).toBe(0);
    expect(publish.stdout).toMatch(/^published 20250620T100000Z-[0-9a-f]{8}: 7 features/);
    const explain = spawnSync(
      "node",
      [cli, "explain", "--store", store, "--id", "67dbee0fa7f2a48e4ee05187", "--json"],
      { env: env(), encoding: "utf8" },
    );
    expect(explain.status).toBe(0);
    expect(JSON.parse(explain.stdout).id).toBe("67dbee0fa7f2a48e4ee05187");
    const bad = spawnSync(
      "node",
      [cli, "publish", "--airspaces", de, "--date", "2025-06-20", "--store", "s3://Bad_Bucket"],
      { env: env(), encoding: "utf8" },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--store: expected s3:\/\/bucket/);
  });
});
