// A popup's details: a feature's whole properties, from its country's GeoJSON answer, which a worker
// (web/worker.ts) fetches and parses the first time a popup of that country opens, and keeps for the next.
import type { Feature } from "../src/model/contract.js";
import type { FromWorker, ToWorker } from "./messages.js";

export interface Details {
  properties?: Feature["properties"];
  /** The version the properties come from (X-Data-Version). */
  version?: string;
  /** Why there are none. */
  error?: string;
}

export class DetailsWorker {
  private worker: Worker | undefined;
  private readonly asking = new Map<number, (d: Details) => void>();
  private asks = 0;

  constructor(private readonly url: string) {}

  /** Feature `id` of the collection at `answerUrl` (fetched with `token`) while the page draws `version`. */
  of(answerUrl: string, token: string, version: string, id: string): Promise<Details> {
    this.worker ??= this.start();
    const ask = ++this.asks;
    return new Promise((resolve) => {
      this.asking.set(ask, resolve);
      const m: ToWorker = {
        kind: "properties",
        ask,
        url: new URL(answerUrl, location.href).href,
        token,
        version,
        id,
      };
      this.worker!.postMessage(m);
    });
  }

  private start(): Worker {
    const w = new Worker(this.url);
    w.onmessage = (e: MessageEvent<FromWorker>) => {
      const { ask, ...details } = e.data;
      this.asking.get(ask)?.(details);
      this.asking.delete(ask);
    };
    w.onerror = (e) => {
      for (const resolve of this.asking.values()) resolve({ error: e.message || "the details worker failed" });
      this.asking.clear();
      this.worker = undefined;
    };
    return w;
  }
}
