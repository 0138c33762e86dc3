// `airspace-publisher status --store …`: the diagnostics document of the shadow path (SPEC §4.2), as
// published at v1/status/master-features.json. Exit 0 when healthy, 1 when degraded or absent.
import { StatusDocument } from "../../src/shadow/status.js";
import type { Io } from "../io.js";
import { openStore } from "../store.js";

export async function statusCommand(flags: { store: string; s3Endpoint?: string }, io: Io): Promise<number> {
  const store = openStore(flags.store, flags.s3Endpoint);
  const bytes = await store.get("v1/status/master-features.json");
  if (!bytes) {
    io.stderr.write(`airspace-publisher: no status document in ${store.url} yet (the scheduled run writes it)\n`);
    return 1;
  }
  const doc = StatusDocument.parse(JSON.parse(bytes.toString("utf8")));
  io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  return doc.status === "healthy" ? 0 : 1;
}
