// What `watch` says of itself on a port of its own: Prometheus text metrics (`/metrics`, prom-client) and a health
// answer (`/healthz`: 200 while the last publication is recent enough, 503 before the first and after
// `--unhealthy-after` minutes without one). Loopback by default: the metrics name sources, not tokens.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { FetchResult } from "../src/fetch/fetch-source.js";
import type { RunReport } from "../src/report.js";

export type FetchOutcome = FetchResult["from"] | "error";

export class WatchMetrics {
  readonly registry = new Registry();
  private lastPublishedAt: number | undefined;
  /** Per source, its as-of time (NOTAM and AUP: from the report's standing) or fetch time (airspace), epoch ms. */
  private readonly asOf = new Map<string, number>();
  private readonly lastFetchBySource = new Map<string, FetchOutcome>();
  private readonly publications = new Counter({
    name: "asp_publications_total",
    help: "Publications made by this watcher",
    registers: [this.registry],
  });
  private readonly lastPublication = new Gauge({
    name: "asp_last_publication_timestamp_seconds",
    help: "When the last publication was made (Unix seconds)",
    registers: [this.registry],
  });
  private readonly lastVersion = new Gauge({
    name: "asp_last_publication_info",
    help: "The version and day of the last publication of today (1 for the current one)",
    labelNames: ["version", "date"],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: "asp_publish_duration_seconds",
    help: "Time to publish the days, from the decision to the pointers switched",
    buckets: [0.5, 1, 2, 5, 10, 20, 40, 80],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "asp_source_to_publish_seconds",
    help: "From the fetch that brought a source's new bytes to the publication that holds them",
    buckets: [1, 2, 5, 10, 20, 40, 60, 120, 300],
    registers: [this.registry],
  });
  private readonly fetches = new Counter({
    name: "asp_source_fetches_total",
    help: "Fetches per source and result: network (200), notModified (304), lastGood (failed, last good copy), error",
    labelNames: ["source", "result"],
    registers: [this.registry],
  });
  private readonly lastFetch = new Gauge({
    name: "asp_source_last_fetch",
    help: "1 for the result of each source's last fetch",
    labelNames: ["source", "result"],
    registers: [this.registry],
  });

  constructor(private readonly clock: () => number) {
    const asOf = this.asOf;
    new Gauge({
      name: "asp_source_age_seconds",
      help: "Age of each source at the scrape: from its as-of time (NOTAM, AUP) or its last good fetch (airspace)",
      labelNames: ["source"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [source, at] of asOf) this.set({ source }, Math.max(0, (clock() - at) / 1000));
      },
    });
  }

  fetched(source: string, result: FetchOutcome, at?: { fetchedAt: number; airspace: boolean }): void {
    this.fetches.inc({ source, result });
    this.lastFetch.reset();
    this.lastFetchBySource.set(source, result);
    for (const [s, r] of this.lastFetchBySource) this.lastFetch.set({ source: s, result: r }, 1);
    if (at?.airspace) this.asOf.set(source, at.fetchedAt);
  }

  published(today: RunReport, seconds: number, changedAt: readonly number[]): void {
    this.lastPublishedAt = this.clock();
    this.publications.inc();
    this.lastPublication.set(this.lastPublishedAt / 1000);
    this.lastVersion.reset();
    this.lastVersion.set({ version: today.version, date: today.date }, 1);
    this.duration.observe(seconds);
    for (const at of changedAt) this.latency.observe((this.lastPublishedAt - at) / 1000);
    for (const s of [...today.sourceStates.notam, ...today.sourceStates.aup]) {
      if (s.asOf === undefined) this.asOf.delete(s.name);
      else this.asOf.set(s.name, s.asOf);
    }
  }

  /** 200 while a publication was made within `maxSilenceMs`; 503 before the first and after that. */
  health(maxSilenceMs: number): { status: number; body: Record<string, unknown> } {
    const last = this.lastPublishedAt;
    const since = last === undefined ? undefined : this.clock() - last;
    const ok = since !== undefined && since <= maxSilenceMs;
    const body = {
      status: ok ? "ok" : last === undefined ? "starting" : "stale",
      lastPublication: last === undefined ? null : new Date(last).toISOString(),
      silenceSeconds: since === undefined ? null : Math.round(since / 1000),
      maxSilenceSeconds: Math.round(maxSilenceMs / 1000),
    };
    return { status: ok ? 200 : 503, body };
  }

  /** Serves `/metrics` and `/healthz` on `host:port` (0: any free port); the URL it listens on. */
  async serve(host: string, port: number, maxSilenceMs: number): Promise<{ url: string; server: Server }> {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/metrics") {
        void this.registry.metrics().then((text) => {
          res.writeHead(200, { "content-type": this.registry.contentType }).end(text);
        });
      } else if (path === "/healthz") {
        const h = this.health(maxSilenceMs);
        res.writeHead(h.status, { "content-type": "application/json" }).end(`${JSON.stringify(h.body)}\n`);
      } else {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found: /metrics, /healthz\n");
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, resolve);
    });
    const a = server.address() as AddressInfo;
    return { url: `http://${host.includes(":") ? `[${host}]` : host}:${a.port}`, server };
  }
}
