// `airspace-publisher status --store …`: the diagnostics document of the shadow path (docs/contract.md §4.2), as
// published at v1/status/master-features.json, in a few lines of text (`--json`: the document itself).
// Exit 0 when healthy, 1 when degraded or absent.
import { StatusDocument } from "../../src/shadow/status.js";
import type { Io } from "../io.js";
import { openStore } from "../store.js";

export async function statusCommand(
  flags: { store: string; s3Endpoint?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const store = await openStore(flags.store, flags.s3Endpoint, (line) =>
    io.stderr.write(`airspace-publisher: ${line}\n`),
  );
  const bytes = await store.get("v1/status/master-features.json");
  if (!bytes) {
    io.stderr.write(`airspace-publisher: no status document in ${store.url} yet (every publish writes it)\n`);
    return 1;
  }
  const doc = StatusDocument.parse(JSON.parse(bytes.toString("utf8")));
  io.stdout.write(flags.json ? `${JSON.stringify(doc, null, 2)}\n` : describe(doc));
  return doc.status === "healthy" ? 0 : 1;
}

/** `healthy`, or `degraded: publishLag, …`, then what each part says. */
function describe(d: StatusDocument): string {
  const q = d.queue;
  return [
    `${d.status}${d.reasons.length ? `: ${d.reasons.join(", ")}` : ""}`,
    `  published ${d.publishedAt} (${ago(d.publishLagSeconds)} ago), version ${d.shadowManifestVersion ?? "none yet"}`,
    `  queue: ${q.backlog} waiting (oldest ${ago(q.oldestMessageAgeSeconds)}), ${q.unresolvedFailures} unresolved failures, ${q.deadLetters} dead letters`,
    `  bootstrap ${d.bootstrap.state}: ${d.bootstrap.loaded} of ${d.bootstrap.total} features loaded`,
    `  parity ${d.parity.state}: ${d.parity.mismatched} of ${d.parity.checked} features differ`,
    "",
  ].join("\n");
}

/** 0 s, 42 s, 5 min, 3 h 12 min, 3 d 19 h: never thousands of minutes. */
export function ago(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
