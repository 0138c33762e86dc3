// The map page: asks the origin for a country set with the user's token, draws every feature with its
// dynamicStyle on one canvas (web/canvas-layer.ts, in Leaflet) over bundled Natural Earth outlines, and lets the
// user move through the UTC day, filter, find, and click a feature for its details (web/popup.ts).
// `window.airspaceMap` exposes counts for the browser tests.
import L from "leaflet";
import { feature as topoFeature } from "topojson-client";
import type { Topology } from "topojson-specification";
import countries50m from "world-atlas/countries-50m.json";
import type { SyncResult } from "../src/client/client.js";
import type { Feature } from "../src/model/contract.js";
import { AIRSPACE_TYPE_NAMES, AirspaceType } from "../src/model/vocab.js";
import { MapFormReader, type MapFrame } from "../src/origin/map-form.js";
import { FeatureCanvas, type PaintStyle, type Shape } from "./canvas-layer.js";
import { explanation } from "./explain.js";
import { ringsOf } from "./geometry.js";
import { legend } from "./legend.js";
import {
  ACTIVATION_WORDS,
  ALL,
  activeAt,
  ago,
  byDefault,
  byPriority,
  type Filters,
  hhmm,
  hidden,
  meetsBand,
  type Summary,
} from "./logic.js";
import { esc, popup } from "./popup.js";
import { throughClient } from "./through-client.js";

/** The most features the page takes through the client (viaClient); larger selections come as the map form. */
const CLIENT_MAX_FEATURES = 5_000;

/** docs/contract.md §3: a publication older than this is degraded. */
const MAX_LAG_MS = 30 * 60_000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const state = {
  features: [] as Summary[],
  day: "",
  /** Which day's publication the page shows (docs/design.md §8: the origin's `?day=`). */
  choice: "today" as "today" | "tomorrow",
  version: "",
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
    // Unknown is visibly different from No: a dotted outline (No is drawn solid, faded by its style); a Yes that
    // only a default gives (no evidence says when it is active) has a long dash
    dash: f.isActive === "Unknown" ? [1, 4] : byDefault(f) ? [10, 4] : (s?.dash ?? []),
  };
}

const dayStarts = new Map<string, number>();
/** The instant of a minute of the shown day (the day's start parsed once: a repaint asks for every feature). */
function instantOf(minute: number): number {
  let start = dayStarts.get(state.day);
  if (start === undefined) {
    start = Date.parse(`${state.day}T00:00:00Z`);
    dayStarts.set(state.day, start);
  }
  return start + minute * 60_000;
}

function restyle(): void {
  const instant = instantOf(state.minute);
  const active = state.features.filter((f) => !hidden(f, state.filters) && activeAt(f, instant)).length;
  layer.redraw();
  const local = new Date(instant).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  $("time-label").textContent = `${hhmm(state.minute)} UTC (${local} local)`;
  $("active-count").textContent = String(active);
}

/** The minute of the day `now` is, when the published day is today; the slider starts there and marks it. */
function nowMinute(): number | undefined {
  const ms = Date.now() - Date.parse(`${state.day}T00:00:00Z`);
  return ms >= 0 && ms < 86_400_000 ? Math.floor(ms / 60_000) : undefined;
}

function placeNowMarker(): void {
  const marker = $("now-marker");
  const minute = nowMinute();
  marker.hidden = minute === undefined;
  if (minute !== undefined) marker.style.left = `${(minute / 1439) * 100}%`;
}

