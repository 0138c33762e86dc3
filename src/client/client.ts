// A client of the `/v1` protocol (docs/client.md): it keeps the collections of some countries current with the
// fewest bytes. The first sync downloads each country in full; later ones ask `/v1/data/changes?since=<held version>`
// and apply the change (304: nothing new; 410: the version is gone or of another day, so in full again). Every
// collection held is checked against the digest the service states for it (X-Features-SHA256, or the change's
// `featuresSha256`): a change that does not give it is refused and the country downloaded in full. A body cut in
// transit or corrupt is an error naming its URL, and what is held stays as it was. No dependency beyond what Node ≥ 20
// and current browsers have (fetch, WebCrypto).
import { featureTexts } from "../model/collection-text.js";
import { type Activity, activeAt as activityAt, type Band } from "./active.js";
import { applyChange, type CountryChange } from "./collection.js";
import { featuresDigest } from "./digest.js";
import { type ClientStorage, type HeldCountry, memoryStorage } from "./storage.js";

export interface ClientOptions {
  /** The service's base URL, e.g. `https://airspaces.example/` (the `/v1/...` paths are resolved against it). */
  endpoint: string;
  /** A bearer token the service accepts. */
  token: string;
  /** ISO 3166-1 alpha-2 codes. */
  countries: readonly string[];
  /** Today's chain (the default), or tomorrow's (published from 15:00 UTC). */
  day?: "today" | "tomorrow";
  /** Where the collections are held between syncs and restarts (default: in memory). */
  storage?: ClientStorage;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** How long one request may take, its body read whole, in milliseconds (default 60 000). */
  timeoutMs?: number;
}

/** What one sync did, per country: features added, changed and removed; `full` when it downloaded one in full. */
export interface SyncResult {
  /** The version held after the sync (the live one), per the service's `X-Data-Version`. */
  version: string;
  /** The UTC day (`YYYY-MM-DD`) the held collections are of. */
  day: string;
  changed: Record<string, { added: number; changed: number; removed: number }>;
  full: boolean;
  /** Bytes of the answers read (as decoded), for the record of what a sync cost. */
  bytes: number;
}

/** Why a sync failed: the URL, and what went wrong; what was held stays as it was. */
export class ClientError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ClientError";
  }
}

interface Feature {
  type: "Feature";
  properties: { _id: string; [k: string]: unknown };
  geometry: unknown;
}

export interface Client {
  /** Brings every country to the live version. */
  sync(): Promise<SyncResult>;
  /** The held collection of one country (parsed), undefined before its first sync. */
  collection(country: string): Promise<{ type: "FeatureCollection"; features: Feature[]; meta: unknown } | undefined>;
  /** Every held feature of every country, in country then `_id` order. */
  features(): Promise<Feature[]>;
  /** The version each country is held at. */
  versions(): Promise<Record<string, string>>;
  /**
   * Every held feature's activity at `instant` (epoch ms or ISO), within `band` when given (feet above mean sea
   * level): `Yes`, `No`, or `Unknown` where the service could not say (active.ts).
   */
  activeAt(instant: number | string, options?: { band?: Band }): Promise<Array<{ feature: Feature; active: Activity }>>;
}

