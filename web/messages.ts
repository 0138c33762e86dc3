// What the page and its details worker (web/worker.ts) say to each other.
import type { Feature } from "../src/model/contract.js";

/** `version`: the one the page draws; an answer of another is fetched again. */
export type ToWorker = { kind: "properties"; ask: number; url: string; token: string; version: string; id: string };

export type FromWorker = {
  kind: "properties";
  ask: number;
  properties?: Feature["properties"];
  version?: string;
  error?: string;
};
