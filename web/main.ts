// The map page: asks the origin for a country set with the user's token, draws every feature with its
// dynamicStyle on one canvas (web/canvas-layer.ts, in Leaflet) over bundled Natural Earth outlines, and lets the user move through the UTC
// day, filter, and click a feature for its details. `window.airspaceMap` exposes counts for the browser tests.
import L from "leaflet";
import { feature as topoFeature } from "topojson-client";
import type { Topology } from "topojson-specification";
import countries50m from "world-atlas/countries-50m.json";
import type { Feature } from "../src/model/contract.js";
import { ACTIVATION_TYPES, AirspaceType } from "../src/model/vocab.js";
import { PALETTE } from "../src/resolve/style.js";
import { FeatureCanvas, type PaintStyle, type Shape } from "./canvas-layer.js";
import { ringsOf } from "./geometry.js";
import {
  ALL,
  activeAt,
  byPriority,
  type Filters,
  formatInterval,
  formatLimit,
  hhmm,
  hidden,
  intervalsOf,
  limitsAt,
  meetsBand,
  type Summary,
} from "./logic.js";
import { type Parsed, Parsers, Superseded } from "./parsers.js";

const EUROPE_CODES =
  "AD AL AT BA BE BG BY CH CY CZ DE DK EE ES FI FR GB GR HR HU IE IS IT LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS SE SI SK SM TR UA".split(
    " ",
  );
/** SPEC §3: a publication older than this is degraded. */
const MAX_LAG_MS = 30 * 60_000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const state = {
  features: [] as Summary[],
  day: "",
  minute: 0,
  filters: { ...ALL } as Filters,
  phases: {} as Record<string, unknown>,
};

const map = L.map("map", { preferCanvas: true, fadeAnimation: false }).setView([50, 10], 4);
L.geoJSON(topoFeature(countries50m as unknown as Topology, (countries50m as unknown as Topology).objects.countries!), {
  interactive: false,
  style: { color: "#94a3b8", weight: 0.8, fillColor: "#f8fafc", fillOpacity: 1 },
}).addTo(map);
const layer = new FeatureCanvas<Summary>(paintStyle, (s, at) => void openPopup(s, at)).addTo(map);
/** Parsing workers, as many as the machine has cores (at most four): the main thread only draws. */
const parsers = new Parsers(Math.min(4, Math.max(2, navigator.hardwareConcurrency || 2)), "worker.js");

const hatches = new Map<string, CanvasPattern>();
/** A diagonal hatch in the feature's line colour, as a canvas pattern Leaflet's canvas renderer can fill with. */
function hatch(color: string, direction: "forwardDiagonal" | "backwardDiagonal"): CanvasPattern | string {
  const key = `${color}|${direction}`;
  const hit = hatches.get(key);
  if (hit) return hit;
  const c = document.createElement("canvas");
  c.width = c.height = 8;
  const ctx = c.getContext("2d");
  if (!ctx) return color;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  const [y0, y1] = direction === "forwardDiagonal" ? [8, 0] : [0, 8];
  ctx.moveTo(0, y0);
  ctx.lineTo(8, y1);
  ctx.stroke();
  const p = ctx.createPattern(c, "repeat");
  if (!p) return color;
  hatches.set(key, p);
  return p;
}

const scaled = new Map<string, string>();
/** `rgba(r, g, b, a)` with its alpha multiplied (capped at 1); remembered, as each repaint asks again. */
function scaleAlpha(css: string, k: number): string {
  const key = `${css}|${k}`;
  let hit = scaled.get(key);
  if (hit === undefined) {
    hit = computeAlpha(css, k);
    scaled.set(key, hit);
  }
  return hit;
}

function computeAlpha(css: string, k: number): string {
  const m = /^rgba\((\d+), ?(\d+), ?(\d+), ?([0-9.]+)\)$/.exec(css);
  return m ? `rgba(${m[1]}, ${m[2]}, ${m[3]}, ${Math.min(1, Number(m[4]) * k)})` : css;
}

