// OpenStack Swift with its S3 API on loopback, from Debian's packages (docs/design.md §7): an account, a container and an
// object server on one device with one replica, a proxy with s3api + tempauth, and memcached, all configured in a
// temporary folder and started by the tests. Swift answers conditional PUTs with 501 and needs Content-MD5 on
// DeleteObjects, so it exercises the lease path of the publisher.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { rawClient, type S3Server } from "../../bench/s3-harness.js";
import { freePort } from "../../bench/support.js";
import { tempDir } from "../helpers.js";

export const SWIFT_CREDENTIALS = { accessKeyId: "test:tester", secretAccessKey: "testing" };
const PACKAGES = "swift swift-proxy swift-object swift-container swift-account memcached";
const SERVERS = ["account", "container", "object"] as const;
/** Builds `<etc>/<name>.ring.gz` for each `name=port`: two partitions' power, one replica, one device. */
const RINGS = `
import sys
from swift.common.ring import RingBuilder
for arg in sys.argv[2:]:
    name, port = arg.split("=")
    b = RingBuilder(2, 1, 1)
    b.add_dev({"region": 1, "zone": 1, "ip": "127.0.0.1", "port": int(port), "device": "d1", "weight": 1})
    b.rebalance()
    b.get_ring().save(f"{sys.argv[1]}/{name}.ring.gz")
`;

export async function startSwift(bucket: string): Promise<S3Server> {
  for (const bin of ["python3", "swift-proxy-server", "swift-object-server", "memcached"]) {
    if (!existsSync(`/usr/bin/${bin}`)) {
      throw new Error(`OpenStack Swift is not installed (/usr/bin/${bin}): apt-get install ${PACKAGES}`);
    }
  }
  const dir = tempDir("swift-");
  const etc = path.join(dir, "etc");
  mkdirSync(path.join(dir, "srv", "d1"), { recursive: true });
  mkdirSync(etc);
  const [proxyPort, cachePort, ...ports] = await Promise.all(Array.from({ length: 5 }, freePort));
  writeFileSync(
    path.join(etc, "swift.conf"),
    "[swift-hash]\nswift_hash_path_suffix = airspace-publisher-tests\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n",
  );
  const common = `[DEFAULT]\nbind_ip = 127.0.0.1\nworkers = 0\nuser = ${userInfo().username}\nswift_dir = ${etc}\nlog_level = WARNING\n`;
  // the three rings in one Python process (swift-ring-builder's create, add and rebalance for each took 10 s)
  execFileSync("/usr/bin/python3", ["-c", RINGS, etc, ...SERVERS.map((name, i) => `${name}=${ports[i]}`)]);
  SERVERS.forEach((name, i) => {
    writeFileSync(
      path.join(etc, `${name}-server.conf`),
      `${common}bind_port = ${ports[i]}\ndevices = ${path.join(dir, "srv")}\nmount_check = false\n` +
        `disable_fallocate = true\n[pipeline:main]\npipeline = ${name}-server\n[app:${name}-server]\nuse = egg:swift#${name}\n`,
    );
  });
  const filters = ["catch_errors", "gatekeeper", "healthcheck", "proxy_logging", "listing_formats", "copy", "slo"];
  writeFileSync(
    path.join(etc, "proxy-server.conf"),
    `${common}bind_port = ${proxyPort}\n[pipeline:main]\n` +
      "pipeline = catch_errors gatekeeper healthcheck proxy_logging cache listing_formats s3api tempauth copy slo proxy_logging proxy-server\n" +
      "[app:proxy-server]\nuse = egg:swift#proxy\naccount_autocreate = true\n" +
      `[filter:tempauth]\nuse = egg:swift#tempauth\nuser_test_tester = ${SWIFT_CREDENTIALS.secretAccessKey} .admin\n` +
      "[filter:s3api]\nuse = egg:swift#s3api\nlocation = us-east-1\n" +
      `[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:${cachePort}\n` +
      filters.map((f) => `[filter:${f}]\nuse = egg:swift#${f}\n`).join(""),
  );

  const log = openSync(path.join(dir, "servers.log"), "a");
  const root = process.getuid?.() === 0 ? ["-u", "root"] : [];
  const children: ChildProcess[] = [
    spawn("memcached", [...root, "-l", "127.0.0.1", "-p", String(cachePort), "-U", "0"], {
      stdio: ["ignore", log, log],
    }),
    ...[...SERVERS, "proxy"].map((name) =>
      spawn(`swift-${name}-server`, [path.join(etc, `${name}-server.conf`)], { stdio: ["ignore", log, log] }),
    ),
  ];
  const close = async () => {
    await Promise.all(
      children.map((c) => {
        if (c.exitCode !== null || c.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => c.once("exit", resolve));
        c.kill();
        return exited;
      }),
    );
  };
  const endpoint = `http://127.0.0.1:${proxyPort}`;
  try {
    // under a full parallel test run on two cores the backends can take a minute to answer
    await until(async () => (await fetch(`${endpoint}/healthcheck`)).ok, 90_000);
    const client = rawClient(endpoint, SWIFT_CREDENTIALS);
    // the backends may still be binding their ports: creating the bucket is the first request that needs them
    await until(() => client.send(new CreateBucketCommand({ Bucket: bucket })).then(() => true), 90_000);
    client.destroy();
  } catch (err) {
    await close();
    const tail = readFileSync(path.join(dir, "servers.log"), "utf8").split("\n").slice(-20).join("\n");
    throw new Error(`Swift did not start in ${dir}: ${String(err)}\n${tail}`);
  }
  return { name: "swift", endpoint, credentials: SWIFT_CREDENTIALS, dir, close };
}

async function until(ok: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const last = await ok().catch((e: unknown) => e);
    if (last === true) return;
    if (Date.now() > end) throw last instanceof Error ? last : new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}
