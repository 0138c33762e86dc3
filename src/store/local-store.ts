// The default store: a local folder with exactly the bucket's key layout (docs/design.md §1).
// Writes go to a temporary file in the same folder, then rename: atomic on POSIX file systems.
import { randomBytes } from "node:crypto";
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  type ConditionalPut,
  checkExpectation,
  expectationHolds,
  type ObjectStore,
  type PutExpectation,
  type PutOptions,
  StoreError,
} from "./store.js";

/**
 * Conditional writes in flight per absolute file path, shared by every LocalStore of this process. This makes
 * putIfMatch is a compare-and-swap between callers of one process (a promise chain per file) and between
 * processes (a lock file hard-linked into place, which the file system grants to one creator only).
 */
const locks = new Map<string, Promise<unknown>>();

export class LocalStore implements ObjectStore {
  readonly url: string;

  /** `clock` (epoch ms) lets a lock file left by a crashed process be broken after 30 s; without it, waits fail. */
  constructor(
    private readonly root: string,
    private readonly clock?: () => number,
  ) {
    this.url = pathToFileURL(path.resolve(root)).href;
  }

  private file(key: string, operation: StoreError["operation"] = "get"): string {
    const parts = key.split("/");
    if (key.startsWith("/") || parts.some((p) => p === "" || p === "." || p === "..")) {
      throw new StoreError(operation, key, { cause: new Error(`invalid key "${key}"`) });
    }
    return path.join(this.root, ...parts);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.file(key));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new StoreError("get", key, { cause: err });
    }
  }

  async put(key: string, body: Buffer, _options?: PutOptions): Promise<void> {
    const target = this.file(key, "put");
    const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(tmp, body);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw new StoreError("put", key, { cause: err });
    }
  }

  /** The ETag is a hash of the content (the file is read): it names the bytes, like S3's, not the write. */
  async head(key: string): Promise<{ size: number; etag: string } | undefined> {
    try {
      const file = this.file(key, "head");
      const s = await stat(file, { bigint: true });
      return s.isFile() ? { size: Number(s.size), etag: statEtag(s) } : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new StoreError("head", key, { cause: err });
    }
  }

  async putIfMatch(key: string, body: Buffer, options: PutOptions, expected: PutExpectation): Promise<ConditionalPut> {
    const want = checkExpectation(expected);
    const file = path.resolve(this.file(key, "put"));
    const previous = locks.get(file) ?? Promise.resolve();
    const run = previous.then(() =>
      withFileLock(`${file}.lock`, this.clock, async (): Promise<ConditionalPut> => {
        const current = await this.head(key);
        if (!expectationHolds(want, current?.etag)) return "conflict";
        await this.put(key, body, options);
        return "written";
      }),
    );
    const settled = run.catch(() => undefined);
    locks.set(file, settled);
    void settled.then(() => {
      if (locks.get(file) === settled) locks.delete(file);
    });
    return run;
  }

  async list(prefix: string): Promise<string[]> {
    const dir = prefix.endsWith("/") ? prefix.slice(0, -1) : path.posix.dirname(prefix);
    const base = dir === "." || dir === "" ? this.root : this.file(dir);
    try {
      const entries = await readdir(base, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && !e.name.endsWith(".tmp") && !e.name.endsWith(".lock"))
        .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
        .filter((k) => k.startsWith(prefix))
        .sort();
    } catch (err) {
      if (isNotFound(err)) return [];
      throw new StoreError("list", prefix, { cause: err });
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await rm(this.file(key, "delete"), { force: true });
    } catch (err) {
      throw new StoreError("delete", key, { cause: err });
    }
  }
}

/**
 * The ETag of a file from its metadata, not its bytes (head is called for every object of a publication): every
 * put writes a new file and renames it into place, so inode and nanosecond mtime change with each write.
 */
function statEtag(s: { ino: bigint; mtimeNs: bigint; size: bigint }): string {
  return `"${s.ino.toString(16)}-${s.mtimeNs.toString(16)}-${s.size.toString(16)}"`;
}

function isNotFound(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && (err.code === "ENOENT" || err.code === "ENOTDIR");
}

/**
 * A lock whose process is gone (killed), or, with a clock, older than STALE_LOCK_MS, is abandoned. So is an empty
 * one: this code never makes one (the lock comes into being with its pid), but a publisher of before 2026-11-26 that
 * was killed between creating its lock and writing its pid left one behind.
 */
async function abandoned(lockPath: string, clock: (() => number) | undefined): Promise<boolean> {
  const text = await readFile(lockPath, "utf8").catch(() => undefined);
  if (text?.trim() === "") return true;
  const pid = Number(text?.trim());
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0); // signal 0 only asks whether the process exists
    } catch (err) {
      if ((err as { code?: string }).code === "ESRCH") return true;
    }
  }
  const info = clock ? await stat(lockPath).catch(() => undefined) : undefined;
  return info !== undefined && clock !== undefined && clock() - info.mtimeMs > STALE_LOCK_MS;
}

/** How long a lock file may stand before it counts as left by a crashed process. */
const STALE_LOCK_MS = 30_000;

/**
 * Runs `fn` holding `lockPath`; waits for another holder, breaks an abandoned lock. The lock is a file holding this
 * process's pid, written beside it first and then hard-linked into place: `link` fails when the name exists, so one
 * creator wins, and the lock never exists without its pid (created empty and then written, a kill in between left a
 * lock that no later run could tell from a live one).
 */
async function withFileLock<T>(lockPath: string, clock: (() => number) | undefined, fn: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lockPath), { recursive: true });
  const mine = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(mine, String(process.pid));
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(mine, lockPath);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== "EEXIST") throw err;
        if (attempt > 400) {
          throw new Error(`lock file ${lockPath} is held (remove it if no publisher is running)`, { cause: err });
        }
        if (await abandoned(lockPath, clock)) await rm(lockPath, { force: true });
        else await new Promise((r) => setTimeout(r, 25));
      }
    }
  } finally {
    await rm(mine, { force: true });
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}
