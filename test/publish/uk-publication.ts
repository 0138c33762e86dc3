// make run's publication for publish tests: the UK fixture's airspace and briefing of 2026-08-22 at 11:15 UTC.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { silentLogger } from "../../src/model/logger.js";
import { utcDay } from "../../src/model/time.js";
import { publishDay } from "../../src/pipeline.js";
import type { ObjectStore } from "../../src/store/store.js";
import { FIXTURES } from "../helpers.js";

const UK = path.join(FIXTURES, "uk");
export const UK_PIB = "uk_pib_2026-08-22T1116Z.xml.gz";

/** Publishes the UK fixture into `store`. */
export async function publishUk(store: ObjectStore): Promise<void> {
  const now = Date.parse("2026-08-22T11:15:00Z");
  const files = readdirSync(UK).filter((f) => f.endsWith(".yaml"));
  await publishDay(
    files.map((f) => ({ name: f, bytes: readFileSync(path.join(UK, f)), fetchedAt: now })),
    {
      day: utcDay("2026-08-22")!,
      now,
      sources: { notam: [], aup: [] },
      notams: [{ name: UK_PIB, bytes: readFileSync(path.join(UK, UK_PIB)), fetchedAt: now }],
    },
    { store, log: silentLogger },
  );
}
