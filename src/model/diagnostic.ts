// A diagnostic is how bad input becomes a result instead of an exception (STYLE habit 6).
// `code` is stable (tests and the run report key on it); `message` is for people.

export const SEVERITIES = ["skipped", "repaired", "warning"] as const;
/** skipped: the record is not published; repaired: published after a fix; warning: published as is. */
export type Severity = (typeof SEVERITIES)[number];

export interface Diagnostic {
  /** Stable dotted code, e.g. `geometry.ringNotClosed`. */
  code: string;
  severity: Severity;
  /** One line for people; quotes the offending value. */
  message: string;
  /** Source name (file name, or `-` for stdin). */
  source?: string;
  /** 1-based line in the source, where the format has lines. */
  line?: number;
  /** 0-based record index in the source. */
  record?: number;
  /** Identifier of the record, when known. */
  id?: string;
  /** Name of the record, when known. */
  name?: string;
  /** The offending text, shortened. */
  excerpt?: string;
}

/** Collects diagnostics in order; stages receive it instead of a logger. */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  addAll(ds: readonly Diagnostic[]): void {
    for (const d of ds) this.items.push(d);
  }

  /** Counts per code, keys sorted, for the run report. */
  countByCode(): Record<string, number> {
    const counts = new Map<string, number>();
    for (const d of this.items) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
    return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** Shortens text for a diagnostic excerpt. */
export function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
