// The lease of docs/design.md §5 for stores without conditional writes (s3rver, Swift): a run writes
// `<prefix>/lease.json` naming itself, waits, and reads it back; another live lease, or a lease that is not
// its own after the wait, means another run is publishing and this one stops. Stores with conditional
// writes need no lease: the pointer flip itself is a compare-and-swap.
import { randomBytes } from "node:crypto";
import type { ObjectStore } from "./store.js";

export class LeaseHeld extends Error {
  override readonly name = "LeaseHeld";
}

/** How long a lease lasts without being released (a crashed run's lease expires). */
const LEASE_MS = 15 * 60_000;
/** The wait between writing the lease and reading it back: a second writer shows up within it. */
const SETTLE_MS = 200;

interface LeaseBody {
  owner: string;
  expires: number;
}

export async function acquireLease(
  store: ObjectStore,
  prefix: string,
  options: { owner?: string; clock: () => number; settleMs?: number },
): Promise<{ release(): Promise<void> } | undefined> {
  if (store.putIfMatch && (await supportsConditional(store, prefix))) return undefined;
  const key = `${prefix}/lease.json`;
  const now = options.clock;
  const owner = options.owner ?? randomBytes(8).toString("hex");
  const current = await read(store, key);
  if (current && current.owner !== owner && current.expires > now()) {
    throw new LeaseHeld(
      `another run holds ${key} until ${new Date(current.expires).toISOString()}; nothing was switched`,
    );
  }
  await store.put(key, Buffer.from(JSON.stringify({ owner, expires: now() + LEASE_MS })), {
    contentType: "application/json",
  });
  await new Promise((r) => setTimeout(r, options.settleMs ?? SETTLE_MS));
  const after = await read(store, key);
  if (after?.owner !== owner) throw new LeaseHeld(`another run took ${key}; nothing was switched`);
  return {
    async release() {
      const mine = await read(store, key);
      if (mine?.owner === owner) await store.delete(key);
    },
  };
}

/** Whether the store honours conditional writes (asked once, through a throwaway object). */
async function supportsConditional(store: ObjectStore, prefix: string): Promise<boolean> {
  const probe = `${prefix}/lease-probe-${randomBytes(6).toString("hex")}`;
  const body = Buffer.from("probe");
  try {
    const first = await store.putIfMatch!(probe, body, {}, { absent: true });
    if (first === "unsupported") return false;
    return (await store.putIfMatch!(probe, body, {}, { absent: true })) === "conflict";
  } finally {
    await store.delete(probe);
  }
}

async function read(store: ObjectStore, key: string): Promise<LeaseBody | undefined> {
  const b = await store.get(key);
  if (!b) return undefined;
  try {
    const v = JSON.parse(b.toString("utf8")) as LeaseBody;
    return typeof v.owner === "string" && typeof v.expires === "number" ? v : undefined;
  } catch {
    return undefined;
  }
}
