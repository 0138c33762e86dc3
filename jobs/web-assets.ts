// The built map page (dist/web, made by `npm run build`): served by the origin at `/`, and written into the
// store beside the artifacts (`index.html`, `app.js`, …) so that a CDN in front of the bucket serves it too.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ASSET_CACHE } from "../src/origin/http.js";
import type { ObjectStore } from "../src/store/store.js";

export const PAGE_FILES = ["index.html", "app.js", "app.css", "leaflet.css"] as const;
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** The page's files by URL path (`/` is index.html); empty when the page was not built. */
export async function mapPage(): Promise<Map<string, { body: Buffer; type: string }>> {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const web = path.join(dir, "dist", "web");
  const out = new Map<string, { body: Buffer; type: string }>();
  for (const name of PAGE_FILES) {
    const body = await readFile(path.join(web, name)).catch(() => undefined);
    if (body) out.set(`/${name}`, { body, type: TYPES[path.extname(name)]! });
  }
  const index = out.get("/index.html");
  if (index) out.set("/", index);
  return out;
}

/** Writes the page's files into the store where they differ from what is there; the keys written. */
export async function publishMapPage(store: ObjectStore): Promise<string[]> {
  const written: string[] = [];
  for (const [url, file] of await mapPage()) {
    if (url === "/") continue;
    const key = url.slice(1);
    const current = await store.get(key);
    if (current?.equals(file.body)) continue;
    await store.put(key, file.body, { contentType: file.type, cacheControl: ASSET_CACHE });
    written.push(key);
  }
  return written;
}
