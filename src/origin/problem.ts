// RFC 9457 problem details for every error the origin answers (docs/design.md §6). Titles and details are written
// here, from fixed text and the request's own validated values: never an exception's message, a path or a stack.

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

const TYPE = "urn:airspace-publisher:problem:";

export const problem = (status: number, slug: string, title: string, detail: string): Problem => ({
  type: `${TYPE}${slug}`,
  title,
  status,
  detail,
});

export const PROBLEMS = {
  notFound: () =>
    problem(
      404,
      "not-found",
      "Not Found",
      "No such endpoint: use /v1/data/airspaces, /v1/data/airspaces.openair, /v1/data/airspaces.map, /v1/data/changes, /v1/tiles/{day}.pmtiles (.json, /{z}/{x}/{y}.mvt), /v1/status/master-features or the map page at /.",
    ),
  method: () => problem(405, "method-not-allowed", "Method Not Allowed", "Only GET and HEAD are answered."),
  unauthorized: (detail: string) => problem(401, "unauthorized", "Unauthorized", detail),
  forbidden: () => problem(403, "forbidden-scope", "Forbidden", "scope=static needs a token with the static scope."),
  badId: (path = "/explain.json") => problem(400, "bad-id", "Bad Request", `Give one feature id: ${path}?id=<_id>.`),
  oneCountry: () =>
    problem(
      400,
      "one-country",
      "Bad Request",
      "Give the one country whose collection holds the feature: countries=GB.",
    ),
  noFeature: (version: string, cc: string) =>
    problem(404, "no-feature", "Not Found", `Version ${version} holds no feature of this id in ${cc}.`),
  noExplanation: (version: string) =>
    problem(404, "no-explanation", "Not Found", `Version ${version} holds no explanation for this id.`),
  badScope: () => problem(400, "bad-scope", "Bad Request", "scope must be dynamic (the default) or static."),
  unavailable: (detail: string) => problem(503, "unavailable", "Service Unavailable", detail),
  uriTooLong: () => problem(414, "uri-too-long", "URI Too Long", "The request target is longer than 2048 bytes."),
  headersTooLarge: () =>
    problem(431, "headers-too-large", "Request Header Fields Too Large", "The request's headers exceed 8 KiB."),
  timeout: () => problem(408, "request-timeout", "Request Timeout", "The request was not received in time."),
  badRequest: () => problem(400, "bad-request", "Bad Request", "The request could not be read as HTTP/1.1."),
  badSince: () =>
    problem(
      400,
      "since-malformed",
      "Bad Request",
      "since takes one version as X-Data-Version names it: 20260822T111500Z-1a2b3c4d.",
    ),
  badShapes: () =>
    problem(
      400,
      "bad-shapes",
      "Bad Request",
      "shapes takes boxes alone (each feature's bounding box), or is left out.",
    ),
  changesAt: () =>
    problem(400, "changes-at", "Bad Request", "Changes lead to the live version: at has no place here (use day)."),
  twoTokens: () =>
    problem(
      400,
      "token-twice",
      "Bad Request",
      "Give the token once: an Authorization: Bearer header, or one access_token query parameter.",
    ),
} as const;
