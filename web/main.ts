// The map page: asks the origin for a country set with the user's token, draws every feature with its
// dynamicStyle on a canvas (Leaflet) over bundled Natural Earth outlines, and lets the user move through the UTC
// day, filter, and click a feature for its details. `window.airspaceMap` exposes counts for the browser tests.
import L from "leaflet";
import { feature as topoFeature } from "topojson-client";
import type { Topology } from "topojson-specification";
import countries50m from "world-atlas/countries-50m.json";
import type { Feature, FeatureCollection } from "../src/model/contract.js";
import { ACTIVATION_TYPES, AirspaceType } from "../src/model/vocab.js";
import { PALETTE } from "../src/resolve/style.js";
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
} from "./logic.js";

const EUROPE_CODES =
  "AD AL AT BA BE BG BY CH CY CZ DE DK EE ES FI FR GB GR HR HU IE IS IT LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS SE SI SK SM TR UA".split(
    " ",
  );
/** SPEC §3: a publication older than this is degraded. */
const MAX_LAG_MS = 30 * 60_000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface Drawn {
  feature: Feature;
  layer: L.Polygon;
}

const state = {
  drawn: [] as Drawn[],
  day: "",
  minute: 0,
  filters: { ...ALL } as Filters,
  loadMs: 0,
};

const renderer = L.canvas({ padding: 0.2, tolerance: 3 });
const map = L.map("map", { preferCanvas: true, renderer, fadeAnimation: false }).setView([50, 10], 4);
// (every vector layer draws on the map's canvas renderer)
L.geoJSON(topoFeature(countries50m as unknown as Topology, (countries50m as unknown as Topology).objects.countries!), {
  interactive: false,
  style: { color: "#94a3b8", weight: 0.8, fillColor: "#f8fafc", fillOpacity: 1 },
}).addTo(map);
const layer = L.featureGroup().addTo(map);

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

function pathOptions(f: Feature, instant: number): L.PathOptions {
  const m = f.properties.vendor.dynamicAirspaceMapping;
  const s = m.dynamicStyle;
  const now = activeAt(f, instant);
  const inBand = meetsBand(f, state.filters.bandFt);
  const fade = inBand ? 1 : 0.2;
  const base: L.PathOptions = {
    color: s?.lineColor ?? "#52525b",
    weight: (s?.lineWidth ?? 1) * (now ? 2 : 1),
    opacity: Math.min(1, (s?.lineOpacity ?? 1) * fade * (now ? 1.25 : 1)),
    fillColor: s?.fillColor ?? "rgba(82, 82, 91, 0.08)",
    // the colours carry their opacity already; an active feature stands out with a stronger fill
    fillOpacity: fade * (now ? 2.5 : 1),
    dashArray: s?.lineDasharray.length ? s.lineDasharray.join(" ") : "",
  };
  // Unknown is visibly different from No: a dotted outline (No is drawn solid, faded by its style)
  if (m.isActive === "Unknown") base.dashArray = "1 4";
  const dir = s?.polygonPaintDirection;
  if (dir === "forwardDiagonal" || dir === "backwardDiagonal") {
    (base as { fillColor: unknown }).fillColor = hatch(s!.lineColor, dir);
  }
  if (dir === "inside") base.weight = (base.weight ?? 1) + 2;
  return base;
}

function instantOf(minute: number): number {
  return Date.parse(`${state.day}T00:00:00Z`) + minute * 60_000;
}

function restyle(): void {
  const instant = instantOf(state.minute);
  let active = 0;
  for (const d of state.drawn) {
    const show = !hidden(d.feature, state.filters);
    if (show && !layer.hasLayer(d.layer)) layer.addLayer(d.layer);
    if (!show && layer.hasLayer(d.layer)) layer.removeLayer(d.layer);
    if (!show) continue;
    d.layer.setStyle(pathOptions(d.feature, instant));
    if (activeAt(d.feature, instant)) active++;
  }
  $("time-label").textContent = hhmm(state.minute);
  $("active-count").textContent = String(active);
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function popup(f: Feature): string {
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

function draw(fc: FeatureCollection): void {
  layer.clearLayers();
  state.drawn = [];
  const sorted = [...fc.features].sort(byPriority);
  for (const f of sorted) {
    const polygon = L.geoJSON(f as GeoJSON.Feature).getLayers()[0] as L.Polygon | undefined;
    if (!polygon) continue;
    polygon.bindPopup(() => popup(f), { maxWidth: 400 });
    state.drawn.push({ feature: f, layer: polygon });
    layer.addLayer(polygon);
  }
  restyle();
}

function message(text: string, error = false): void {
  const el = $("message");
  el.textContent = text;
  el.className = error ? "error" : "";
}

async function load(event?: Event): Promise<void> {
  event?.preventDefault();
  const token = ($("token") as HTMLInputElement).value.trim();
  sessionStorage.setItem("airspace-token", token);
  const codes = [...($("countries") as HTMLSelectElement).selectedOptions].map((o) => o.value);
  const countries = codes.includes("EUROPE") || codes.length === 0 ? "EUROPE" : codes.join(",");
  message(`Loading ${countries}…`);
  const started = performance.now();
  // no-cache: the answer varies on Accept-Encoding only, so a cached copy must be revalidated with this token
  // (the origin checks it before answering 304); a wrong token must not be shown data cached for another
  const r = await fetch(`/v1/data/airspaces?countries=${encodeURIComponent(countries)}`, {
    cache: "no-cache",
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (!r) return message("The origin could not be reached.", true);
  if (!r.ok) {
    const problem = (await r.json().catch(() => ({}))) as { title?: string; detail?: string };
    return message(`${r.status} ${problem.title ?? r.statusText}: ${problem.detail ?? ""}`, true);
  }
  const fc = (await r.json()) as FeatureCollection;
  const version = r.headers.get("X-Data-Version") ?? "?";
  const published = new Date(r.headers.get("Last-Modified") ?? Date.now());
  state.day = published.toISOString().slice(0, 10);
  draw(fc);
  if (state.drawn.length > 0) map.fitBounds(layer.getBounds(), { padding: [10, 10] });
  state.loadMs = performance.now() - started;
  $("data-version").textContent = version;
  $("published").textContent = `${published.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  $("feature-count").textContent = String(fc.features.length);
  $("version").hidden = false;
  const lag = Date.now() - published.getTime();
  const stale = $("stale");
  stale.hidden = lag <= MAX_LAG_MS;
  stale.textContent = `Published ${Math.round(lag / 60_000)} min ago: older than the 30 min the diagnostics allow.`;
  void status();
  message(`${fc.features.length} features drawn.`);
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
    drawn: () => state.drawn.filter((d) => layer.hasLayer(d.layer)).length,
    highlighted: () =>
      state.drawn
        .filter((d) => layer.hasLayer(d.layer) && activeAt(d.feature, instantOf(state.minute)))
        .map((d) => d.feature.properties._id)
        .sort(),
    loadMs: () => state.loadMs,
    open: (id: string) => {
      state.drawn.find((d) => d.feature.properties._id === id)?.layer.openPopup();
    },
  },
});
