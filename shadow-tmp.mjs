import { LocalStore } from "./dist/src/publish/local-store.js";
import { currentManifest, readEurope } from "./dist/src/publish/read-back.js";
import { runShadow } from "./dist/src/shadow/shadow.js";
import { rmSync } from "node:fs";
const src = new LocalStore("/tmp/bstore"); const m = await currentManifest(src); const fc = await readEurope(src, m);
for (const conc of [4, 4]) {
rmSync("/tmp/shstore", { recursive: true, force: true });
const store = new LocalStore("/tmp/shstore");
let t = performance.now();
const r = await runShadow(store, fc.features, { now: Date.parse(m.publishedAt), publishedAt: Date.parse(m.publishedAt), version: m.version, concurrency: conc });
const boot = performance.now() - t;
t = performance.now();
await runShadow(store, fc.features, { now: Date.parse(m.publishedAt), publishedAt: Date.parse(m.publishedAt), version: m.version, concurrency: conc });
console.log({ features: fc.features.length, conc, bootstrapS: (boot/1000).toFixed(1), steadyS: ((performance.now()-t)/1000).toFixed(2), written: r.written, state: r.status.bootstrap.state });
}
