// The UK from its own feeds (`make bench`, issue 16): the NATS PIB XML parsed (1 509 Notam elements), the YAIXM
// airspace file read (1 053 volumes), and the whole UK published as `make run` does (fixtures/uk), each the median
// of several runs. Needs only the bundled fixtures. Writes bench/out/uk.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readAirspaceSource } from "../src/ingest/read.js";
import { silentLogger } from "../src/model/logger.js";
import { utcDay } from "../src/model/time.js";
import { readNotamSource } from "../src/notam/read.js";
import { publishDay } from "../src/pipeline.js";
import { LocalStore } from "../src/store/local-store.js";
import { ROOT } from "./support.js";

const UK = path.join(ROOT, "fixtures", "uk");
const file = (name: string) => ({ name, bytes: readFileSync(path.join(UK, name)) });
const PIB = file("uk_pib_2026-08-22T1116Z.xml.gz");
const AIRSPACE = ["gb_airspace_2026-06.yaml", "gb_service_2026-06.yaml", "gb_rat_2026-06.yaml"].map(file);
const NOW = Date.parse("2026-08-22T11:15:00Z");

async function median(runs: number, fn: () => unknown): Promise<{ median: number; runs: number[] }> {
  await fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(Math.round(performance.now() - t0));
  }
  return { median: [...ms].sort((a, b) => a - b)[runs >> 1]!, runs: ms };
}

const pib = await median(7, () => readNotamSource(PIB.bytes, PIB.name));
const yaixm = await median(7, () => readAirspaceSource(AIRSPACE[0]!.bytes, AIRSPACE[0]!.name));
const out = path.join(ROOT, "bench", "out");
let k = 0;
const publish = await median(3, () =>
  publishDay(
    AIRSPACE.map((a) => ({ ...a, fetchedAt: NOW })),
    { day: utcDay("2026-08-22")!, now: NOW, sources: { notam: [], aup: [] }, notams: [{ ...PIB, fetchedAt: NOW }] },
    { store: new LocalStore(path.join(out, "uk-store", String(k++))), log: silentLogger },
  ),
);
const result = {
  pibParseMs: pib,
  yaixmReadMs: yaixm,
  ukPublishMs: publish,
  goals: { pibParseMs: "< 500" },
};
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, "uk.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`UK PIB XML parse (1 509 Notam elements): median ${pib.median} ms (${pib.runs.join(", ")}; goal < 500 ms)`);
console.log(`UK YAIXM airspace read (1 053 volumes): median ${yaixm.median} ms (${yaixm.runs.join(", ")})`);
console.log(`UK publish, YAIXM + PIB (make run): median ${publish.median} ms (${publish.runs.join(", ")})`);
if (pib.median >= 500) {
  console.log("uk: MISSED the PIB parse goal");
  process.exitCode = 1;
}
