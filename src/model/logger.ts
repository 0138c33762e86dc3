// What src/ may say while it works: the entry points in jobs/ decide where it goes (a progress line on a
// terminal, JSON lines otherwise). Nothing in src/ writes to the console itself.

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Progress of a long stage; `total` when known. */
  progress(stage: string, done: number, total?: number): void;
}

export const silentLogger: Logger = {
  info() {},
  warn() {},
  progress() {},
};
