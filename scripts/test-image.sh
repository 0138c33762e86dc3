#!/usr/bin/env bash
# The image as an operator uses it (issue 59), run by .ci/run after `make image`: `publish` the bundled UK day into a
# mounted folder; `serve` it with a token made by `tokens` in the container, and ask it from outside with curl (gzip
# and X-Data-Version, 401 without the token, /healthz, the image's own health check); `watch` a local HTTP source
# until it publishes, then SIGTERM: exit 0 and the store whole. Every container runs as the image's user with a
# read-only root filesystem, writing only to the mounted folder and a tmpfs /tmp. Prints the time it took.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(node -p 'require("./package.json").version')
image=${IMAGE:-localhost/airspace-publisher:$version}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/jobs/deploy/podman/containers.conf}
podman=(podman --runtime runc --cgroup-manager=cgroupfs)
started=$(date +%s)
work=$(mktemp -d)
names=()
cleanup() {
  for n in "${names[@]}"; do "${podman[@]}" rm -f "$n" >/dev/null 2>&1 || true; done
  [ -n "${web:-}" ] && kill "$web" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# a run killed before its cleanup leaves its containers behind
"${podman[@]}" rm -f asp-serve asp-watch >/dev/null 2>&1 || true
fail() { echo "test-image: FAILED: $*" >&2; exit 1; }
data=$work/data
mkdir -p "$data" && chown 10001:10001 "$data"
# as the operator runs it: non-root (the image's user), read-only root, the store folder mounted, /tmp in memory
# (podman schedules health checks with systemd timers, absent here: the check is run by hand below)
run=("${podman[@]}" run --rm --no-healthcheck --network host --read-only --tmpfs /tmp -v "$data:/data")
app=/opt/airspace-publisher
port=$((20000 + RANDOM % 20000))

echo "== publish the bundled UK day from the image"
"${run[@]}" "$image" publish --airspaces "$app/fixtures/uk" --notams "$app/fixtures/uk/uk_pib_2026-08-22T1116Z.xml.gz" \
  --date 2026-08-22 --now 2026-08-22T11:15:00Z --store /data/artifacts --quiet
[ -f "$data/artifacts/v1/current.json" ] || fail "publish wrote no v1/current.json"
uid=$(stat -c %u "$data/artifacts/v1/current.json")
[ "$uid" = 10001 ] || fail "the store was written by uid $uid, not the image's user"

echo "== a token from the image, serve from the image, curl from outside"
token=$("${run[@]}" "$image" tokens create --tokens /data/tokens.json --scope dynamic --name ci | tail -1)
[ -n "$token" ] || fail "tokens create printed no token"
names+=(asp-serve)
"${podman[@]}" run -d --no-healthcheck --name asp-serve --network host --read-only --tmpfs /tmp -v "$data:/data" \
  -e "HEALTH_URLS=http://127.0.0.1:$port/healthz" "$image" \
  serve --store /data/artifacts --tokens /data/tokens.json --host 127.0.0.1 --port "$port" >/dev/null 2>&1 || true
url=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -fs "$url/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz")
[ "$code" = 200 ] || fail "/healthz answered $code"
headers=$(curl -s -D - -o "$work/gb.gz" -H "Authorization: Bearer $token" -H 'Accept-Encoding: gzip' \
  "$url/v1/data/airspaces?countries=GB")
grep -qi '^HTTP/1.1 200' <<<"$headers" || fail "GB answered: $(head -1 <<<"$headers")"
grep -qi '^content-encoding: gzip' <<<"$headers" || fail "GB not gzip"
grep -qi '^x-data-version: 20260822T111500Z-' <<<"$headers" || fail "no X-Data-Version"
features=$(gunzip -c "$work/gb.gz" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).features.length))')
[ "$features" -gt 1000 ] || fail "GB holds $features features"
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/v1/data/airspaces?countries=GB")
[ "$code" = 401 ] || fail "without the token: $code, not 401"
"${podman[@]}" exec asp-serve /usr/local/bin/node "$app/dist/jobs/healthcheck.js" || fail "the image's health check"
"${podman[@]}" stop -t 10 asp-serve >/dev/null

echo "== watch a local HTTP source from the image until it publishes, then SIGTERM"
mkdir -p "$work/www" && cp fixtures/uk/*.yaml fixtures/uk/*.xml.gz "$work/www/"
node -e '
  const http = require("node:http"), fs = require("node:fs"), path = require("node:path");
  const [dir, port] = process.argv.slice(1);
  http.createServer((req, res) => {
    const file = path.join(dir, path.basename(decodeURIComponent(req.url.split("?")[0])));
    fs.readFile(file, (err, body) => (err ? res.writeHead(404).end() : res.writeHead(200).end(body)));
  }).listen(Number(port), "127.0.0.1");
' "$work/www" "$((port + 1))" &
web=$!
src=http://127.0.0.1:$((port + 1))
cat >"$data/sources.json" <<JSON
{
  "schema": 1,
  "sources": [
    { "name": "gb-airspace", "kind": "airspace", "country": "GB", "url": "$src/gb_airspace_2026-06.yaml" },
    { "name": "gb-rat", "kind": "airspace", "country": "GB", "url": "$src/gb_rat_2026-06.yaml" },
    { "name": "uk-pib", "kind": "notam", "url": "$src/uk_pib_2026-08-22T1116Z.xml.gz", "maxAgeMinutes": 120 }
  ]
}
JSON
chown 10001:10001 "$data/sources.json"
names+=(asp-watch)
"${podman[@]}" run -d --no-healthcheck --name asp-watch --network host --read-only --tmpfs /tmp -v "$data:/data" "$image" \
  watch --config /data/sources.json --store /data/watched --clock 2026-08-22T11:20:00Z \
  --metrics-port "$((port + 2))" --quiet >/dev/null 2>&1 || true
for _ in $(seq 1 300); do [ -f "$data/watched/v1/current.json" ] && break; sleep 0.2; done
[ -f "$data/watched/v1/current.json" ] || fail "watch published nothing: $("${podman[@]}" logs asp-watch 2>&1 | tail -5)"
"${podman[@]}" kill --signal TERM asp-watch >/dev/null
status=$("${podman[@]}" wait asp-watch)
[ "$status" = 0 ] || fail "watch exited $status after SIGTERM: $("${podman[@]}" logs asp-watch 2>&1 | tail -5)"
# the store whole: the pointer names a manifest that is there, and every object that manifest names is there
node -e '
  const fs = require("node:fs"), path = require("node:path");
  const root = process.argv[1];
  const cur = JSON.parse(fs.readFileSync(path.join(root, "v1/current.json"), "utf8"));
  const text = fs.readFileSync(path.join(root, cur.manifest), "utf8");
  const keys = [...text.matchAll(/"(v1\/objects\/[^"]+)"/g)].map((m) => m[1]);
  const missing = keys.filter((k) => !fs.existsSync(path.join(root, k)));
  if (keys.length === 0 || missing.length > 0) { console.error("missing", missing.length, "of", keys.length); process.exit(1); }
' "$data/watched" || fail "the watched store is not whole"

echo "test-image: publish, serve, watch from $image passed in $(($(date +%s) - started)) s"
