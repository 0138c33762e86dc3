// `airspace-publisher sync --endpoint … --token … --countries DE,FR --out DIR [--every 60]` (issue 51): keeps
// `DIR/<CC>.geojson` current through the client (src/client): the first sync downloads in full, later ones apply the
// change sets; each file is written whole or not at all. One line per sync: the version, what changed, and whether
// it was a full download. Once: exit 0, or 1 with one line saying why. With --every: until SIGINT or SIGTERM, a failed
// sync said and tried again at the next.
import { mkdir } from "node:fs/promises";
import { ClientError, createClient, type SyncResult } from "../../src/client/client.js";
import { folderStorage } from "../../src/client/storage-folder.js";
import type { Io } from "../io.js";
import { UsageError } from "../usage.js";

export interface SyncFlags {
  endpoint?: string;
  token?: string;
  countries?: string;
  out?: string;
  every?: string;
  day?: string;
}

export async function syncCommand(flags: SyncFlags, io: Io, stop?: AbortSignal): Promise<number> {
  const { endpoint, out } = flags;
  const token = flags.token ?? process.env.AIRSPACE_TOKEN;
  if (!endpoint) throw new UsageError("sync needs --endpoint URL (the service, e.g. http://127.0.0.1:8080)");
  if (!token) throw new UsageError("sync needs --token TOKEN (or AIRSPACE_TOKEN in the environment)");
  if (!out) throw new UsageError("sync needs --out DIR (where <CC>.geojson are kept)");
  const countries = (flags.countries ?? "")
    .split(",")
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  if (countries.length === 0 || countries.some((c) => !/^[A-Z]{2}$/.test(c)))
    throw new UsageError(
      `--countries: two-letter codes separated by commas, e.g. DE,FR (got "${flags.countries ?? ""}")`,
    );
  const day = flags.day ?? "today";
  if (day !== "today" && day !== "tomorrow") throw new UsageError(`--day: today or tomorrow (got "${day}")`);
  const every = flags.every === undefined ? undefined : Number(flags.every);
  if (every !== undefined && !(every >= 1)) throw new UsageError(`--every: seconds, at least 1 (got "${flags.every}")`);
  try {
    new URL(endpoint);
  } catch {
    throw new UsageError(`--endpoint: not a URL: "${endpoint}"`);
  }
  await mkdir(out, { recursive: true });
  const client = createClient({ endpoint, token, countries, day, storage: folderStorage(out) });
  const once = async (): Promise<boolean> => {
    try {
      io.stdout.write(`${lineOf(await client.sync(), io.now())}\n`);
      return true;
    } catch (e) {
      if (!(e instanceof ClientError)) throw e;
      io.stderr.write(`airspace-publisher: sync failed: ${e.message}\n`);
      return false;
    }
  };
  if (every === undefined) return (await once()) ? 0 : 1;
  const ended = stop ?? signalled();
  while (!ended.aborted) {
    await once();
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, every * 1000);
      const stopNow = () => {
        clearTimeout(t);
        resolve();
      };
      ended.addEventListener("abort", stopNow, { once: true });
    });
  }
  return 0;
}

/** Aborted at SIGINT or SIGTERM. */
function signalled(): AbortSignal {
  const c = new AbortController();
  for (const s of ["SIGINT", "SIGTERM"] as const) process.once(s, () => c.abort());
  return c.signal;
}

/** `2026-08-22T11:31:02Z 20260822T113000Z-5228df07 change set: GB +0 ~1 -0 (3.4 KiB)`. */
export function lineOf(r: SyncResult, now: number): string {
  const at = new Date(now).toISOString().replace(/\.\d+Z$/, "Z");
  const parts = Object.entries(r.changed).map(([cc, c]) => `${cc} +${c.added} ~${c.changed} -${c.removed}`);
  const what = parts.length === 0 ? "unchanged" : `${r.full ? "full download" : "change set"}: ${parts.join(", ")}`;
  return `${at} ${r.version} ${what} (${(r.bytes / 1024).toFixed(1)} KiB)`;
}
