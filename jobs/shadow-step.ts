// The shadow path (docs/design.md §5) after every successful publish (`publish`, `run`, `republish`): master features,
// journal and the public status document follow the version just published, so the origin and the map page never
// answer 503 after a plain `publish`. Only the countries whose collection changed since the shadow state last
// followed one are read (src/shadow/follow.ts).
import type { Logger } from "../src/model/logger.js";
import { currentManifest, readChangeSet, readCountry } from "../src/publish/read-back.js";
import { followPublished } from "../src/shadow/follow.js";
import type { ObjectStore } from "../src/store/store.js";

/** The shadow writes stop being taken after 10 minutes: the run ends before the next refresh is due, and what is
 * left waits in the journal (and shows as backlog in the status). */
const SHADOW_DRAIN_MS = 10 * 60_000;

export async function followShadow(store: ObjectStore, log: Logger, clock: () => number): Promise<void> {
  try {
    await shadowStep(store, log, clock);
  } catch (err) {
    // the version is live already: a store that fails now leaves the journal for the next run, not a failed publish
    log.warn("shadow path not updated; the version is live, the status document may lag", {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

async function shadowStep(store: ObjectStore, log: Logger, clock: () => number): Promise<void> {
  const manifest = await currentManifest(store);
  if (!manifest) return;
  const countries = manifest.countries;
  const published = {
    sha256: new Map(Object.entries(countries).map(([cc, e]) => [cc, e.sha256])),
    read: async (cc: string) => (await readCountry(store, countries[cc]!)).features,
    change: (cc: string) => readChangeSet(store, countries[cc]!),
  };
  const drainUntil = clock() + SHADOW_DRAIN_MS;
  const shadow = await followPublished(store, published, {
    stopTaking: () => clock() > drainUntil,
    now: clock(),
    publishedAt: Date.parse(manifest.publishedAt),
    version: manifest.version,
  });
  log.info("shadow", {
    status: shadow.status.status,
    reasons: shadow.status.reasons.join(","),
    countriesRead: shadow.read,
    countriesFromChangeSets: shadow.patched,
    enqueued: shadow.enqueued,
  });
}
