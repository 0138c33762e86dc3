// One publisher at a time per store (docs/design.md §5, §9): a run (`publish`, `run`, `replay`, each publication of
// `watch`) holds `internal/publisher.json` from its first write to its last. The object names its holder (command,
// host, process, since) and an expiry the holder renews while it works, so a holder killed with SIGKILL keeps
// others out for at most `ttlMs`, and not at all on its own machine (`gone`). Taken and renewed with a conditional
// write where the store has them (local folder, AWS S3), else by writing, waiting and reading back (s3rver, Swift).
// It is the only lease: on a store without conditional writes it also guards the pointer flip, which asks
// `confirm()` first (a holder that lost its lease switches nothing).
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

/** Another publisher holds the store (or took it over from this one): who, and until when at the latest. */
export class PublisherBusy extends Error {
  override readonly name = "PublisherBusy";
  constructor(
    readonly holder: Holder,
    lost = false,
  ) {
    super(
      lost
        ? `this run's publisher lease was taken over (${holder.who}); nothing was switched`
        : `another publisher holds the store (${holder.who}) until ${new Date(holder.expires).toISOString()} at the latest`,
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
  /** The machine's clock, which expiries are written and judged by. @default Date.now */
  clock?: () => number;
  /** How long the lease holds without renewal. @default 120000 */
  ttlMs?: number;
  /** Stores without conditional writes: the wait before reading the lease back. @default 300 */
  settleMs?: number;
}

/** What the pointer flip asks of the lease before it switches anything. */
export interface LeaseGuard {
  /** Resolves while this run still holds the lease; `PublisherBusy` (lost) when another has taken it over. */
  confirm(): Promise<void>;
}

export interface HeldLease extends LeaseGuard {
  /** Gives the lease up (renewals stop). */
  release(): Promise<void>;
}

/** Takes the store's publisher lease, renewed every third of its life until released; `PublisherBusy` when held. */
export async function takePublisherLease(store: ObjectStore, o: LeaseOptions): Promise<HeldLease> {
  const lease = new Lease(store, o);
  await lease.take();
  return lease;
}

class Lease implements HeldLease {
  private readonly owner = randomBytes(8).toString("hex");
  private readonly ttl: number;
  private readonly clock: () => number;
  /** Until when the last write of this lease that reached the store holds it (by `clock`). */
  private validUntil = 0;
  /** The holder that took the lease over from this run, once seen. */
  private lostTo: Holder | undefined;
  private renewal: NodeJS.Timeout | undefined;
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ObjectStore,
    private readonly o: LeaseOptions,
  ) {
    this.ttl = o.ttlMs ?? 120_000;
    this.clock = o.clock ?? Date.now;
  }

  async take(): Promise<void> {
    const current = await readHolder(this.store);
    const held = current?.holder;
    if (held && held.expires > this.clock() && !this.o.gone?.(held)) throw new PublisherBusy(held);
    // an expired, gone or unreadable lease is taken over, only if it is still the object read
    if (!(await this.write(current))) throw new PublisherBusy((await readHolder(this.store))?.holder ?? this.unknown());
    // one renewal at a time: a second begun while a slow store still writes the first would find the object changed
    // under it (by this run) and its conditional write refused
    let busy = false;
    this.renewal = setInterval(() => {
      if (busy) return;
      busy = true;
      this.renewing = this.renew().finally(() => {
        busy = false;
      });
    }, this.ttl / 3);
    this.renewal.unref();
  }

  async confirm(): Promise<void> {
    await this.renewing;
    if (this.lostTo) throw new PublisherBusy(this.lostTo, true);
    const now = await readHolder(this.store);
    if (now?.holder?.owner !== this.owner) this.lostTo = now?.holder ?? this.unknown();
    else if (this.clock() >= this.validUntil) this.lostTo = { ...now.holder, who: "nobody: it expired unrenewed" };
    if (this.lostTo) throw new PublisherBusy(this.lostTo, true);
  }

  async release(): Promise<void> {
    clearInterval(this.renewal);
    await this.renewing;
    const mine = await readHolder(this.store);
    if (mine?.holder?.owner === this.owner) await this.store.delete(PUBLISHER_KEY);
  }

  /** Renews the lease while it is still this run's; a lease another has taken is never written over. */
  private async renew(): Promise<void> {
    try {
      if (this.lostTo) return;
      const current = await readHolder(this.store);
      if (current?.holder?.owner !== this.owner) {
        this.lostTo = current?.holder ?? this.unknown();
        return;
      }
      if (await this.write(current)) return;
      // refused: lost only when another's lease is there now (the object read may have changed under a slow read)
      const now = (await readHolder(this.store))?.holder;
      if (now?.owner !== this.owner) this.lostTo = now ?? this.unknown();
    } catch {
      // the store did not answer: the next renewal tries again; confirm() judges by the last write that landed
    }
  }

  /** Writes this run's lease over `current` (as read): whether it is this run's now. */
  private async write(current: { etag?: string } | undefined): Promise<boolean> {
    const at = this.clock();
    const body: Holder = {
      owner: this.owner,
      who: this.o.who,
      ...(this.o.host ? { host: this.o.host } : {}),
      ...(this.o.pid ? { pid: this.o.pid } : {}),
      expires: at + this.ttl,
    };
    const bytes = Buffer.from(JSON.stringify(body));
    const options = { contentType: "application/json" };
    const expected = current ? { etag: current.etag ?? "" } : { absent: true };
    const written = this.store.putIfMatch
      ? await this.store.putIfMatch(PUBLISHER_KEY, bytes, options, expected)
      : "unsupported";
    if (written === "conflict") return false;
    if (written === "unsupported") {
      await this.store.put(PUBLISHER_KEY, bytes, options);
      // a second writer shows up within the wait: the last one's lease stands, the other backs off
      await new Promise((r) => setTimeout(r, this.o.settleMs ?? 300));
      if ((await readHolder(this.store))?.holder?.owner !== this.owner) return false;
    }
    this.validUntil = at + this.ttl;
    return true;
  }

  private unknown(): Holder {
    return { owner: "", who: "unknown", expires: this.clock() };
  }
}

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
