// A version's objects uploaded (docs/design.md §5): an object already stored is not written again (its key names its
// content), and a few uploads are in flight at once.
import PQueue from "p-queue";
import type { ObjectStore, PutOptions } from "../store/store.js";

/** An object to store: its bytes, or how to make them (a country's gzip object, made only when not stored yet). */
export type Upload = [string, Buffer | (() => Buffer), PutOptions];

/** Uploads in flight at once: enough to hide request latency, few enough for small stores. */
const UPLOAD_CONCURRENCY = 8;

/** Stores the objects not stored yet: the keys written and the keys already there, each sorted. */
export async function uploadObjects(
  store: ObjectStore,
  uploads: readonly Upload[],
  progress: (event: { phase: "upload"; done: number; total: number }) => void,
): Promise<{ uploaded: string[]; reused: string[] }> {
  const uploaded: string[] = [];
  const reused: string[] = [];
  let done = 0;
  const queue = new PQueue({ concurrency: UPLOAD_CONCURRENCY });
  await Promise.all(
    uploads.map(([key, bytes, headers]) =>
      queue.add(async () => {
        if (await store.head(key)) reused.push(key);
        else {
          await store.put(key, typeof bytes === "function" ? bytes() : bytes, headers);
          uploaded.push(key);
        }
        progress({ phase: "upload", done: ++done, total: uploads.length });
      }),
    ),
  );
  uploaded.sort();
  reused.sort();
  return { uploaded, reused };
}