export function createClient(options: ClientOptions): Client {
  const storage = options.storage ?? memoryStorage();
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const countries = [...new Set(options.countries.map((c) => c.toUpperCase()))].sort();
  if (countries.length === 0 || countries.some((c) => !/^[A-Z]{2}$/.test(c))) {
    throw new TypeError(`countries: two-letter codes expected, got ${JSON.stringify(options.countries)}`);
  }
  const day = options.day ?? "today";
  const base = options.endpoint.endsWith("/") ? options.endpoint : `${options.endpoint}/`;
  const url = (path: string, params: Record<string, string>) => {
    const u = new URL(path, base);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    if (day === "tomorrow") u.searchParams.set("day", "tomorrow");
    return u.toString();
  };

  /** GET with the token; the body read whole (a cut body throws, naming the URL). */
  async function get(
    at: string,
    cache: "no-cache" | "no-store",
  ): Promise<{ status: number; headers: Headers; text: string }> {
    let res: Response;
    try {
      const headers = { authorization: `Bearer ${options.token}`, "accept-encoding": "gzip" };
      const signal = AbortSignal.timeout(options.timeoutMs ?? 60_000);
      // `cache` is for browsers (Node has no HTTP cache; its types do not name it)
      res = await doFetch(at, { headers, cache, signal } as RequestInit);
    } catch (e) {
      throw new ClientError(`${at}: the request failed (${(e as Error).message})`, at);
    }
    let text: string;
    try {
      text = res.status === 304 ? "" : await res.text();
    } catch (e) {
      throw new ClientError(`${at}: the body was cut or corrupt (${(e as Error).message})`, at, res.status);
    }
    if (res.status === 401 || res.status === 403) {
      throw new ClientError(`${at}: the service refused the token (${res.status}): ${detailOf(text)}`, at, res.status);
    }
    return { status: res.status, headers: res.headers, text };
  }

  /** One country in full: its text checked against the digest the service states. */
  async function full(cc: string): Promise<{ held: HeldCountry; bytes: number }> {
    const at = url("v1/data/airspaces", { countries: cc });
    // a browser may take the body from its cache, once the origin said it is still the one (ETag)
    const r = await get(at, "no-cache");
    if (r.status !== 200) throw new ClientError(`${at}: ${r.status} ${detailOf(r.text)}`, at, r.status);
    const version = r.headers.get("x-data-version");
    const digest = r.headers.get("x-features-sha256");
    const day = r.headers.get("x-data-day");
    if (!version || !digest || !day)
      throw new ClientError(`${at}: no X-Data-Version, X-Data-Day or X-Features-SHA256 header`, at);
    let texts: string[];
    try {
      texts = featureTexts(r.text);
      JSON.parse(r.text);
    } catch (e) {
      throw new ClientError(`${at}: the body is not a whole collection (${(e as Error).message})`, at);
    }
    const got = await featuresDigest(texts);
    if (got !== digest) throw new ClientError(`${at}: the body's features digest ${got} is not ${digest}`, at);
    return { held: { version, day, digest, text: r.text }, bytes: r.text.length };
  }

  /** What storage holds under `key`, when it is whole (a write cut by a crash is downloaded again). */
  async function loadWhole(key: string): Promise<HeldCountry | undefined> {
    const h = await storage.load(key);
    return h && (await digestOf(h.text)) === h.digest ? h : undefined;
  }

  /**
   * Each country of `from` caught up by one change request per version held: the new record, `undefined` when
   * nothing changed (304), or "again" when the service cannot give the change (410, none for the country, or one
   * that does not give the stated collection).
   */
  async function catchUp(from: Map<string, HeldCountry>): Promise<{
    caught: Map<string, HeldCountry | "again" | undefined>;
    changed: SyncResult["changed"];
    bytes: number;
  }> {
    const caught = new Map<string, HeldCountry | "again" | undefined>();
    const changed: SyncResult["changed"] = {};
    let bytes = 0;
    const groups = new Map<string, string[]>();
    for (const [cc, h] of from) groups.set(h.version, [...(groups.get(h.version) ?? []), cc]);
    for (const [since, ccs] of groups) {
      const at = url("v1/data/changes", { countries: ccs.join(","), since });
      // never from a browser's cache: the answer to the same question changes as versions are published
      const r = await get(at, "no-store");
      bytes += r.text.length;
      if (r.status === 304 || r.status === 410) {
        for (const cc of ccs) caught.set(cc, r.status === 410 ? "again" : undefined);
        continue;
      }
      if (r.status !== 200) throw new ClientError(`${at}: ${r.status} ${detailOf(r.text)}`, at, r.status);
      const answer = parseChanges(r.text, at);
      for (const cc of ccs) {
        const change = answer.countries[cc];
        const text = change && applied(from.get(cc)!.text, change);
        const digest = text === undefined ? undefined : await digestOf(text);
        // a change that does not give the stated collection is refused: the country in full
        if (text === undefined || !change?.featuresSha256 || digest !== change.featuresSha256) {
          caught.set(cc, "again");
          continue;
        }
        caught.set(cc, { version: answer.to, day: answer.day, digest, text });
        changed[cc] = { added: change.added.length, changed: change.changed.length, removed: change.removed.length };
      }
    }
    return { caught, changed, bytes };
  }

  async function sync(): Promise<SyncResult> {
    const held = new Map<string, HeldCountry>();
    /** Today's client: tomorrow's records of a later day, held by a client of tomorrow with the same storage. */
    const later = new Map<string, HeldCountry>();
    for (const cc of countries) {
      const h = await loadWhole(keyOf(cc, day));
      if (h) held.set(cc, h);
      const t = day === "today" ? await loadWhole(keyOf(cc, "tomorrow")) : undefined;
      if (t && (!h || t.day > h.day)) later.set(cc, t);
    }
    const next = new Map<string, HeldCountry>();
    const first = await catchUp(held);
    const changed: SyncResult["changed"] = { ...first.changed };
    let bytes = first.bytes;
    // at midnight tomorrow's chain becomes today's: a day's record gone (410), or none, goes on from tomorrow's
    const fromLater = new Map([...later].filter(([cc]) => !held.has(cc) || first.caught.get(cc) === "again"));
    const second = await catchUp(fromLater);
    Object.assign(changed, second.changed);
    bytes += second.bytes;
    const refetch = new Set<string>();
    for (const cc of countries) {
      const step = second.caught.has(cc) ? second.caught.get(cc) : first.caught.get(cc);
      const from = second.caught.has(cc) ? fromLater.get(cc) : held.get(cc);
      if (!from || step === "again") refetch.add(cc);
      else if (step) next.set(cc, step);
      else if (from !== held.get(cc)) next.set(cc, from); // tomorrow's record is today's live one (304)
    }
    let wasFull = false;
    for (const cc of [...refetch].sort()) {
      const f = await full(cc);
      bytes += f.bytes;
      wasFull = true;
      next.set(cc, f.held);
      const n = safeTexts(f.held.text).length;
      changed[cc] = { added: n, changed: 0, removed: held.has(cc) ? safeTexts(held.get(cc)!.text).length : 0 };
    }
    for (const [cc, h] of next) await storage.save(keyOf(cc, day), h);
    const now = countries.map((cc) => next.get(cc) ?? held.get(cc));
    const last = (values: Array<string | undefined>) =>
      values
        .map((v) => v ?? "")
        .sort()
        .at(-1) ?? "";
    return {
      version: last(now.map((h) => h?.version)),
      day: last(now.map((h) => h?.day)),
      changed,
      full: wasFull,
      bytes,
    };
  }

  async function collection(cc: string) {
    const h = await storage.load(keyOf(cc.toUpperCase(), day));
    return h ? (JSON.parse(h.text) as { type: "FeatureCollection"; features: Feature[]; meta: unknown }) : undefined;
  }

  async function features(): Promise<Feature[]> {
    const out: Feature[] = [];
    for (const cc of countries) out.push(...((await collection(cc))?.features ?? []));
    return out;
  }

  return {
    sync,
    collection,
    features,
    async activeAt(instant, opts) {
      const t = typeof instant === "number" ? instant : Date.parse(instant);
      if (Number.isNaN(t)) throw new TypeError(`activeAt: not an instant: ${JSON.stringify(instant)}`);
      const out: Array<{ feature: Feature; active: Activity }> = [];
      for (const cc of countries) {
        const h = await storage.load(keyOf(cc, day));
        if (!h) continue;
        // activity is published for the held day only: at another instant nobody here knows
        const start = Date.parse(`${h.day}T00:00:00Z`);
        const within = t >= start && t < start + 86_400_000;
        for (const feature of (JSON.parse(h.text) as { features: Feature[] }).features) {
          out.push({ feature, active: within ? activityAt(feature, t, opts?.band) : "Unknown" });
        }
      }
      return out;
    },
    async versions() {
      const out: Record<string, string> = {};
      for (const cc of countries) {
        const h = await storage.load(keyOf(cc, day));
        if (h) out[cc] = h.version;
      }
      return out;
    },
  };
}

