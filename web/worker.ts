// A parsing worker of the map page: takes pieces of an answer (`[feature, …]`, or a whole FeatureCollection),
// parses them, and sends back each feature's summary and its geometry packed into transferable arrays. It keeps
// the parsed properties of the current load, so that a popup can ask for one feature's.
import type { Feature } from "../src/model/contract.js";
import { pack } from "./geometry.js";
import { type PageStyle, summarize } from "./logic.js";
import type { FromWorker, ToWorker } from "./messages.js";

let load = -1;
let features: Feature[] = [];
let styles = new Map<string, PageStyle>();

function reply(message: FromWorker, transfer: Transferable[] = []): void {
  postMessage(message, { transfer });
}

addEventListener("message", (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  if (m.kind === "properties") {
    const properties = m.load === load ? features[m.index]?.properties : undefined;
    reply({ kind: "properties", ask: m.ask, properties });
    return;
  }
  if (m.load !== load) {
    load = m.load;
    features = [];
    styles = new Map();
  }
  try {
    const t0 = performance.now();
    const text = new TextDecoder().decode(m.bytes);
    const t1 = performance.now();
    const parsed = JSON.parse(text) as Feature[] | { features?: Feature[] };
    const t2 = performance.now();
    const list = Array.isArray(parsed) ? parsed : parsed.features;
    if (!Array.isArray(list)) throw new Error("the answer has no features");
    const offset = features.length;
    const summaries = list.map((f, i) => summarize(f, offset + i, styles));
    for (const f of list) features.push(f);
    const t3 = performance.now();
    const packed = pack(list);
    const timings = { decodeMs: t1 - t0, jsonMs: t2 - t1, summarizeMs: t3 - t2, packMs: performance.now() - t3 };
    reply({ kind: "parsed", load: m.load, piece: m.piece, summaries, packed, timings }, [
      packed.coords.buffer,
      packed.ringEnds.buffer,
      packed.featureEnds.buffer,
      packed.boxes.buffer,
    ]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply({ kind: "error", load: m.load, piece: m.piece, message });
  }
});
