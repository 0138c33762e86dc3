// The map page: asks the origin for a country set with the user's token and draws every feature with its
// dynamicStyle over bundled Natural Earth outlines, in Leaflet: from the version's vector tiles on canvas tiles
// (web/tile-layer.ts) when it has them, else on one canvas from the map form (web/canvas-layer.ts). The user moves through
// the UTC day, filters, finds, and clicks a feature for its details (web/popup.ts). `window.airspaceMap` exposes
// counts for the browser tests.
import L from "leaflet";
import { feature as topoFeature } from "topojson-client";
import type { Topology } from "topojson-specification";
import countries50m from "world-atlas/countries-50m.json";
import type { SyncResult } from "../src/client/client.js";
import type { Feature } from "../src/model/contract.js";
import { AIRSPACE_TYPE_NAMES, AirspaceType } from "../src/model/vocab.js";
import { MapFormReader, type MapFrame } from "../src/origin/map-form.js";
import { FeatureCanvas, type Shape } from "./canvas-layer.js";
import { paintStyle } from "./canvas-style.js";
import { explanation } from "./explain.js";
import { centreOf, type LonLatBox, lonLatBox, ringsOf, unionBox } from "./geometry.js";
import { hatchPattern } from "./hatch.js";
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
  type Summary,
} from "./logic.js";
import { esc, popup } from "./popup.js";
import { throughClient } from "./through-client.js";
import { type TileJson, TileLayer } from "./tile-layer.js";

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
  /** The version's vector tiles when the page draws from them; undefined: the map form on the canvas. */
  tiles: undefined as TileJson | undefined,
  /** Each drawn feature's shape (the map form's rings, or its box alone when the tiles draw it). */
  shapes: new Map<string, Shape<Summary>>(),
};

/**
 * Whether the page draws a version's tiles when it has them: in Chromium without a GPU they paint EUROPE in 0.70 s
 * against the map form's 0.88 s (docs/tiles.md). `?draw=map-form` draws the map form anyway (a side-by-side measure).
 */
const wantTiles = new URLSearchParams(location.search).get("draw") !== "map-form";

const outlines = topoFeature(
  countries50m as unknown as Topology,
  (countries50m as unknown as Topology).objects.countries!,
) as GeoJSON.FeatureCollection;
const map = L.map("map", { preferCanvas: true, fadeAnimation: false }).setView([50, 10], 4);
L.geoJSON(outlines, {
  interactive: false,
  style: { color: "#94a3b8", weight: 0.8, fillColor: "#f8fafc", fillOpacity: 1 },
}).addTo(map);
const layer = new FeatureCanvas<Summary>(
  (f) => paintStyle(f, instantOf(state.minute), state.filters, hatchPattern),
  (s, at) => void openPopup(s, [at.lng, at.lat]),
).addTo(map);

/** The tiles drawn, when the page draws a version's tiles. */
let tileLayer: TileLayer | undefined;
map.on("click", (e: L.LeafletMouseEvent) => {
  const id = state.tiles ? tileLayer?.hit(e.latlng) : undefined;
  const s = id === undefined ? undefined : state.shapes.get(id)?.item;
  if (s) void openPopup(s, [e.latlng.lng, e.latlng.lat]);
});

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
  if (state.tiles) void tileLayer?.repaint();
  else layer.redraw();
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

/** A popup at `at` ([lon, lat]), its content replaceable while it is open. */
function popupAt(at: [number, number], html: string): { setContent(h: string): void; isOpen(): boolean } {
  const p = L.popup({ maxWidth: 400 }).setLatLng([at[1], at[0]]).setContent(html).openOn(map);
  return { setContent: (h) => void p.setContent(h), isOpen: () => p.isOpen() };
}

/** Fits the map drawn to a box, without animation. */
function fitView(box: LonLatBox, padding: number, maxZoom?: number): void {
  const bounds = L.latLngBounds([box[1], box[0]], [box[3], box[2]]);
  map.fitBounds(bounds, { padding: [padding, padding], animate: false, ...(maxZoom === undefined ? {} : { maxZoom }) });
}

