// The page's parsing workers (web/worker.ts): an answer is cut into pieces while it downloads
// (web/split.ts), each piece goes to the worker with the least still to parse, and the replies are put back in
// the answer's order. Each feature's properties stay in its worker until a popup asks for them.
import type { Feature } from "../src/model/contract.js";
import type { Packed } from "./geometry.js";
import type { Summary } from "./logic.js";
import type { FromWorker, ToWorker } from "./messages.js";
import { FeatureCutter } from "./split.js";

export interface Parsed {
  /** Every feature's summary, in the answer's order; `part` names the worker holding its properties. */
  summaries: Summary[];
  /** Geometry of each piece, in the order of the summaries. */
  packed: Packed[];
  /** Per worker, ms spent decoding, in JSON.parse, summarising and packing. */
  timings: Record<string, number>[];
  /** Pieces the answer was cut into. */
  pieces: number;
  /** When the last byte had arrived (performance.now()). */
  downloadedAt: number;
}

type Parsing = Extract<FromWorker, { kind: "parsed" }>;

/** The parse was given up for a later one. */
export class Superseded extends Error {
  constructor() {
    super("a later load took over");
  }
}

export class Parsers {
  private readonly workers: Worker[];
  private readonly backlog: number[];
  private readonly asking = new Map<number, (p: Feature["properties"] | undefined) => void>();
  private asks = 0;
  private load = 0;
  private listener: ((worker: number, m: FromWorker | "superseded") => void) | undefined;

  constructor(count: number, url: string) {
    this.workers = Array.from({ length: Math.max(1, count) }, (_, k) => {
      const w = new Worker(url);
      w.onmessage = (e: MessageEvent<FromWorker>) => this.heard(k, e.data);
      w.onerror = (e) =>
        this.heard(k, { kind: "error", load: this.load, piece: -1, message: e.message || "a parsing worker failed" });
      return w;
    });
    this.backlog = this.workers.map(() => 0);
  }

  private heard(worker: number, m: FromWorker): void {
    if (m.kind === "properties") {
      this.asking.get(m.ask)?.(m.properties);
      this.asking.delete(m.ask);
    } else if (m.load === this.load) this.listener?.(worker, m);
  }

  private send(worker: number, m: ToWorker, transfer: Transferable[] = []): void {
    this.workers[worker]!.postMessage(m, transfer);
  }

  /** Reads and parses an answer's body; rejects on a read error or the first worker's error. */
  async parse(body: ReadableStream<Uint8Array>): Promise<Parsed> {
    this.listener?.(-1, "superseded");
    const load = ++this.load;
    this.backlog.fill(0);
    const replies: { worker: number; m: Parsing }[] = [];
    const sizes: number[] = [];
    let sent = 0;
    let received = 0;
    let failed: Error | undefined;
    let settle: (() => void) | undefined;
    const listener = (worker: number, m: FromWorker | "superseded") => {
      if (m === "superseded") failed ??= new Superseded();
      else if (m.kind === "error") failed ??= new Error(m.message);
      else if (m.kind === "parsed") {
        replies[m.piece] = { worker, m };
        received++;
        this.backlog[worker]! -= sizes[m.piece]!;
      }
      settle?.();
    };
    this.listener = listener;
    const dispatch = (bytes: Uint8Array) => {
      const worker = this.backlog.indexOf(Math.min(...this.backlog));
      this.backlog[worker]! += bytes.length;
      sizes.push(bytes.length);
      this.send(worker, { kind: "parse", load, piece: sent++, bytes }, [bytes.buffer]);
    };
    const cutter = new FeatureCutter();
    const reader = body.getReader();
    let downloadedAt = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (failed || done) break;
        for (const piece of cutter.push(value)) dispatch(piece);
      }
      downloadedAt = performance.now();
      if (!failed) {
        const rest = cutter.end();
        if ("whole" in rest) dispatch(rest.whole.slice());
        else for (const piece of rest.pieces) dispatch(piece);
      }
      while (!failed && received < sent) await new Promise<void>((r) => (settle = r));
    } finally {
      if (this.listener === listener) this.listener = undefined;
      if (failed) await reader.cancel().catch(() => {});
    }
    if (failed) throw failed;
    const out: Parsed = {
      summaries: [],
      packed: [],
      timings: this.workers.map(() => ({})),
      pieces: sent,
      downloadedAt,
    };
    for (const { worker, m } of replies) {
      for (const s of m.summaries) {
        s.part = worker;
        s.load = load;
        out.summaries.push(s);
      }
      out.packed.push(m.packed);
      const t = out.timings[worker]!;
      for (const [k, v] of Object.entries(m.timings)) t[k] = (t[k] ?? 0) + v;
    }
    return out;
  }

  /** The whole properties of a summarised feature, from the worker that parsed it (none once it moved on). */
  properties(s: Summary): Promise<Feature["properties"] | undefined> {
    const ask = ++this.asks;
    return new Promise((resolve) => {
      this.asking.set(ask, resolve);
      this.send(s.part, { kind: "properties", ask, load: s.load, index: s.index });
    });
  }
}
