// One publisher at a time per store (docs/design.md §9): a run (`publish`, `run`, `replay`, each publication of
// `watch`) holds `internal/publisher.json` from its first write to its last. The object names its holder (command,
// host, process, since) and an expiry the holder renews while it works, so a holder killed with SIGKILL keeps
// others out for at most `ttlMs`. Taken with a conditional write where the store has them (local folder, AWS S3),
// else by writing, waiting and reading back (s3rver, Swift: src/store/lease.ts's way).
import { randomBytes } from "node:crypto";
import type { ObjectStore } from "./store.js";

export const PUBLISHER_KEY = "internal/publisher.json";

/** Who holds the lease, as the object says. */
export interface Holder {
  owner: string;
  /** For people: `watch on host-a, pid 4121, since 2026-11-28T10:15:00Z`. */
  who: string;
  /** The holder's machine and process, where the caller knows them: a process gone from this machine holds nothing. */
  host?: string;
  pid?: number;
  expires: number;
}

/** Another publisher holds the store: who, and until when at the latest. */
export class PublisherBusy extends Error {
  override readonly name = "PublisherBusy";
  constructor(readonly holder: Holder) {
    super(
      `another publisher holds the store (${holder.who}) until ${new Date(holder.expires).toISOString()} at the latest`,
    );
  }
}

export interface LeaseOptions {
  /** For the object: which command, host and process. */
  who: string;
  host?: string;
  pid?: number;
  /** Whether a holder is known to be gone (its process no longer runs on this machine): its lease is taken over. */
  gone?: (holder: Holder) => boolean;
  clock: () => number;
  /** How long the lease holds without renewal. @default 120000 */
  ttlMs?: number;
  /** Stores without conditional writes: the wait before reading the lease back. @default 300 */
  settleMs?: number;
}

export interface HeldLease {
  /** Gives the lease up (renewals stop). */
  release(): Promise<void>;
}

/** Takes the store's publisher lease, renewed every third of its life until released; `PublisherBusy` when held. */
export async function takePublisherLease(store: ObjectStore, o: LeaseOptions): Promise<HeldLease> {
  const ttl = o.ttlMs ?? 120_000;
  const owner = randomBytes(8).toString("hex");
  const me = { owner, who: o.who, ...(o.host ? { host: o.host } : {}), ...(o.pid ? { pid: o.pid } : {}) };
  const body = () => Buffer.from(JSON.stringify({ ...me, expires: o.clock() + ttl } satisfies Holder));
  const current = await readHolder(store);
  const held = current?.holder;
  if (held && held.expires > o.clock() && !o.gone?.(held)) throw new PublisherBusy(held);
  // an expired or unreadable lease is taken over, only if it is still the object read
  const expected = current ? { etag: current.etag ?? "" } : { absent: true };
  const written = store.putIfMatch
    ? await store.putIfMatch(PUBLISHER_KEY, body(), { contentType: "application/json" }, expected)
    : "unsupported";
  if (written === "conflict") throw new PublisherBusy((await readHolder(store))?.holder ?? unknownHolder(o));
  if (written === "unsupported") {
    await store.put(PUBLISHER_KEY, body(), { contentType: "application/json" });
    await new Promise((r) => setTimeout(r, o.settleMs ?? 300));
    const after = await readHolder(store);
    if (after?.holder?.owner !== owner) throw new PublisherBusy(after?.holder ?? unknownHolder(o));
  }
  const renew = setInterval(() => {
    void store.put(PUBLISHER_KEY, body(), { contentType: "application/json" }).catch(() => {});
  }, ttl / 3);
  renew.unref();
  return {
    async release() {
      clearInterval(renew);
      const mine = await readHolder(store);
      if (mine?.holder?.owner === owner) await store.delete(PUBLISHER_KEY);
    },
  };
}

const unknownHolder = (o: LeaseOptions): Holder => ({ owner: "", who: "unknown", expires: o.clock() });

/** The lease object: undefined when there is none; `holder` undefined when it is not one (taken over). */
async function readHolder(store: ObjectStore): Promise<{ holder?: Holder; etag?: string } | undefined> {
  const head = await store.head(PUBLISHER_KEY);
  const bytes = head && (await store.get(PUBLISHER_KEY));
  if (!head || !bytes) return undefined;
  const etag = head.etag ? { etag: head.etag } : {};
  try {
    const v = JSON.parse(bytes.toString("utf8")) as Partial<Holder>;
    if (typeof v.owner !== "string" || typeof v.expires !== "number") return etag;
    const at = {
      ...(typeof v.host === "string" ? { host: v.host } : {}),
      ...(typeof v.pid === "number" ? { pid: v.pid } : {}),
    };
    return { holder: { owner: v.owner, who: String(v.who ?? "unknown"), ...at, expires: v.expires }, ...etag };
  } catch {
    return etag;
  }
}