/** A feature's whole properties from the origin (`/feature.json`), in the version the page draws or a later one. */
async function details(
  s: Summary,
  token: string,
): Promise<{ properties?: Feature["properties"]; version?: string; error?: string }> {
  const day = state.choice === "tomorrow" ? "tomorrow" : "today";
  const url = `/feature.json?countries=${s.country}&id=${encodeURIComponent(s.id)}&day=${day}`;
  const r = await fetch(url, { headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
  if (!r) return { error: "The origin could not be reached." };
  if (!r.ok) {
    const problem = (await r.json().catch(() => ({}))) as { title?: string; detail?: string };
    return { error: `${r.status} ${problem.title ?? r.statusText}: ${problem.detail ?? ""}` };
  }
  const f = (await r.json()) as Feature;
  return { properties: f.properties, version: r.headers.get("X-Data-Version") ?? "?" };
}

/** Opens a feature's popup: its name at once, its whole properties once the origin has sent them. */
async function openPopup(s: Summary, at: L.LatLng): Promise<void> {
  const token = sessionStorage.getItem("airspace-token") ?? "";
  const shown = L.popup({ maxWidth: 400 })
    .setLatLng(at)
    .setContent(`<div class="popup"><h3>${esc(s.name)}</h3><p>Loading its details…</p></div>`)
    .openOn(map);
  const { properties, version, error } = await details(s, token);
  if (!shown.isOpen()) return;
  if (!properties) {
    shown.setContent(`<div class="popup"><h3>${esc(s.name)}</h3><p class="error">${esc(error ?? "")}</p></div>`);
    return;
  }
  const newer =
    version === state.version ? "" : `<p class="error">Details of version ${esc(version ?? "?")}: reload the map.</p>`;
  const render = (because?: string) => popup({ properties }, state.day, instantOf(state.minute), because) + newer;
  shown.setContent(render());
  // the reason `explain` gives replaces the page's own wording once the origin answers
  const because = await explanation(properties._id, state.version, token, state.choice);
  if (because && shown.isOpen()) shown.setContent(render(because));
}

/** Draws the decoded features, higher priorities on top. */
function draw(frames: readonly MapFrame[]): void {
  const shapes: Shape<Summary>[] = [];
  for (const { features, packed } of frames) {
    const b = packed.boxes;
    for (const [i, item] of features.entries())
      shapes.push({ item, rings: ringsOf(packed, i), box: [b[4 * i]!, b[4 * i + 1]!, b[4 * i + 2]!, b[4 * i + 3]!] });
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
  const choice = (document.querySelector('input[name="day"]:checked') as HTMLInputElement | null)?.value;
  state.choice = choice === "tomorrow" ? "tomorrow" : "today";
  const got = viaClient(codes)
    ? await byClient(token, codes, state.choice)
    : await byMapForm(token, countries, () => mine !== loads);
  if (mine !== loads || !got) return;
  if ("error" in got) {
    // the map shows what the last load asked for or nothing: not an earlier selection beside the error
    draw([]);
    $("version").hidden = true;
    return message(got.error, true);
  }
  const { frames, fetched, downloadedAt, version, published } = got;
  const parsed = performance.now();
  const count = frames.reduce((n, f) => n + f.features.length, 0);
  // the day the version describes (a past day republished keeps its own date), else the publication's
  const day =
    got.day ??
    (publication?.version === version
      ? publication.date
      : publication?.tomorrow?.version === version
        ? publication.tomorrow.date
        : published.toISOString().slice(0, 10));
  $("day-title").textContent = state.choice === "tomorrow" ? `tomorrow, ${day}` : `today, ${day}`;
  if (day !== state.day) {
    state.day = day;
    // the slider starts at now on today's publication, at the day's start on another day's
    state.minute = nowMinute() ?? 0;
    ($("time") as HTMLInputElement).value = String(state.minute);
  }
  placeNowMarker();
  draw(frames);
  const drawnAt = performance.now();
  // before the first paint, without animation: the shapes are painted once, in the view they are fitted to
  const bounds = layer.bounds();
  if (bounds) map.fitBounds(bounds, { padding: [10, 10], animate: false });
  state.phases = {
    fetchMs: fetched - started,
    downloadMs: downloadedAt - fetched,
    pieces: frames.length,
    drawMs: drawnAt - parsed,
    fitMs: performance.now() - drawnAt,
  };
  requestAnimationFrame(() => {
    state.phases.paintMs = layer.lastPaintMs;
  });
  state.version = version;
  $("data-version").textContent = version;
  $("published").textContent = `${published.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  $("feature-count").textContent = String(count);
  $("version").hidden = false;
  const lag = Math.max(0, Date.now() - published.getTime());
  $("published").textContent += ` (${ago(lag)})`;
  const stale = $("stale");
  stale.hidden = lag <= MAX_LAG_MS;
  stale.textContent = `This data was published ${ago(lag)}: it may be out of date (a fresh publication is at most 30 min old).`;
  void status();
  // the search's suggestions once the map is painted: they are not needed to see it
  const drawn = state.features;
  requestAnimationFrame(() => setTimeout(() => state.features === drawn && names(drawn), 0));
  message(`${count} features drawn.`);
  state.phases.loadedMs = performance.now() - started;
  document.body.dataset.sync = got.sync ? JSON.stringify(got.sync) : "";
  document.body.dataset.loaded = version;
}

/** What a load drew from: frames, the version and its publication time, and the client's sync when it came by one. */
interface Got {
  frames: MapFrame[];
  fetched: number;
  downloadedAt: number;
  version: string;
  published: Date;
  day?: string;
  sync?: SyncResult;
}

/**
 * Whether the countries chosen come through the client: up to CLIENT_MAX_FEATURES features. A country of 28 567
 * features (88 MiB of GeoJSON, the Europe-scale benchmark's GB) took 10.4 s from opening the page to painted through
 * the client and 8.8 s again from IndexedDB, 2.4 s and 1.5 s as the map form; real countries hold a few thousand.
 */
function viaClient(codes: readonly string[]): boolean {
  if (codes.includes("EUROPE") || codes.length === 0) return false;
  const day = state.choice === "tomorrow" ? publication?.tomorrow : publication;
  const total = codes.reduce((n, cc) => n + (day?.countries[cc]?.total ?? Number.POSITIVE_INFINITY), 0);
  return total <= CLIENT_MAX_FEATURES;
}

/** The origin's map form, each country's frame decoded as soon as it is in (`stale`: a later load began). */
async function byMapForm(
  token: string,
  countries: string,
  stale: () => boolean,
): Promise<Got | { error: string } | undefined> {
  // no-cache: the answer varies on Accept-Encoding only, so a cached copy must be revalidated with this token
  // (the origin checks it before answering 304); a wrong token must not be shown data cached for another
  const r = await fetch(`/v1/data/airspaces.map?countries=${encodeURIComponent(countries)}&day=${state.choice}`, {
    cache: "no-cache",
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (stale()) return undefined;
  if (!r) return { error: "The origin could not be reached." };
  if (!r.ok) {
    const problem = (await r.json().catch(() => ({}))) as { title?: string; detail?: string };
    return { error: `${r.status} ${problem.title ?? r.statusText}: ${problem.detail ?? ""}` };
  }
  const fetched = performance.now();
  try {
    if (!r.body) throw new Error("the answer is empty");
    const reader = new MapFormReader();
    const body = r.body.getReader();
    for (;;) {
      const { done, value } = await body.read().catch((e: unknown) => {
        throw new Error(`the answer was cut off in transfer (${e instanceof Error ? e.message : e})`);
      });
      if (stale()) return void body.cancel().catch(() => {});
      if (done) break;
      reader.push(value);
    }
    const downloadedAt = performance.now();
    const version = r.headers.get("X-Data-Version") ?? "?";
    const published = new Date(r.headers.get("Last-Modified") ?? Date.now());
    return { frames: reader.end(), fetched, downloadedAt, version, published };
  } catch (error) {
    if (stale()) return undefined;
    return { error: `The answer could not be read: ${error instanceof Error ? error.message : error}` };
  }
}

/** Chosen countries: through the client (web/through-client.ts), kept in IndexedDB between visits. */
async function byClient(token: string, codes: string[], day: "today" | "tomorrow"): Promise<Got | { error: string }> {
  try {
    const held = await throughClient(token, codes, day);
    const now = performance.now();
    const { version } = held.sync;
    // a version is named by its publication instant: 20260822T111500Z-…
    const at = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/.exec(version);
    const published = at ? new Date(`${at[1]}-${at[2]}-${at[3]}T${at[4]}:${at[5]}:${at[6]}Z`) : new Date();
    return {
      frames: held.frames,
      fetched: now,
      downloadedAt: now,
      version,
      published,
      day: held.sync.day,
      sync: held.sync,
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
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

/** One day's publication as `/published.json` describes it. */
interface DayPublication {
  version: string;
  date: string;
  publishedAt: string;
  countries: Record<string, { total: number }>;
}

/** What the origin publishes (`/published.json`): today's version, its day and countries, and tomorrow's once out. */
let publication: (DayPublication & { tomorrow?: DayPublication }) | undefined;

async function loadPublication(): Promise<void> {
  const r = await fetch("/published.json", { cache: "no-cache" }).catch(() => undefined);
  publication = r?.ok ? await r.json() : undefined;
  const regions = new Intl.DisplayNames(["en"], { type: "region" });
  const codes = Object.entries(publication?.countries ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const total = codes.reduce((n, [, c]) => n + c.total, 0);
  options($("countries") as HTMLSelectElement, [
    ...codes.map(([cc, c]): [string, string] => [cc, `${cc} ${regions.of(cc) ?? cc} (${c.total})`]),
    ...(codes.length > 1 ? [["EUROPE", `EUROPE, all ${codes.length} (${total})`] as [string, string]] : []),
  ]);
  // one published country at once: the one with most features
  const first = [...codes].sort((a, b) => b[1].total - a[1].total)[0];
  const select = $("countries") as HTMLSelectElement;
  for (const o of select.options) o.selected = o.value === first?.[0];
  if (!publication) message("Nothing is published on this origin yet.", true);
  $("today-date").textContent = publication ? `(${publication.date})` : "";
  const tomorrow = document.querySelector('input[name="day"][value="tomorrow"]') as HTMLInputElement;
  tomorrow.disabled = !publication?.tomorrow;
  $("tomorrow-date").textContent = publication?.tomorrow ? `(${publication.tomorrow.date})` : "(from 15:00 UTC)";
}

/** Search by name or designator (`EG D323`, `LF-R 45`, `Langen`): spaces and hyphens do not matter. */
const squash = (s: string) => s.toUpperCase().replace(/[\s\-_]+/g, "");

function names(summaries: readonly Summary[]): void {
  const list = [...new Set(summaries.map((f) => f.name))].sort();
  $("names").replaceChildren(...list.slice(0, 5000).map((n) => new Option(n)));
}

function search(): void {
  const q = squash(($("search") as HTMLInputElement).value);
  if (q === "") return;
  // `EG D323` finds `D323H SOUTHERN MDA`: UK data writes designators without the ICAO prefix
  const bare = q.replace(/^[A-Z]{2}(?=[DRP]\d)/, "");
  const match = (f: Summary) => [q, bare].some((v) => squash(f.name).includes(v) || squash(f.id).includes(v));
  const hits = state.features.filter(match);
  const starts = (x: Summary) => squash(x.name).startsWith(q) || squash(x.name).startsWith(bare);
  const f = hits.find((x) => squash(x.name) === q) ?? hits.find(starts) ?? hits[0];
  if (!f) {
    message(`Nothing named "${($("search") as HTMLInputElement).value}" is drawn.`, true);
    return;
  }
  const bounds = layer.boundsOf(f);
  if (bounds) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 11 });
  const at = layer.centreOf(f);
  if (at) void openPopup(f, at);
  message(`${hits.length} match${hits.length === 1 ? "" : "es"}; showing ${f.name}.`);
}

async function init(): Promise<void> {
  options(
    $("f-type") as HTMLSelectElement,
    Object.values(AirspaceType).map((code): [string, string] => [
      String(code),
      AIRSPACE_TYPE_NAMES[code] ?? String(code),
    ]),
  );
  options(
    $("f-activation") as HTMLSelectElement,
    Object.entries(ACTIVATION_WORDS).map(([t, words]): [string, string] => [t, words]),
  );
  $("legend").replaceChildren(...legend());
  // `serve --dev` prints the page's URL with a development token in the fragment: keep it, then drop it from the URL
  const fromUrl = /(?:^#|&)token=([^&]+)/.exec(location.hash)?.[1];
  if (fromUrl) {
    sessionStorage.setItem("airspace-token", decodeURIComponent(fromUrl));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const token = sessionStorage.getItem("airspace-token") ?? "";
  ($("token") as HTMLInputElement).value = token;
  $("load").addEventListener("submit", (e) => void load(e));
  $("day-choice").addEventListener("change", () => void load());
  $("time").addEventListener("input", () => {
    state.minute = Number(($("time") as HTMLInputElement).value);
    restyle();
  });
  $("filters").addEventListener("change", () => {
    state.filters = filtersFromForm();
    restyle();
  });
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });
  $("search").addEventListener("change", search);
  await loadPublication();
  if (!publication) return;
  if (token) return void load();
  message(
    "No token yet: ask your operator for one (airspace-publisher tokens create), " +
      "or run airspace-publisher serve --dev and open the URL it prints.",
  );
}

void init();

/** For tests and operators' consoles: what is drawn and what is highlighted at the chosen minute. */
Object.assign(window, {
  airspaceMap: {
    drawn: () => state.features.filter((f) => !hidden(f, state.filters)).length,
    highlighted: () =>
      state.features
        .filter((f) => !hidden(f, state.filters) && activeAt(f, instantOf(state.minute)))
        .map((f) => f.id)
        .sort(),
    /** The features drawn apart as answered by default, each with the dash its outline is drawn with. */
    byDefault: () =>
      state.features
        .filter((f) => !hidden(f, state.filters) && byDefault(f))
        .map((f) => ({ id: f.id, dash: paintStyle(f)?.dash ?? [] })),
    /** The countries whose frames the last answer held. */
    countries: () => [...new Set(state.features.map((f) => f.country))].sort(),
    /** The ids of the first `n` features drawn of a country. */
    idsOf: (country: string, n = 1) =>
      state.features
        .filter((f) => f.country === country)
        .slice(0, n)
        .map((f) => f.id),
    phases: () => state.phases,
    /** The map's view: centre and bounds, for the fit checks. */
    view: () => {
      const b = map.getBounds();
      return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
    },
    open: (id: string) => {
      const f = state.features.find((x) => x.id === id);
      const at = f && layer.centreOf(f);
      if (f && at) void openPopup(f, at);
    },
  },
});
