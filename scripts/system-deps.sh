#!/usr/bin/env bash
# The Debian packages the tests and benchmarks use as real parts on loopback (DESIGN §7): OpenStack Swift with
# its S3 API and memcached, headless Chromium, curl, nginx and wrk for the origin benchmark, and systemd for
# `systemd-analyze verify` of the deployment's units (nothing is started with it), and podman, runc and
# debootstrap for `make image` and the image's test (test/deploy/image.long.test.ts). Installs what is
# missing when run as root; otherwise prints the command and fails.
set -euo pipefail
packages=(swift swift-proxy swift-object swift-container swift-account memcached chromium curl nginx wrk systemd podman runc debootstrap binutils)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps: missing Debian packages: ${missing[*]}" >&2
  echo "  run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "system-deps: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
