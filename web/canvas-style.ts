// How the map form's canvas (web/canvas-layer.ts) paints a feature: its dynamicStyle, stronger when active at the
// chosen instant, faded outside the band, hatched as its paint direction says (the pattern is the page's,
// web/hatch.ts). The vector tiles are painted with it too (web/tile-layer.ts). Without the DOM.
import { activeAt, byDefault, type Filters, hidden, meetsBand, type Summary } from "./logic.js";

/** How the canvas paints one feature; `P` a pattern fill (a CanvasPattern in the page). */
export interface PaintStyle<P = never> {
  fill: string | P;
  /** Multiplies the fill colour's own alpha. */
  fillAlpha: number;
  stroke: string;
  strokeAlpha: number;
  width: number;
  dash: number[];
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

/** How a feature is painted at `instant`: its dynamicStyle, stronger when active at the chosen minute, faded outside the band. */
export function paintStyle<P = never>(
  f: Summary,
  instant: number,
  filters: Filters,
  hatch?: (color: string, direction: "forwardDiagonal" | "backwardDiagonal") => P | string,
): PaintStyle<P> | undefined {
  if (hidden(f, filters)) return undefined;
  const s = f.style;
  const now = activeAt(f, instant);
  const fade = meetsBand(f, filters.bandFt) ? 1 : 0.2;
  const fillColor = s?.fillColor ?? "rgba(82, 82, 91, 0.08)";
  const dir = s?.direction;
  const hatched =
    (dir === "forwardDiagonal" || dir === "backwardDiagonal") && s && hatch ? hatch(s.lineColor, dir) : undefined;
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
