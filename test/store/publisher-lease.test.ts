// The store's publisher lease (src/store/publisher-lease.ts): one publisher at a time, the second told who holds it;
// an expired or unreadable lease taken over; renewed while held. On the local folder (conditional writes) and on a
// store without them (the write, wait and read-back way of s3rver and Swift).
import { describe, expect, it } from "vitest";
import { LocalStore } from "../../src/store/local-store.js";
import { MemoryStore } from "../../src/store/memory-store.js";
import { PUBLISHER_KEY, PublisherBusy, takePublisherLease } from "../../src/store/publisher-lease.js";
import type { ObjectStore } from "../../src/store/store.js";
import { tempDir } from "../helpers.js";

/** A store that cannot compare-and-swap, as s3rver and Swift. */
function plain(): ObjectStore {
  const m = new MemoryStore();
  return {
    url: "memory://plain",
    get: (k) => m.get(k),
    put: (k, b) => m.put(k, b),
    head: (k) => m.head(k),
    list: (p) => m.list(p),
    delete: (k) => m.delete(k),
  };
}

const stores: Array<[string, () => ObjectStore]> = [
  ["a local folder (conditional writes)", () => new LocalStore(tempDir("lease-"))],
  ["a store without conditional writes", plain],
];

describe.each(stores)("the publisher lease on %s", (_, make) => {
  it("keeps a second publisher out, naming the holder, until the first releases it", async () => {
    const store = make();
    const clock = () => Date.parse("2026-11-28T10:00:00Z");
    const first = await takePublisherLease(store, { who: "watch on host-a, pid 1", clock, settleMs: 5 });
    const second = takePublisherLease(store, { who: "publish on host-b, pid 2", clock, settleMs: 5 });
    await expect(second).rejects.toBeInstanceOf(PublisherBusy);
    await expect(second).rejects.toThrow(/watch on host-a, pid 1/);
    await first.release();
    expect(await store.get(PUBLISHER_KEY)).toBeUndefined();
    const again = await takePublisherLease(store, { who: "publish on host-b, pid 2", clock, settleMs: 5 });
    await again.release();
  });

  it("takes over a lease whose holder stopped renewing it (killed) once it expired, and one that is not a lease", async () => {
    const store = make();
    let now = Date.parse("2026-11-28T10:00:00Z");
    const clock = () => now;
    await takePublisherLease(store, { who: "killed", clock, ttlMs: 60_000, settleMs: 5 }); // never released
    now += 59_000;
    await expect(takePublisherLease(store, { who: "b", clock, settleMs: 5 })).rejects.toBeInstanceOf(PublisherBusy);
    now += 2_000;
    const taken = await takePublisherLease(store, { who: "b", clock, settleMs: 5 });
    await taken.release();
    await store.put(PUBLISHER_KEY, Buffer.from("{cut"));
    const over = await takePublisherLease(store, { who: "c", clock, settleMs: 5 });
    expect(JSON.parse(String(await store.get(PUBLISHER_KEY))).who).toBe("c");
    await over.release();
  });

  it("takes over at once a lease whose holder is known to be gone (a process killed on this machine)", async () => {
    const store = make();
    const clock = () => Date.parse("2026-11-28T10:00:00Z");
    await takePublisherLease(store, { who: "killed", host: "h", pid: 4_000_000, clock, settleMs: 5 });
    const gone = (h: { host?: string; pid?: number }) => h.host === "h" && h.pid === 4_000_000;
    await expect(takePublisherLease(store, { who: "b", clock, settleMs: 5 })).rejects.toBeInstanceOf(PublisherBusy);
    const taken = await takePublisherLease(store, { who: "b", host: "h", pid: 2, clock, gone, settleMs: 5 });
    expect(JSON.parse(String(await store.get(PUBLISHER_KEY)))).toMatchObject({ who: "b", host: "h", pid: 2 });
    await taken.release();
  });

  it("renews the lease while it is held", async () => {
    const store = make();
    const held = await takePublisherLease(store, { who: "a", ttlMs: 300, settleMs: 5 });
    const first = JSON.parse(String(await store.get(PUBLISHER_KEY))).expires;
    await new Promise((r) => setTimeout(r, 450));
    const later = JSON.parse(String(await store.get(PUBLISHER_KEY))).expires;
    expect(later).toBeGreaterThan(first);
    await held.confirm();
    await held.release();
  });

  it("renews on a store slower than the renewal interval, never taking its own lease for another's", async () => {
    // each write takes longer than a third of the lease's life, so renewals would overlap (the CI run of
    // 2026-11-29 on Node 24: "taken over (a)", its own lease, under load)
    const inner = make();
    const slow: ObjectStore = {
      ...inner,
      url: inner.url,
      get: (k) => inner.get(k),
      head: (k) => inner.head(k),
      list: (p) => inner.list(p),
      delete: (k) => inner.delete(k),
      put: async (k, b, o) => {
        await new Promise((r) => setTimeout(r, 150));
        return inner.put(k, b, o);
      },
      ...(inner.putIfMatch
        ? {
            putIfMatch: async (
              k: string,
              b: Buffer,
              o: { contentType?: string },
              e: { etag: string } | { absent: true },
            ) => {
              await new Promise((r) => setTimeout(r, 150));
              return inner.putIfMatch!(k, b, o, e);
            },
          }
        : {}),
    };
    const held = await takePublisherLease(slow, { who: "a", ttlMs: 300, settleMs: 5 });
    const first = JSON.parse(String(await inner.get(PUBLISHER_KEY))).expires;
    await new Promise((r) => setTimeout(r, 700));
    expect(JSON.parse(String(await inner.get(PUBLISHER_KEY))).expires).toBeGreaterThan(first);
    await held.confirm();
    await held.release();
  });

  it("never renews over a lease another has taken over, and confirm() then says so", async () => {
    const store = make();
    const held = await takePublisherLease(store, { who: "a", ttlMs: 300, settleMs: 5 });
    const other = { owner: "b", who: "publish on host-b, pid 2", expires: Date.now() + 120_000 };
    await store.put(PUBLISHER_KEY, Buffer.from(JSON.stringify(other)));
    await new Promise((r) => setTimeout(r, 450)); // past a renewal
    expect(JSON.parse(String(await store.get(PUBLISHER_KEY)))).toEqual(other);
    await expect(held.confirm()).rejects.toThrow(/taken over \(publish on host-b, pid 2\); nothing was switched/);
    await held.release(); // leaves the other's lease alone
    expect(JSON.parse(String(await store.get(PUBLISHER_KEY)))).toEqual(other);
  });

  it("confirm() fails once the lease expired unrenewed (the store did not take the renewals)", async () => {
    const store = make();
    let now = Date.parse("2026-11-28T10:00:00Z");
    const held = await takePublisherLease(store, { who: "a", clock: () => now, ttlMs: 60_000, settleMs: 5 });
    await held.confirm();
    now += 60_000;
    await expect(held.confirm()).rejects.toBeInstanceOf(PublisherBusy);
    await held.release();
  });
});