/** How a feature is painted now: its dynamicStyle, stronger when active at the chosen minute, faded outside the band. */
function paintStyle(f: Summary): PaintStyle | undefined {
  if (hidden(f, state.filters)) return undefined;
  const s = f.style;
  const now = activeAt(f, instantOf(state.minute));
  const fade = meetsBand(f, state.filters.bandFt) ? 1 : 0.2;
  const fillColor = s?.fillColor ?? "rgba(82, 82, 91, 0.08)";
  const dir = s?.direction;
  const hatched = (dir === "forwardDiagonal" || dir === "backwardDiagonal") && s ? hatch(s.lineColor, dir) : undefined;
  return {
    // the colours carry their opacity already; an active feature stands out with a stronger fill
    fill: hatched ?? scaleAlpha(fillColor, now ? 2.5 : 1),
    fillAlpha: fade,
    stroke: s?.lineColor ?? "rgba(82, 82, 91, 1)",
    strokeAlpha: Math.min(1, fade * (now ? 1.25 : 1)),
    width: (s?.lineWidth ?? 1) * (now ? 2 : 1) + (dir === "inside" ? 2 : 0),
    // Unknown is visibly different from No: a dotted outline (No is drawn solid, faded by its style)
    dash: f.isActive === "Unknown" ? [1, 4] : (s?.dash ?? []),
  };
}

function instantOf(minute: number): number {
  return Date.parse(`${state.day}T00:00:00Z`) + minute * 60_000;
}

function restyle(): void {
  const instant = instantOf(state.minute);
  const active = state.features.filter((f) => !hidden(f, state.filters) && activeAt(f, instant)).length;
  layer.redraw();
  $("time-label").textContent = hhmm(state.minute);
  $("active-count").textContent = String(active);
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Opens a feature's popup once its worker has sent its whole properties. */
async function openPopup(s: Summary, at: L.LatLng): Promise<void> {
  const properties = await parsers.properties(s);
  if (properties) L.popup({ maxWidth: 400 }).setLatLng(at).setContent(popup({ properties })).openOn(map);
}

function popup(f: Pick<Feature, "properties">): string {
  const p = f.properties;
  const m = p.vendor.dynamicAirspaceMapping;
  const temp = limitsAt(f, instantOf(state.minute));
  const rows: [string, string][] = [
    ["Type", String(p.type)],
    ["Class", p.icaoClass === undefined ? "–" : ("ABCDEFG"[p.icaoClass] ?? "unclassified")],
    ["Limits", `${esc(p.vendor.formattedLowerLimit)} – ${esc(p.vendor.formattedUpperLimit)}`],
    ["Active", `${m.isActive} (${m.activationType})`],
    ["Today", [...new Set(intervalsOf(f).map((i) => formatInterval(i, state.day)))].join(", ") || "–"],
  ];
  if (temp) {
    const lo = temp.lower ? formatLimit(temp.lower) : "–";
    const hi = temp.upper ? formatLimit(temp.upper) : "–";
    rows.push(["Now", `${lo} – ${hi}`]);
  }
  const notams = m.notams
    .map(
      (n) =>
        `<div class="notam" data-notam="${esc(n.NotamId)}"><b>${esc(n.NotamId)}</b> kind ${esc(n.NotamIsOfKind ?? "–")}` +
        `${n.ItemD ? `<br>D) ${esc(n.ItemD)}` : ""}${n.ItemE ? `<br>E) ${esc(n.ItemE)}` : ""}</div>`,
    )
    .join("");
  const aup = m.aupuups
    .map(
      (a) =>
        `<div class="notam" data-aup="${esc(a.Designator)}">AUP ${esc(a.Designator)} ${esc(a.Status)} ` +
        `${esc(formatInterval({ start: a.StartDT, end: a.EndDT }, state.day))} ${esc(a.LowerAlt)}–${esc(a.UpperAlt)}</div>`,
    )
    .join("");
  return `<div class="popup"><h3>${esc(p.name)}</h3><table>${rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("")}</table>${notams}${aup}</div>`;
}

