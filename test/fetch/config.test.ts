import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aupDayOf, parseSourcesConfig, SourcesConfigError } from "../../src/fetch/config.js";
import { ROOT } from "../helpers.js";

const EXAMPLE = readFileSync(path.join(ROOT, "docs", "sources.example.json"), "utf8");
const ENV = { NOTAM_FEED_TOKEN: "s3cret-token", FAA_CLIENT_ID: "faa-id", FAA_CLIENT_SECRET: "faa-secret" };

type Doc = { schema: unknown; sources: Record<string, unknown>[] };

/** The example with one change applied. */
const edited = (change: (doc: Doc) => unknown) => {
  const doc = JSON.parse(EXAMPLE);
  change(doc);
  return JSON.stringify(doc);
};

const failure = (text: string, env: Record<string, string | undefined> = ENV) => {
  try {
    parseSourcesConfig(text, env);
  } catch (error) {
    expect(error).toBeInstanceOf(SourcesConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the config to be refused");
};

describe("parseSourcesConfig", () => {
  it("reads the example: openAIP per country, a NOTAM feed with a token, three AUP days; defaults filled in", () => {
    const config = parseSourcesConfig(EXAMPLE, ENV);
    expect(config.schema).toBe(1);
    const airspace = config.sources.filter((s) => s.kind === "airspace");
    expect(airspace.map((s) => s.country)).toEqual(["DE", "FR", "AT", "CH", "SI", "PL", "CZ", "GB", "GB", "GB"]);
    expect(airspace[0]!.url).toBe("https://storage.googleapis.com/29f98e10-a489-4c82-ae5e-489dbcd4912f/de_asp.geojson");
    // real formats: YAIXM raw files and an EAD PIB XML; hosts that are placeholders end in .invalid
    expect(config.sources.filter((s) => s.name.startsWith("gb-yaixm")).map((s) => s.url)).toEqual([
      "https://raw.githubusercontent.com/ahsparrow/airspace/master/airspace.yaml",
      "https://raw.githubusercontent.com/ahsparrow/airspace/master/service.yaml",
      "https://raw.githubusercontent.com/ahsparrow/airspace/master/rat.yaml",
    ]);
    // the NATS contingency PIB's public address, and the FAA NOTAM API with its paging and client credentials
    expect(config.sources.find((s) => s.name === "uk-pib")?.url).toBe(
      "https://pibs.nats.co.uk/operational/pibs/PIB.xml",
    );
    const faa = config.sources.find((s) => s.name === "faa-notams-lfff")!;
    expect(faa).toMatchObject({ paging: "faa", firs: ["LFFF"] });
    expect(faa.url).toMatch(/^https:\/\/external-api\.faa\.gov\/notamapi\/v1\/notams\?icaoLocation=LFFF/);
    expect(faa.headers).toEqual({ client_id: "faa-id", client_secret: "faa-secret" });
    const notam = config.sources.find((s) => s.name === "notam-feed")!;
    expect(notam.headers).toEqual({ Authorization: "Bearer s3cret-token" });
    expect(notam.maxAgeMinutes).toBe(120);
    const aup = config.sources.filter((s) => s.kind === "aup");
    expect(aup.map((s) => s.aupDay)).toEqual(["today", "tomorrow", "yesterday"]);
    expect(aup[0]).toMatchObject({ timeoutMs: 30_000, maxBytes: 200 * 1024 * 1024, maxAgeMinutes: 120 });
  });

  it.each<[string, (d: Doc) => unknown, string, string]>([
    ["name", (d) => (d.sources[0]!.name = "de/asp"), "sources[0].name: expected 1–64 letters", '"de/asp"'],
    ["kind", (d) => (d.sources[0]!.kind = "notams"), 'sources[0].kind: expected one of "airspace"', '"notams"'],
    [
      "url scheme",
      (d) => (d.sources[0]!.url = "ftp://x/y"),
      "sources[0].url: expected an absolute http(s) URL",
      '"ftp://x/y"',
    ],
    ["url missing", (d) => delete d.sources[0]!.url, "sources[0].url: expected an absolute http(s) URL", "nothing"],
    [
      "country",
      (d) => (d.sources[0]!.country = "de"),
      "sources[0].country: expected an upper-case ISO alpha-2",
      '"de"',
    ],
    [
      "country off kind",
      (d) => (d.sources[12]!.country = "DE"),
      'sources[12].country: allowed only with kind "airspace"',
      '"DE"',
    ],
    [
      "aupDay",
      (d) => (d.sources[13]!.aupDay = "next week"),
      'sources[13].aupDay: expected "today", "yesterday" or "tomorrow"',
      '"next week"',
    ],
    [
      "aupDay off kind",
      (d) => (d.sources[0]!.aupDay = "today"),
      'sources[0].aupDay: allowed only with kind "aup"',
      '"today"',
    ],
    [
      "timeoutMs",
      (d) => (d.sources[1]!.timeoutMs = "30s"),
      "sources[1].timeoutMs: expected a whole number of milliseconds",
      '"30s"',
    ],
    ["maxBytes", (d) => (d.sources[1]!.maxBytes = 1.5), "sources[1].maxBytes: expected a whole number of bytes", "1.5"],
    [
      "maxAgeMinutes",
      (d) => (d.sources[1]!.maxAgeMinutes = 0),
      "sources[1].maxAgeMinutes: expected a number of minutes > 0",
      "0",
    ],
    [
      "header name",
      (d) => (d.sources[12]!.headers = { "X Key": "a" }),
      'sources[12].headers["X Key"]: expected an HTTP header name',
      '"X Key"',
    ],
    [
      "header value",
      (d) => (d.sources[12]!.headers = { "X-Key": 7 }),
      "sources[12].headers.X-Key: expected string",
      "7",
    ],
    ["unknown field", (d) => (d.sources[2]!.urls = "x"), "sources[2].urls: expected no such field", '"x"'],
    [
      "duplicate name",
      (d) => (d.sources[1]!.name = "openaip-de"),
      "sources[1].name: expected a unique name",
      '"openaip-de"',
    ],
    ["no sources", (d) => (d.sources = []), "sources: expected at least one source", "[]"],
    ["paging", (d) => (d.sources[11]!.paging = "link"), 'sources[11].paging: expected "faa"', '"link"'],
    [
      "paging off kind",
      (d) => (d.sources[0]!.paging = "faa"),
      'sources[0].paging: allowed only with kind "notam"',
      '"faa"',
    ],
  ])("names the field, the expectation and the value: %s", (_, change, says, value) => {
    const message = failure(edited(change));
    expect(message).toContain(says);
    expect(message).toContain(`received ${value}`);
  });

  it("refuses a schema it does not know, or none", () => {
    expect(failure(edited((d) => (d.schema = 2)))).toBe(
      "sources config: schema: expected 1 (the only version this reader knows), received 2",
    );
    expect(failure(edited((d) => delete d.schema))).toContain("schema: expected 1");
  });

  it("refuses text that is not JSON", () => {
    expect(failure("{ schema: 1 }")).toMatch(/^sources config: \(file\): expected JSON, received /);
  });

  it("resolves $-brace placeholders from the map passed in, anywhere in a header value", () => {
    const text = edited((d) => (d.sources[12]!.headers = { "X-Api": `\${A}:\${B_2}`, Accept: "text/plain" }));
    const env = { A: "one", B_2: "two", FAA_CLIENT_ID: "i", FAA_CLIENT_SECRET: "s" };
    const notam = parseSourcesConfig(text, env).sources[12]!;
    expect(notam.headers).toEqual({ "X-Api": "one:two", Accept: "text/plain" });
  });

  it("names a missing environment variable, and never prints a value", () => {
    const message = failure(EXAMPLE, { OTHER: "s3cret-token", FAA_CLIENT_ID: "i", FAA_CLIENT_SECRET: "s" });
    expect(message).toBe(
      "sources config: sources[12].headers.Authorization: expected environment variable NOTAM_FEED_TOKEN to be set, " +
        `received "Bearer \${NOTAM_FEED_TOKEN}"`,
    );
    expect(message).not.toContain("s3cret");
    expect(failure(edited((d) => (d.sources[8]!.headers = { Authorization: `\${1X}` })))).toContain(
      `expected placeholders of the form \${ENV_NAME}`,
    );
  });
});

describe("aupDayOf", () => {
  it("resolves today, yesterday and tomorrow against the run's date, across a month", () => {
    expect(aupDayOf({ aupDay: "today" }, "2026-03-01")).toBe("2026-03-01");
    expect(aupDayOf({ aupDay: "yesterday" }, "2026-03-01")).toBe("2026-02-28");
    expect(aupDayOf({ aupDay: "tomorrow" }, "2026-02-28")).toBe("2026-03-01");
    expect(aupDayOf({}, "2026-03-01")).toBeUndefined();
    expect(() => aupDayOf({ aupDay: "today" }, "2026-02-30")).toThrow(/received "2026-02-30"/);
  });
});
