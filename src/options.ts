// The inputs, options and errors of a day's publication, shared by the top-level files (pipeline, derive,
// refresh, the day cache): a leaf among them, so that their imports point one way.
import type { Logger } from "./model/logger.js";
import type { UtcDay } from "./model/time.js";
import type { ActivitySources } from "./resolve/activity.js";
import type { Variant } from "./resolve/notam-feature.js";
import type { DynamicInput } from "./sources.js";
import type { LeaseGuard } from "./store/publisher-lease.js";
import type { ObjectStore } from "./store/store.js";

export interface AirspaceInput {
  /** Source name, for diagnostics and the manifest (a file's base name). */
  name: string;
  bytes: Uint8Array;
  /** Country named by the operator for this source (`DE=file.txt`). */
  country?: string;
  /** When the source was fetched or read. */
  fetchedAt: number;
  /** A fallback copy (its fetch failed). */
  stale?: boolean;
  /** Found by listing a directory: a file no reader recognises is skipped (`input.skipped`), not fatal. */
  listed?: boolean;
}

export interface PublishDayOptions {
  day: UtcDay;
  /** Reference instant for isActive; also the publication time. */
  now: number;
  /** Publish only these countries (upper-case alpha-2); all when absent. */
  countries?: readonly string[];
  /** Sources to assume when the sources themselves are not given (tests): `{notam: [], aup: []}` is none. */
  sources: ActivitySources;
  /** NOTAM sources (ICAO text or JSON lines, gzip or not). */
  notams?: readonly DynamicInput[];
  /** AUP/UUP sources (NM RSA table CSV or B2B XML). */
  aup?: readonly DynamicInput[];
  /** A NOTAM or AUP source older than this (ms) is stale. @default 2 hours */
  maxSourceAgeMs?: number;
  /** Deployment variant: production adds the obstacle facets to NOTAM features (docs/contract.md §9). @default "production" */
  variant?: Variant;
  /** Files of the listed directories that are not data (a README, PROVENANCE.md, a test file): one diagnostic each. */
  skipped?: ReadonlyArray<{ name: string; why: string }>;
  /** Also publish the internal static tier (docs/design.md §5): the airspaces alone, before NOTAMs and AUP. @default false */
  staticTier?: boolean;
  /**
   * Also publish the version's vector tiles (issue 60, docs/tiles.md): one PMTiles archive of EUROPE. Off by default
   * until its build fits the publish's memory goal at Europe scale (there it adds ~400 MB: 800 -> 1 195 MB). @default false
   */
  tiles?: boolean;
  /**
   * Called once a derivation has read every source: a caller that does not use its inputs again lets go of their
   * bytes here (the CLI's publish empties its arrays), so that the run does not hold them to its end (60 MB at
   * Europe scale). The run keeps no reference to a source's bytes of its own.
   */
  sourcesRead?: () => void;
  /**
   * Whether this process reads the same NOTAM sources again (`watch`, `replay`): it then keeps each JSON-lines feed's
   * lines as read, so that a line unchanged gives the same NOTAM (notam/jsonl.ts). A one-shot publish says false: the
   * memo (the feed's text, 47 MB at Europe scale, and every NOTAM of it) would only be held to the run's end. @default true
   */
  readAgain?: boolean;
}

/** A `countries` selection the inputs cannot serve: bad usage (exit 2), never a silent empty publication. */
export class SelectionError extends Error {
  override readonly name = "SelectionError";
  readonly usage = true;
}

/** A NOTAM or AUP source older than this is stale, unless the options say otherwise. */
export const TWO_HOURS = 2 * 3_600_000;

export type Deps = {
  store: ObjectStore;
  log: Logger;
  /** The store's publisher lease this run holds: the pointer flip confirms it first (jobs/publish-run.ts). */
  lease?: LeaseGuard;
  /** Digest of the running code: with it, what earlier runs derived from the same inputs is taken from the store. */
  codeVersion?: string;
};
