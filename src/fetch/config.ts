// src/fetch — the scheduled job's sources over HTTP: the sources config (here), downloads with last good copies.
// The sources config file (JSON): which URLs a run fetches, with what limits (docs/design.md §2, §4).
// Read at a trust boundary: validated, a `schema` we do not know is refused (STYLE habit 13), and every
// error names the field, the expectation and the value received. `${ENV_NAME}` placeholders in header
// values are resolved from an env map the caller passes in; src/ never reads process.env.
import { z } from "zod";
import { jsonPath, tryJson } from "../model/json.js";
import { DAY_MS, utcDay } from "../model/time.js";

export const SOURCES_CONFIG_SCHEMA = 1;

export const SOURCE_KINDS = ["airspace", "notam", "aup"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

const MIB = 1024 * 1024;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PLACEHOLDER = /\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const SourceConfig = z
  .strictObject({
    /** Unique within the file; the manifest's source name and the cache folder `internal/sources/<name>/`. */
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
      error: "expected 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    }),
    kind: z.enum(SOURCE_KINDS, { error: `expected one of ${SOURCE_KINDS.map((k) => `"${k}"`).join(", ")}` }),
    /** http or https. */
    url: z.url({ protocol: /^https?$/, error: "expected an absolute http(s) URL" }),
    /** Airspace sources only: the country the file describes (upper-case ISO alpha-2). */
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, { error: "expected an upper-case ISO alpha-2 code" })
      .optional(),
    /**
     * NOTAM and AUP sources: the FIRs the source briefs, for formats whose content does not say (ICAO text, JSON
     * lines). A PIB's own FIR list wins. Silence counts as "not active" only inside these FIRs (docs/design.md §4).
     */
    firs: z
      .array(z.string().regex(/^[A-Z]{4}$/, { error: "expected a four-letter FIR ident like EGTT" }))
      .min(1, { error: "expected at least one FIR" })
      .optional(),
    /**
     * NOTAM sources only: the answer comes in pages. `faa`: the FAA NOTAM API (`pageNum`; `pageSize` as the URL
     * gives it, else 1000): every page is fetched and they are joined into one answer, refused whole when a page
     * fails or the pages do not add up to `totalCount`. Its as-of time is the first page's HTTP `Date`.
     */
    paging: z.enum(["faa"], { error: 'expected "faa"' }).optional(),
    /**
     * AUP tables only: the AUP day the table describes, relative to the run's date (see aupDayOf). A `tomorrow`
     * table is fetched only when the run publishes tomorrow, and until the EAUP for tomorrow is out (15:00 UTC in
     * summer, 16:00 in winter) its failure is no error: tomorrow's AMC-managed areas are then Unknown.
     */
    aupDay: z
      .enum(["today", "yesterday", "tomorrow"], { error: 'expected "today", "yesterday" or "tomorrow"' })
      .optional(),
    /** Whole request, headers and body. @default 30000 */
    timeoutMs: z.number({ error: "expected a whole number of milliseconds > 0" }).int().positive().default(30_000),
    /** Larger bodies are refused while reading, never buffered whole. @default 209715200 (200 MiB) */
    maxBytes: z
      .number({ error: "expected a whole number of bytes > 0" })
      .int()
      .positive()
      .default(200 * MIB),
    /**
     * `watch` only: how often the source is asked for (a conditional GET each time).
     * @default 60 for NOTAM and AUP sources, 3600 for airspace
     */
    pollSeconds: z.number({ error: "expected a number of seconds > 0" }).positive().optional(),
    /** A copy older than this at the run's `now` is stale. @default 120 */
    maxAgeMinutes: z.number({ error: "expected a number of minutes > 0" }).positive().default(120),
    /**
     * Extra request headers (an API key, `Authorization`). Values may hold `${ENV_NAME}` placeholders.
     * Without an `Accept-Encoding` here the request asks for `identity`, so the length check sees the wire bytes.
     */
    headers: z.record(z.string().regex(HEADER_NAME, { error: "expected an HTTP header name" }), z.string()).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.country !== undefined && s.kind !== "airspace") {
      ctx.addIssue({
        code: "custom",
        path: ["country"],
        input: s.country,
        message: 'allowed only with kind "airspace"',
      });
    }
    if (s.firs !== undefined && s.kind === "airspace") {
      ctx.addIssue({
        code: "custom",
        path: ["firs"],
        input: s.firs,
        message: 'allowed only with kind "notam" or "aup"',
      });
    }
    if (s.paging !== undefined && s.kind !== "notam") {
      ctx.addIssue({ code: "custom", path: ["paging"], input: s.paging, message: 'allowed only with kind "notam"' });
    }
    if (s.aupDay !== undefined && s.kind !== "aup") {
      ctx.addIssue({ code: "custom", path: ["aupDay"], input: s.aupDay, message: 'allowed only with kind "aup"' });
    }
  });
