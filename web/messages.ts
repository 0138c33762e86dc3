// What the page and its parsing workers (web/worker.ts) say to each other. A load numbers its pieces; a worker
// starts afresh when a new load begins.
import type { Feature } from "../src/model/contract.js";
import type { Packed } from "./geometry.js";
import type { Summary } from "./logic.js";

export type ToWorker =
  | { kind: "parse"; load: number; piece: number; bytes: Uint8Array }
  | { kind: "properties"; ask: number; load: number; index: number };

export type FromWorker =
  | {
      kind: "parsed";
      load: number;
      piece: number;
      summaries: Summary[];
      packed: Packed;
      /** ms spent decoding, in JSON.parse, summarising and packing. */
      timings: Record<string, number>;
    }
  | { kind: "error"; load: number; piece: number; message: string }
  | { kind: "properties"; ask: number; properties: Feature["properties"] | undefined };