/** Opens a feature's popup: its name at once, its whole properties once the origin has sent them. */
async function openPopup(s: Summary, at: [number, number]): Promise<void> {
  const token = sessionStorage.getItem("airspace-token") ?? "";
  const shown = popupAt(at, `<div class="popup"><h3>${esc(s.name)}</h3><p>Loading its details…</p></div>`);
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

/**
 * Draws the decoded features, higher priorities on top: from `tiles` when given (the frames' rings are then boxes,
 * for Find and fitting), else on the canvas. Resolves once the map is painted.
 */
async function draw(frames: readonly MapFrame[], tiles?: TileJson): Promise<{ tilesMs?: number }> {
  const shapes: Shape<Summary>[] = [];
  for (const { features, packed } of frames) {
    const b = packed.boxes;
    for (const [i, item] of features.entries())
      shapes.push({ item, rings: ringsOf(packed, i), box: [b[4 * i]!, b[4 * i + 1]!, b[4 * i + 2]!, b[4 * i + 3]!] });
  }
  shapes.sort((a, b) => byPriority(a.item, b.item));
  state.features = shapes.map((s) => s.item);
  state.shapes = new Map(shapes.map((s) => [s.item.id, s]));
  state.tiles = tiles;
  tileLayer?.remove();
  tileLayer = undefined;
  layer.setShapes(tiles ? [] : shapes);
  restyle();
  // before the first paint, without animation: the map is painted once, in the view it is fitted to
  map.invalidateSize();
  const box = unionBox(shapes.map((s) => s.box));
  if (box) fitView(lonLatBox(box), 10);
  if (!tiles) return {};
  const t0 = performance.now();
  const token = sessionStorage.getItem("airspace-token") ?? "";
  // a feature is painted as the map form paints it, from its summary: one of a country not chosen has none
  const styleOf = (id: string) => {
    const s = state.shapes.get(id)?.item;
    return s && paintStyle(s, instantOf(state.minute), state.filters, hatchPattern);
  };
  tileLayer = new TileLayer(
    tiles,
    token,
    (id) => state.shapes.has(id),
    styleOf,
    () => tilesMissing(),
  );
  await tileLayer.show(map);
  return { tilesMs: performance.now() - t0 };
}

/** Says that the map lacks tiles that could not be read: no airspace drawn there is not no airspace there. */
function tilesMissing(): void {
  const failed = tileLayer?.failed ?? [];
  if (failed.length === 0) return;
  message(
    `${failed.length} tile${failed.length === 1 ? "" : "s"} could not be read (${failed[0]}): the map lacks ` +
      "what they hold. Load again.",
    true,
  );
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
  // the page is "loaded" when the last load asked for is drawn, not an earlier one
  delete document.body.dataset.loaded;
  const choice = (document.querySelector('input[name="day"]:checked') as HTMLInputElement | null)?.value;
  state.choice = choice === "tomorrow" ? "tomorrow" : "today";
  // the tiles' document first (a few hundred bytes): with tiles the map form brings summaries and boxes alone
  const chosen = state.choice === "tomorrow" ? publication?.tomorrow : publication;
  let tiles = wantTiles && chosen?.tiles ? await tileJson(token, state.choice) : undefined;
  if (mine !== loads) return;
  const got = viaClient(codes)
    ? await byClient(token, codes, state.choice)
    : await byMapForm(token, countries, () => mine !== loads, tiles !== undefined);
  if (mine !== loads || !got) return;
  // a version published between the two answers: the tiles of the version the summaries are of
  if (tiles && !("error" in got) && tiles.version !== got.version) {
    tiles = await tileJson(token, got.day ?? state.choice, got.version);
    if (mine !== loads) return;
    if (!tiles && !viaClient(codes))
      Object.assign(got, { error: `The tiles of version ${got.version} could not be read.` });
  }
  if ("error" in got) {
    // the map shows what the last load asked for or nothing: not an earlier selection beside the error
    await draw([]);
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
  const drawn = await draw(frames, tiles);
  if (mine !== loads) return;
  const drawnAt = performance.now();
  state.phases = {
    drawing: tiles ? "tiles" : "map form",
    fetchMs: fetched - started,
    downloadMs: downloadedAt - fetched,
    pieces: frames.length,
    // with tiles: until every tile in view is painted
    drawMs: drawnAt - parsed,
    ...drawn,
  };
  if (!tiles)
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
  const summaries = state.features;
  requestAnimationFrame(() => setTimeout(() => state.features === summaries && names(summaries), 0));
  message(`${count} features drawn.`);
  tilesMissing();
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

/**
 * The version's TileJSON (`/v1/tiles/{day}.json`, of `version` when given) with the version it names; undefined
 * when it has no tiles or the origin does not answer (the map form's request then says why).
 */
async function tileJson(
  token: string,
  day: string,
  version?: string,
): Promise<(TileJson & { version: string }) | undefined> {
  const pinned = version ? `?version=${version}` : "";
  const r = await fetch(`/v1/tiles/${day}.json${pinned}`, {
    cache: "no-cache",
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (!r?.ok) return undefined;
  const doc = (await r.json().catch(() => undefined)) as (TileJson & { "x-data-version"?: string }) | undefined;
  if (!doc?.tiles?.length || !doc["x-data-version"]) return undefined;
  return { ...doc, version: doc["x-data-version"] };
}

/**
 * The origin's map form, each country's frame decoded as soon as it is in (`stale`: a later load began); `boxes`:
 * each feature's box for its rings (the tiles draw it).
 */
async function byMapForm(
  token: string,
  countries: string,
  stale: () => boolean,
  boxes: boolean,
): Promise<Got | { error: string } | undefined> {
  // no-cache: the answer varies on Accept-Encoding only, so a cached copy must be revalidated with this token
  // (the origin checks it before answering 304); a wrong token must not be shown data cached for another
  const shapes = boxes ? "&shapes=boxes" : "";
  const r = await fetch(
    `/v1/data/airspaces.map?countries=${encodeURIComponent(countries)}&day=${state.choice}${shapes}`,
    {
      cache: "no-cache",
      headers: { Authorization: `Bearer ${token}` },
    },
  ).catch(() => undefined);
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
  /** Whether the version has vector tiles. */
  tiles?: boolean;
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
  const box = state.shapes.get(f.id)?.box;
  if (box) {
    fitView(lonLatBox(box), 40, 11);
    void openPopup(f, centreOf(lonLatBox(box)));
  }
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
        .map((f) => ({ id: f.id, dash: paintStyle(f, instantOf(state.minute), state.filters)?.dash ?? [] })),
    /** The countries whose frames the last answer held. */
    countries: () => [...new Set(state.features.map((f) => f.country))].sort(),
    /** The ids of the first `n` features drawn of a country. */
    idsOf: (country: string, n = 1) =>
      state.features
        .filter((f) => f.country === country)
        .slice(0, n)
        .map((f) => f.id),
    phases: () => state.phases,
    /** The map's pixel of a position (`[lon, lat]` as JSON), from the map's top left corner. */
    pointOf: (lonLat: string) => {
      const [lon, lat] = JSON.parse(lonLat) as [number, number];
      const p = map.latLngToContainerPoint([lat, lon]);
      return [p.x, p.y];
    },
    /** The map's view: centre and bounds, for the fit checks. */
    view: () => {
      const b = map.getBounds();
      return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
    },
    /** What draws the map: "tiles" (the version's vector tiles) or "map form" (the canvas). */
    drawing: () => (state.tiles ? "tiles" : "map form"),
    /** With tiles: the ids painted from them; `active`: those the tiles' own intervals say are active at the minute. */
    rendered: (active?: boolean) => (state.tiles && tileLayer?.rendered(active ? state.minute : undefined)) || [],
    /** Resolves once the map has drawn what it was last asked to (the tiles' last paint; the canvas's next frame). */
    settled: () =>
      state.tiles && tileLayer ? tileLayer.settled() : new Promise<void>((r) => requestAnimationFrame(() => r())),
    /** With tiles: the zoom of the tiles drawn (512-pixel data tiles: the map's zoom less one). */
    tileZoom: () => (state.tiles && tileLayer ? tileLayer.dataZoom(map.getZoom()) : undefined),
    open: (id: string) => {
      const s = state.shapes.get(id);
      if (s) void openPopup(s.item, centreOf(lonLatBox(s.box)));
    },
  },
});
