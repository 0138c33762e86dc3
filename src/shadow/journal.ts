// src/shadow — the shadow path of DESIGN §5: journal, master features and the public status document.
// The shadow path's durable queue (DESIGN §5): one object per message in the store, so a crashed run's messages
// are found and drained by the next. `internal/shadow/journal/<seq>.json` waits; `internal/shadow/dead/<seq>.json`
// is a message that failed `maxAttempts` times. Keys are zero-padded so the store's sorted listing is FIFO.
import PQueue from "p-queue";
import { z } from "zod";
import { IsoInstant } from "../model/contract.js";
import { parseVersioned } from "../model/manifest.js";
import { isoInstant } from "../model/time.js";
import type { ObjectStore } from "../publish/store.js";

export const JOURNAL_PREFIX = "internal/shadow/journal/";
export const DEAD_PREFIX = "internal/shadow/dead/";
const JOURNAL_SCHEMA = 1;
const JSON_HEADERS = { contentType: "application/json", cacheControl: "no-store" };

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

export interface JournalOptions {
  /** Failed tries after which a message becomes a dead letter. @default 5 */
  maxAttempts: number;
}
const DEFAULTS: JournalOptions = { maxAttempts: 5 };

const keyOf = (prefix: string, seq: number) => `${prefix}${String(seq).padStart(12, "0")}.json`;
const encode = (m: QueueMessage) => Buffer.from(`${JSON.stringify(m)}\n`);

export class Journal {
  private readonly options: JournalOptions;

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
   * Appends one message per item, numbered in order after every message the journal or the dead letters hold, and
   * written `concurrency` at a time: a crash part-way leaves some of them, and the next run's diff finds the rest.
   */
  async enqueue(
    items: readonly { featureId: string; hash: string | null }[],
    now: number,
    concurrency = 16,
  ): Promise<QueueMessage[]> {
    const keys = [...(await this.store.list(JOURNAL_PREFIX)), ...(await this.store.list(DEAD_PREFIX))];
    const last = keys.reduce((max, k) => Math.max(max, Number(/(\d+)\.json$/.exec(k)?.[1] ?? 0)), 0);
    const enqueuedAt = isoInstant(now);
    const messages = items.map(
      (item, i): QueueMessage => ({ schema: JOURNAL_SCHEMA, seq: last + i + 1, enqueuedAt, ...item, attempts: 0 }),
    );
    const queue = new PQueue({ concurrency });
    await Promise.all(
      messages.map((m) => queue.add(() => this.store.put(keyOf(JOURNAL_PREFIX, m.seq), encode(m), JSON_HEADERS))),
    );
    return messages;
  }

  /** Waiting messages, oldest first. */
  pending(): Promise<QueueMessage[]> {
    return this.read(JOURNAL_PREFIX);
  }

  /** Dead letters, oldest first. */
  dead(): Promise<QueueMessage[]> {
    return this.read(DEAD_PREFIX);
  }

  /** The message was handled: it leaves the journal. */
  async ack(message: QueueMessage): Promise<void> {
    await this.store.delete(keyOf(JOURNAL_PREFIX, message.seq));
  }

  /**
   * Records one failed try. Below `maxAttempts` the message stays waiting with its count raised; at it, the message
   * moves to the dead letters (written there before it leaves the journal, so a crash loses nothing).
   */
  async fail(message: QueueMessage): Promise<{ message: QueueMessage; dead: boolean }> {
    const next: QueueMessage = { ...message, attempts: message.attempts + 1 };
    const dead = next.attempts >= this.options.maxAttempts;
    if (dead) {
      await this.store.put(keyOf(DEAD_PREFIX, next.seq), encode(next), JSON_HEADERS);
      await this.store.delete(keyOf(JOURNAL_PREFIX, next.seq));
    } else {
      await this.store.put(keyOf(JOURNAL_PREFIX, next.seq), encode(next), JSON_HEADERS);
    }
    return { message: next, dead };
  }

  private async read(prefix: string): Promise<QueueMessage[]> {
    const out: QueueMessage[] = [];
    for (const key of await this.store.list(prefix)) {
      const body = await this.store.get(key);
      if (body) out.push(parseVersioned(QueueMessage, body.toString("utf8"), key));
    }
    return out.sort((a, b) => a.seq - b.seq);
  }
}
