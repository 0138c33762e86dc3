// A client's collections in a folder, for Node (docs/client.md): `<CC>.geojson` is the collection as published, so
// other tools read it as it is, and `.airspace-sync.json` the version and features digest of each. Each file is
// written to a temporary name, flushed and renamed over the old one: a crash leaves the old file or the new, never a
// part. The collection is written before its record; a crash between the two leaves a collection whose digest is not
// the record's, which the client then downloads again.
import { open, readdir, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { ClientStorage, HeldCountry } from "./storage.js";

const STATE = ".airspace-sync.json";

type State = Record<string, { version: string; day: string; digest: string }>;

export function folderStorage(dir: string): ClientStorage {
  const file = (cc: string) => path.join(dir, `${cc}.geojson`);
  const readState = async (): Promise<State> => {
    const text = await readFile(path.join(dir, STATE), "utf8").catch(() => "{}");
    try {
      const state = JSON.parse(text) as State;
      return typeof state === "object" && state !== null ? state : {};
    } catch {
      return {};
    }
  };
  let swept = false;
  return {
    async load(cc): Promise<HeldCountry | undefined> {
      const entry = (await readState())[cc];
      if (!entry) return undefined;
      const text = await readFile(file(cc), "utf8").catch(() => undefined);
      return text === undefined ? undefined : { ...entry, text };
    },
    async save(cc, held) {
      if (!swept) await sweep(dir);
      swept = true;
      await writeAtomically(file(cc), held.text);
      const state = await readState();
      state[cc] = { version: held.version, day: held.day, digest: held.digest };
      await writeAtomically(path.join(dir, STATE), `${JSON.stringify(state, null, 2)}\n`);
    },
  };
}

/** `text` under `to`, by way of a temporary file flushed to disk and renamed. */
export async function writeAtomically(to: string, text: string): Promise<void> {
  const tmp = `${to}.${process.pid}.tmp`;
  const handle = await open(tmp, "w");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, to);
}

/** Removes the temporary files of processes that are gone (a kill between writing and renaming leaves one). */
async function sweep(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [])) {
    const pid = Number(/\.(\d+)\.tmp$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) await unlink(path.join(dir, name)).catch(() => {});
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
