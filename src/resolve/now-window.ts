// When a resolution holds (issue 24): `now` enters it only through `activeAt`, and a `NowWindow` records the
// instants around `now` at which its answer would change, so a later run knows which features to resolve again.
import type { Explanation } from "../model/explain.js";
import type { Span } from "../model/time.js";
import type { IsActive } from "../model/vocab.js";

/** `Yes` when an interval is running at `now` or starts later. */
export function isActiveBy(spans: readonly Span[], now: number): IsActive {
  return spans.some(([, end]) => end > now) ? "Yes" : "No";
}

/** {@link isActiveBy} at the context's `now`, the comparison recorded in its window. */
export function activeAt(spans: readonly Span[], ctx: { now: number; window?: NowWindow }): IsActive {
  ctx.window?.see(spans);
  return isActiveBy(spans, ctx.now);
}

/**
 * The instants around `now` between which a resolution stays what it is (issue 24). `now` enters the resolution
 * only through {@link activeAt}, as `last end > now`; when every such comparison gives the same answer at another
 * instant, every branch taken is the same, so every output is. That holds for `lo <= t < hi`.
 */
export class NowWindow {
  /** The latest interval end at or before `now`, and the earliest after it. */
  lo = Number.NEGATIVE_INFINITY;
  hi = Number.POSITIVE_INFINITY;

  constructor(readonly now: number) {}

  /** {@link isActiveBy} compares the latest end alone with `now`: only that instant can change its answer. */
  see(spans: readonly Span[]): void {
    if (spans.length === 0) return;
    let last = Number.NEGATIVE_INFINITY;
    for (const [, end] of spans) last = Math.max(last, end);
    if (last > this.now) this.hi = Math.min(this.hi, last);
    else this.lo = Math.max(this.lo, last);
  }

  /** The same resolution holds at `t`. */
  holds(t: number): boolean {
    return t >= this.lo && t < this.hi;
  }

  /** Narrows this window to the part `w` (one feature's) shares with it. */
  merge(w: NowWindow): void {
    this.lo = Math.max(this.lo, w.lo);
    this.hi = Math.min(this.hi, w.hi);
  }
}

/** One feature resolved at one instant, with the window its resolution holds in. */
export interface Timed<F> {
  feature: F;
  explanation: Explanation;
  window: NowWindow;
}

/** How one feature was resolved, to resolve it again at a later instant (issue 24: features past their window). */
export interface Track<F> {
  window: NowWindow;
  at(now: number): Timed<F>;
}
