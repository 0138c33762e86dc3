#!/usr/bin/env bash
# make image: builds the publisher's image here, where no registry can be reached. The base comes from Debian's own
# packages (debootstrap minbase bookworm, imported once as localhost/debian:bookworm), Node 24 from npm's `node`
# package (scripts/node24.sh), the app from this checkout's build with production dependencies only. Needs podman,
# runc and debootstrap (scripts/system-deps.sh) and root. IMAGE and BASE_IMAGE override the names.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(node -p 'require("./package.json").version')
image=${IMAGE:-localhost/airspace-publisher:$version}
base=${BASE_IMAGE:-localhost/debian:bookworm}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/jobs/deploy/podman/containers.conf}
podman=(podman --runtime runc --cgroup-manager=cgroupfs)
ctx=build/image
started=$(date +%s)

if ! "${podman[@]}" image exists "$base"; then
  echo "image: making the base $base with debootstrap (once)"
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
  # what a runtime image needs of it: no package caches, lists, manuals or translations
  rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/locale/*
  tar -C "$root" -c . | "${podman[@]}" import - "$base" >/dev/null
fi

echo "image: the context in $ctx"
# the suite's test builds no dist/ of its own: other tests run the CLI from it meanwhile (make test-all built it)
[ "${IMAGE_KEEP_DIST:-}" = 1 ] && [ -f dist/jobs/cli.js ] || npm run build --silent
rm -rf "$ctx" && mkdir -p "$ctx/app/fixtures"
node24=$(bash scripts/node24.sh)
cp "$(readlink -f "$node24/node")" "$ctx/node"
strip "$ctx/node"
cp -r dist package.json package-lock.json "$ctx/app/"
cp -r fixtures/uk "$ctx/app/fixtures/"
(cd "$ctx/app" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
# sources maps and type declarations serve no run
find "$ctx/app" \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete

echo "image: building $image on $base"
"${podman[@]}" build --isolation chroot --format docker --build-arg "BASE=$base" -t "$image" -f Containerfile "$ctx" \
  >/dev/null
size=$("${podman[@]}" image inspect "$image" --format '{{.Size}}')
echo "image: $image, $((size / 1000000)) MB uncompressed, built in $(($(date +%s) - started)) s"