export type SourceConfig = z.output<typeof SourceConfig>;

/** How often `watch` asks for a source, ms: its `pollSeconds`, else a minute for NOTAM and AUP feeds, an hour for airspace. */
export const pollMsOf = (s: Pick<SourceConfig, "pollSeconds" | "kind">): number =>
  (s.pollSeconds ?? (s.kind === "airspace" ? 3_600 : 60)) * 1_000;

export const SourcesConfig = z
  .strictObject({
    schema: z.literal(SOURCES_CONFIG_SCHEMA),
    sources: z
      .array(SourceConfig, { error: "expected an array of sources" })
      .min(1, { error: "expected at least one source" }),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.sources.forEach((s, i) => {
      if (seen.has(s.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["sources", i, "name"],
          input: s.name,
          message: "expected a unique name",
        });
      }
      seen.add(s.name);
    });
  });
export type SourcesConfig = z.output<typeof SourcesConfig>;

/** A config file that cannot be used; `field` is a path like `sources[2].kind`. */
export class SourcesConfigError extends Error {
  override readonly name = "SourcesConfigError";
  constructor(
    readonly issues: readonly { field: string; expected: string; received: string }[],
    options?: { cause: unknown },
  ) {
    super(
      `sources config: ${issues.map((i) => `${i.field}: ${i.expected}, received ${i.received}`).join("; ")}`,
      options,
    );
  }
}

/** Parses and checks a sources config file, resolving `${ENV_NAME}` placeholders in header values from `env`. */
export function parseSourcesConfig(text: string, env: Readonly<Record<string, string | undefined>>): SourcesConfig {
  const json = tryJson(text);
  if (!json.ok) throw new SourcesConfigError([{ field: "(file)", expected: "expected JSON", received: json.reason }]);
  const doc = json.value;
  const version = typeof doc === "object" && doc !== null && "schema" in doc ? doc.schema : undefined;
  if (version !== SOURCES_CONFIG_SCHEMA) {
    const expected = `expected ${SOURCES_CONFIG_SCHEMA} (the only version this reader knows)`;
    throw new SourcesConfigError([{ field: "schema", expected, received: show(version) }]);
  }
  const parsed = SourcesConfig.safeParse(doc, { reportInput: true });
  if (!parsed.success) throw new SourcesConfigError(parsed.error.issues.flatMap(describeIssue));
  const sources = parsed.data.sources.map((s, i) =>
    s.headers ? { ...s, headers: resolveHeaders(s.headers, env, `sources[${i}].headers`) } : s,
  );
  return { ...parsed.data, sources };
}

/** The AUP day (`YYYY-MM-DD`) an AUP source describes on a run for UTC day `date`; undefined when it does not say. */
export function aupDayOf(source: Pick<SourceConfig, "aupDay">, date: string): string | undefined {
  const day = utcDay(date);
  if (!day) throw new RangeError(`aupDayOf: date: expected a calendar date YYYY-MM-DD, received ${show(date)}`);
  if (source.aupDay === undefined) return undefined;
  const start = day.start + { yesterday: -DAY_MS, today: 0, tomorrow: DAY_MS }[source.aupDay];
  return new Date(start).toISOString().slice(0, 10);
}

function resolveHeaders(
  headers: Record<string, string>,
  env: Readonly<Record<string, string | undefined>>,
  at: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(headers)) {
    out[name] = template.replace(PLACEHOLDER, (_, key: string) => {
      const field = `${at}.${name}`;
      if (!ENV_NAME.test(key)) {
        throw new SourcesConfigError([
          { field, expected: `expected placeholders of the form \${ENV_NAME}`, received: show(template) },
        ]);
      }
      const value = env[key];
      // the template, never the value, goes into messages: it may be a secret
      if (value === undefined) {
        const expected = `expected environment variable ${key} to be set`;
        throw new SourcesConfigError([{ field, expected, received: show(template) }]);
      }
      return value;
    });
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; expected: string; received: string }[] {
  const input: unknown = "input" in issue ? issue.input : undefined;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((k) => ({
      field: fieldPath([...issue.path, k]),
      expected: "expected no such field (a typo?)",
      received: show(typeof input === "object" && input !== null ? Reflect.get(input, k) : undefined),
    }));
  }
  // a bad record key reports its own issue inside, with our message
  const message = issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  // zod's own messages read "Invalid input: expected string, received undefined": keep the expectation only
  const expected = message.replace(/^[^:]*:\s*(?=expected)/i, "").replace(/, received \w+$/, "");
  return [{ field: fieldPath(issue.path), expected, received: show(input) }];
}

const fieldPath = (path: readonly PropertyKey[]): string => jsonPath(path) || "(file)";

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
