// src/shadow — the shadow path of docs/design.md §5: journal, master features and the public status document.
// The shadow path's durable queue (docs/design.md §5): messages are written in batches, one store object per batch of up
// to 1 000 (`internal/shadow/journal/<last seq>.json`), so a first load of 49 000 features costs 49 journal writes,
// not 49 000. A crashed run's batches are found and drained by the next: handling a message twice writes the same
// feature again, so nothing is lost by settling batches late. A message that failed `maxAttempts` times moves to
// `internal/shadow/dead/<seq>.json`. Keys are zero-padded so the store's sorted listing is FIFO.
import PQueue from "p-queue";
import { z } from "zod";
import { IsoInstant } from "../model/contract.js";
import { parseVersioned } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { ObjectStore } from "../store/store.js";

export const JOURNAL_PREFIX = "internal/shadow/journal/";
export const DEAD_PREFIX = "internal/shadow/dead/";
const JOURNAL_SCHEMA = 1;
const JSON_HEADERS = { contentType: "application/json", cacheControl: "no-store" };
/** Messages per journal object. */
export const BATCH = 1000;

export const QueueMessage = z.strictObject({
  schema: z.literal(JOURNAL_SCHEMA),
  seq: z.number().int().min(1),
  enqueuedAt: IsoInstant,
  featureId: z.string().min(1),
  /** SHA-256 of the feature's dynamic part; null when the feature is no longer published. */
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  /** Failed tries so far. */
  attempts: z.number().int().min(0),
});
export type QueueMessage = z.infer<typeof QueueMessage>;

/** A journal object: a batch, or one message as written before batches (still read). */
const JournalObject = z.union([
  z.strictObject({ schema: z.literal(JOURNAL_SCHEMA), messages: z.array(QueueMessage) }),
  QueueMessage,
]);

export interface JournalOptions {
  /** Failed tries after which a message becomes a dead letter. @default 5 */
  maxAttempts: number;
}
const DEFAULTS: JournalOptions = { maxAttempts: 5 };

const keyOf = (prefix: string, seq: number) => `${prefix}${String(seq).padStart(12, "0")}.json`;
const seqOf = (key: string) => Number(/(\d+)\.json$/.exec(key)?.[1] ?? 0);
const encode = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);

/** One journal object as this run knows it: the messages still waiting in it, and whether the store lags. */
interface Batch {
  key: string;
  waiting: Map<number, QueueMessage>;
  dirty: boolean;
}

export class Journal {
  private readonly options: JournalOptions;
  /** Journal objects by key, and the object of each waiting message. */
  private readonly batches = new Map<string, Batch>();
  private readonly batchOf = new Map<number, Batch>();

  constructor(
    private readonly store: ObjectStore,
    options: Partial<JournalOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const n = this.options.maxAttempts;
    if (!Number.isInteger(n) || n < 1) {
      throw new RangeError(`journal option \`maxAttempts\`: expected an integer >= 1, received ${n}`);
    }
  }

  /**
   * Appends one message per item, numbered in order after every message the journal or the dead letters hold,
   * in batches written `concurrency` at a time.
   */
  async enqueue(
    items: readonly { featureId: string; hash: string | null }[],
    now: number,
    concurrency = 4,
  ): Promise<QueueMessage[]> {
    const keys = [...(await this.store.list(JOURNAL_PREFIX)), ...(await this.store.list(DEAD_PREFIX))];
    const last = keys.reduce((max, k) => Math.max(max, seqOf(k)), 0);
    const enqueuedAt = isoInstant(now);
    const messages = items.map(
      (item, i): QueueMessage => ({ schema: JOURNAL_SCHEMA, seq: last + i + 1, enqueuedAt, ...item, attempts: 0 }),
    );
    const queue = new PQueue({ concurrency });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < messages.length; i += BATCH) {
      const part = messages.slice(i, i + BATCH);
      const batch = this.remember(keyOf(JOURNAL_PREFIX, part[part.length - 1]!.seq), part);
      const body = encode({ schema: JOURNAL_SCHEMA, messages: part });
      writes.push(queue.add(() => this.store.put(batch.key, body, JSON_HEADERS)));
    }
    await Promise.all(writes);
    return messages;
  }

  /** Waiting messages, oldest first (what this run settled, and what the store holds besides). */
  async pending(): Promise<QueueMessage[]> {
    await this.settle();
    const out: QueueMessage[] = [];
    for (const key of await this.store.list(JOURNAL_PREFIX)) {
      const known = this.batches.get(key);
      if (known) {
        out.push(...known.waiting.values());
        continue;
      }
      const body = await this.store.get(key);
      if (!body) continue;
      const parsed = parseVersioned(JournalObject, body.toString("utf8"), key);
      const messages = "messages" in parsed ? parsed.messages : [parsed];
      out.push(...this.remember(key, messages).waiting.values());
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Dead letters, oldest first. */
  async dead(): Promise<QueueMessage[]> {
    const out: QueueMessage[] = [];
    for (const key of await this.store.list(DEAD_PREFIX)) {
      const body = await this.store.get(key);
      if (body) out.push(parseVersioned(QueueMessage, body.toString("utf8"), key));
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** The message was handled: it leaves the journal (its object goes once every message in it has left). */
  async ack(message: QueueMessage): Promise<void> {
    const batch = this.batchOf.get(message.seq);
    if (!batch?.waiting.delete(message.seq)) return;
    this.batchOf.delete(message.seq);
    batch.dirty = true;
    if (batch.waiting.size > 0) return;
    this.batches.delete(batch.key);
    await this.store.delete(batch.key);
  }

  /**
   * Records one failed try. Below `maxAttempts` the message stays waiting with its count raised (written when the
   * journal settles); at it, the message moves to the dead letters (written there before it leaves its batch).
   */
  async fail(message: QueueMessage): Promise<{ message: QueueMessage; dead: boolean }> {
    const next: QueueMessage = { ...message, attempts: message.attempts + 1 };
    const dead = next.attempts >= this.options.maxAttempts;
    if (dead) {
      await this.store.put(keyOf(DEAD_PREFIX, next.seq), encode(next), JSON_HEADERS);
      await this.ack(next);
    } else {
      const batch = this.batchOf.get(next.seq);
      if (batch) {
        batch.waiting.set(next.seq, next);
        batch.dirty = true;
      }
    }
    return { message: next, dead };
  }

  /** Writes each batch some of whose messages left or failed: the ones still waiting, or nothing when none are. */
  async settle(): Promise<void> {
    for (const batch of this.batches.values()) {
      if (!batch.dirty) continue;
      batch.dirty = false; // a batch whose last message left is deleted and forgotten then
      const messages = [...batch.waiting.values()].sort((a, b) => a.seq - b.seq);
      await this.store.put(batch.key, encode({ schema: JOURNAL_SCHEMA, messages }), JSON_HEADERS);
    }
  }

  private remember(key: string, messages: readonly QueueMessage[]): Batch {
    const batch: Batch = { key, waiting: new Map(messages.map((m) => [m.seq, m])), dirty: false };
    this.batches.set(key, batch);
    for (const m of messages) this.batchOf.set(m.seq, batch);
    return batch;
  }
}
