// Bundles the map page (web/) into dist/web: app.js (Leaflet, protomaps-leaflet for the vector tiles,
// topojson-client, Natural Earth outlines from world-atlas, the pipeline's palette), index.html, app.css and
// Leaflet's stylesheet. No network at build time.
// WEB_MINIFY=0 keeps names readable for a browser profile.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist", "web");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: path.join(root, "web", "main.ts") },
  outdir: out,
  bundle: true,
  minify: process.env.WEB_MINIFY !== "0",
  format: "iife",
  target: "es2020",
  legalComments: "eof",
  logLevel: "warning",
});
const require = createRequire(import.meta.url);
copyFileSync(require.resolve("leaflet/dist/leaflet.css"), path.join(out, "leaflet.css"));
for (const f of ["index.html", "app.css"]) copyFileSync(path.join(root, "web", f), path.join(out, f));
