// The default store: a local folder with exactly the bucket's key layout (DESIGN §1).
// Writes go to a temporary file in the same folder, then rename: atomic on POSIX file systems.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ObjectStore, StoreError } from "./store.js";

export class LocalStore implements ObjectStore {
  readonly url: string;

  constructor(private readonly root: string) {
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

  async put(key: string, body: Buffer): Promise<void> {
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

  async head(key: string): Promise<{ size: number } | undefined> {
    try {
      const s = await stat(this.file(key, "head"));
      return s.isFile() ? { size: s.size } : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new StoreError("head", key, { cause: err });
    }
  }

  async list(prefix: string): Promise<string[]> {
    const dir = prefix.endsWith("/") ? prefix.slice(0, -1) : path.posix.dirname(prefix);
    const base = dir === "." || dir === "" ? this.root : this.file(dir);
    try {
      const entries = await readdir(base, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && !e.name.endsWith(".tmp"))
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

function isNotFound(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && (err.code === "ENOENT" || err.code === "ENOTDIR");
}
