// The image's health check (Containerfile HEALTHCHECK): exit 0 when `watch` (its metrics port, 9464) or `serve` (its
// port, 8080) answers /healthz with 200 on this host; HEALTH_URLS (comma-separated) names other addresses.
const urls = (process.env.HEALTH_URLS ?? "http://127.0.0.1:9464/healthz,http://127.0.0.1:8080/healthz").split(",");

async function healthy(url: string): Promise<void> {
  const r = await fetch(url, { signal: AbortSignal.timeout(4000) });
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
}

Promise.any(urls.map((u) => healthy(u.trim()))).then(
  () => process.exit(0),
  () => process.exit(1),
);