/** A country's record in storage: `GB` for today's chain, `GB.tomorrow` for tomorrow's. */
export function keyOf(country: string, day: "today" | "tomorrow"): string {
  return day === "today" ? country : `${country}.tomorrow`;
}

interface ChangesAnswer {
  day: string;
  to: string;
  countries: Record<string, CountryChange & { featuresSha256?: string }>;
}

function parseChanges(text: string, at: string): ChangesAnswer {
  try {
    const v = JSON.parse(text) as ChangesAnswer;
    if (
      typeof v.to !== "string" ||
      typeof v.day !== "string" ||
      typeof v.countries !== "object" ||
      v.countries === null
    )
      throw new Error("no to, day or countries");
    return v;
  } catch (e) {
    throw new ClientError(`${at}: the body is not a whole change answer (${(e as Error).message})`, at);
  }
}

/** The change applied, undefined when it cannot be (a malformed change or held text). */
function applied(text: string, change: CountryChange): string | undefined {
  try {
    return applyChange(text, change);
  } catch {
    return undefined;
  }
}

function safeTexts(text: string): string[] {
  try {
    return featureTexts(text);
  } catch {
    return [];
  }
}

/** A collection text's features digest; undefined when it is not a collection as published. */
async function digestOf(text: string): Promise<string | undefined> {
  let texts: string[];
  try {
    texts = featureTexts(text);
  } catch {
    return undefined;
  }
  return featuresDigest(texts);
}

/** A problem answer's detail, else the start of the body. */
function detailOf(text: string): string {
  try {
    const p = JSON.parse(text) as { detail?: string; title?: string };
    return p.detail ?? p.title ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}