/** Draws the parsed features, higher priorities on top. */
function draw({ summaries, packed }: Parsed): void {
  const shapes: Shape<Summary>[] = [];
  let k = 0;
  for (const part of packed) {
    for (let i = 0; i < part.featureEnds.length; i++) {
      const b = part.boxes;
      shapes.push({
        item: summaries[k++]!,
        rings: ringsOf(part, i),
        box: [b[4 * i]!, b[4 * i + 1]!, b[4 * i + 2]!, b[4 * i + 3]!],
      });
    }
  }
  shapes.sort((a, b) => byPriority(a.item, b.item));
  state.features = shapes.map((s) => s.item);
  layer.setShapes(shapes);
  restyle();
}

function message(text: string, error = false): void {
  const el = $("message");
  el.textContent = text;
  el.className = error ? "error" : "";
}

/** Loads started; an answer for an earlier one than the last is dropped. */
let loads = 0;

async function load(event?: Event): Promise<void> {
  event?.preventDefault();
  const token = ($("token") as HTMLInputElement).value.trim();
  sessionStorage.setItem("airspace-token", token);
  const codes = [...($("countries") as HTMLSelectElement).selectedOptions].map((o) => o.value);
  const countries = codes.includes("EUROPE") || codes.length === 0 ? "EUROPE" : codes.join(",");
  message(`Loading ${countries}…`);
  const started = performance.now();
  const mine = ++loads;
  // no-cache: the answer varies on Accept-Encoding only, so a cached copy must be revalidated with this token
  // (the origin checks it before answering 304); a wrong token must not be shown data cached for another
  const r = await fetch(`/v1/data/airspaces?countries=${encodeURIComponent(countries)}`, {
    cache: "no-cache",
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (mine !== loads) return;
  if (!r) return message("The origin could not be reached.", true);
  if (!r.ok) {
    const problem = (await r.json().catch(() => ({}))) as { title?: string; detail?: string };
    return message(`${r.status} ${problem.title ?? r.statusText}: ${problem.detail ?? ""}`, true);
  }
  const fetched = performance.now();
  let fc: Parsed;
  try {
    if (!r.body) throw new Error("the answer is empty");
    fc = await parsers.parse(r.body);
  } catch (error) {
    if (error instanceof Superseded) return; // a later Load is under way
    return message(`The answer could not be read: ${error instanceof Error ? error.message : error}`, true);
  }
  const parsed = performance.now();
  const version = r.headers.get("X-Data-Version") ?? "?";
  const published = new Date(r.headers.get("Last-Modified") ?? Date.now());
  state.day = published.toISOString().slice(0, 10);
  draw(fc);
  const drawnAt = performance.now();
  const bounds = layer.bounds();
  if (bounds) map.fitBounds(bounds, { padding: [10, 10] });
  state.phases = {
    fetchMs: fetched - started,
    downloadMs: fc.downloadedAt - fetched,
    parseMs: parsed - fc.downloadedAt,
    pieces: fc.pieces,
    drawMs: drawnAt - parsed,
    fitMs: performance.now() - drawnAt,
    workers: fc.timings,
  };
  requestAnimationFrame(() => {
    state.phases.paintMs = layer.lastPaintMs;
  });
  $("data-version").textContent = version;
  $("published").textContent = `${published.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  $("feature-count").textContent = String(fc.summaries.length);
  $("version").hidden = false;
  const lag = Date.now() - published.getTime();
  const stale = $("stale");
  stale.hidden = lag <= MAX_LAG_MS;
  stale.textContent = `Published ${Math.round(lag / 60_000)} min ago: older than the 30 min the diagnostics allow.`;
  void status();
  message(`${fc.summaries.length} features drawn.`);
  document.body.dataset.loaded = version;
}

async function status(): Promise<void> {
  const r = await fetch("/v1/status/master-features").catch(() => undefined);
  if (!r?.ok) return;
  const doc = (await r.json()) as { status: string; reasons: string[] };
  if (doc.status !== "healthy") {
    const stale = $("stale");
    stale.hidden = false;
    stale.textContent = `${stale.textContent ?? ""} Diagnostics: ${doc.status} (${doc.reasons.join(", ")}).`.trim();
  }
}

function options(select: HTMLSelectElement, entries: [string, string][]): void {
  select.replaceChildren(...entries.map(([value, label]) => new Option(label, value)));
}

function filtersFromForm(): Filters {
  const selected = (id: string) => [...($(id) as HTMLSelectElement).selectedOptions].map((o) => o.value);
  const num = (id: string, fallback: number) => {
    const v = Number(($(id) as HTMLInputElement).value);
    return Number.isFinite(v) ? v : fallback;
  };
  return {
    types: new Set(selected("f-type").map(Number)),
    activationTypes: new Set(selected("f-activation")),
    bandFt: [num("f-lo", 0), num("f-hi", 66_000)],
    graphicalNotams: ($("f-notams") as HTMLInputElement).checked,
    obstacles: ($("f-obstacles") as HTMLInputElement).checked,
  };
}

function legend(): void {
  $("legend").replaceChildren(
    ...Object.values(PALETTE).map((p) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      const [r, g, b] = p.rgb;
      sw.style.background = `rgba(${r}, ${g}, ${b}, ${Math.max(p.fillOpacity, 0.05)})`;
      sw.style.borderColor = `rgb(${r}, ${g}, ${b})`;
      if (p.lineDasharray.length) sw.style.borderStyle = "dashed";
      li.append(sw, p.label);
      return li;
    }),
    ...[
      ["Unknown (dotted outline)", "dotted"],
      ["Inactive (faded)", "solid"],
    ].map(([label, style]) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.borderStyle = style!;
      sw.style.borderColor = style === "solid" ? "rgba(82,82,91,0.4)" : "#52525b";
      li.append(sw, label!);
      return li;
    }),
  );
}

function init(): void {
  options($("countries") as HTMLSelectElement, [
    ["EUROPE", "EUROPE (all)"],
    ...EUROPE_CODES.map((c): [string, string] => [c, c]),
  ]);
  options(
    $("f-type") as HTMLSelectElement,
    Object.entries(AirspaceType).map(([name, code]): [string, string] => [String(code), `${code} ${name}`]),
  );
  options(
    $("f-activation") as HTMLSelectElement,
    ACTIVATION_TYPES.map((t): [string, string] => [t, t]),
  );
  legend();
  ($("token") as HTMLInputElement).value = sessionStorage.getItem("airspace-token") ?? "";
  $("load").addEventListener("submit", (e) => void load(e));
  $("time").addEventListener("input", () => {
    state.minute = Number(($("time") as HTMLInputElement).value);
    restyle();
  });
  $("filters").addEventListener("change", () => {
    state.filters = filtersFromForm();
    restyle();
  });
}

init();

/** For tests and operators' consoles: what is drawn and what is highlighted at the chosen minute. */
Object.assign(window, {
  airspaceMap: {
    drawn: () => state.features.filter((f) => !hidden(f, state.filters)).length,
    highlighted: () =>
      state.features
        .filter((f) => !hidden(f, state.filters) && activeAt(f, instantOf(state.minute)))
        .map((f) => f.id)
        .sort(),
    /** How many workers parsed the last answer. */
    parts: () => new Set(state.features.map((f) => f.part)).size,
    phases: () => state.phases,
    open: (id: string) => {
      const f = state.features.find((x) => x.id === id);
      const at = f && layer.centreOf(f);
      if (f && at) void openPopup(f, at);
    },
  },
});
