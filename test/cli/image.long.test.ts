// The container image (issue 59): `make image` builds it with Podman on a debootstrap'd Debian base, and
// scripts/test-image.sh runs it as an operator would (publish, serve with a token, watch until a publication and
// SIGTERM), against the image, not the working tree. Needs root and podman, runc, debootstrap (scripts/system-deps.sh,
// which .ci/run calls): without them this fails and says what to install.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";

const have = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
const sh = (script: string) =>
  spawnSync("bash", [script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 15 * 60_000,
    // dist/ as `make test-all` built it: rebuilding it here would pull it from under the other CLI tests
    env: { ...process.env, IMAGE_KEEP_DIST: "1" },
  });

describe("the container image", () => {
  it(
    "builds under 300 MB and runs publish, serve and watch as an operator would",
    () => {
      const missing = ["podman", "runc", "debootstrap", "strip"].filter((c) => !have(c));
      expect(missing, "install them with `sudo bash scripts/system-deps.sh`").toEqual([]);
      expect(process.getuid?.(), "make image runs as root (debootstrap, podman's storage)").toBe(0);
      const built = sh("scripts/image.sh");
      expect(built.status, built.stderr + built.stdout).toBe(0);
      const mb = Number(/, (\d+) MB uncompressed/.exec(built.stdout)?.[1]);
      expect(mb).toBeGreaterThan(50);
      expect(mb).toBeLessThanOrEqual(300);
      const ran = sh("scripts/test-image.sh");
      expect(ran.status, ran.stderr + ran.stdout).toBe(0);
      expect(ran.stdout).toMatch(/test-image: publish, serve, watch from \S+ passed in \d+ s/);
    },
    20 * 60_000,
  );
});
