// One canvas for every feature, drawn straight from Web Mercator coordinates decoded once per load (the map form,
// src/origin/map-form.ts): tens of thousands of polygons with two million vertices repaint in a fraction of a
// second, where one Leaflet layer per feature takes seconds. Points closer than half a pixel to the previous one are
// skipped while drawing. Features under four pixels are drawn as small boxes, those alike in a row as one path;
// under sixteen, their outline is a hairline. Clicks are answered by a bounding-box scan and an even-odd
// point-in-polygon test, topmost feature first.
import L from "leaflet";
import type { PaintStyle as Paint } from "./canvas-style.js";

export type PaintStyle = Paint<CanvasPattern>;

/** A feature as the canvas draws it. */
export interface Shape<T> {
  item: T;
  /** Rings as flat [x0, y0, x1, y1, …] in Web Mercator units (0–1 across the world). */
  rings: Float64Array[];
  /** minX, minY, maxX, maxY in the same units. */
  box: [number, number, number, number];
}

export class FeatureCanvas<T> extends L.Layer {
  private shapes: Shape<T>[] = [];
  private canvas: HTMLCanvasElement | undefined;
  private frame = 0;
  /** Time of the last repaint, ms. */
  lastPaintMs = 0;

  constructor(
    private readonly styleOf: (item: T) => PaintStyle | undefined,
    private readonly onClick: (item: T, at: L.LatLng) => void,
  ) {
    super();
  }

  /** Features in drawing order (the last is on top). */
  setShapes(shapes: Shape<T>[]): void {
    this.shapes = shapes;
    this.redraw();
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create("canvas", "leaflet-zoom-hide") as HTMLCanvasElement;
    map.getPanes().overlayPane.appendChild(this.canvas);
    map.on("moveend zoomend resize viewreset", this.redraw, this);
    map.on("click", this.click, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    this.canvas?.remove();
    map.off("moveend zoomend resize viewreset", this.redraw, this);
    map.off("click", this.click, this);
    return this;
  }

  /** Repaints on the next animation frame (calls in between are merged). */
  redraw(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.paint());
  }

  private view(): { scale: number; ox: number; oy: number } {
    const map = this._map;
    const scale = 256 * 2 ** map.getZoom();
    const topLeft = map.containerPointToLayerPoint([0, 0]);
    const origin = map.getPixelOrigin();
    return { scale, ox: origin.x + topLeft.x, oy: origin.y + topLeft.y };
  }

  private paint(): void {
    this.frame = 0;
    const map = this._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    canvas.width = size.x * ratio;
    canvas.height = size.y * ratio;
    canvas.style.width = `${size.x}px`;
    canvas.style.height = `${size.y}px`;
    L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([0, 0]));
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const { scale, ox, oy } = this.view();
    const [vx0, vy0, vx1, vy1] = [ox / scale, oy / scale, (ox + size.x) / scale, (oy + size.y) / scale];
    const minStep = 0.5 / scale;
    const started = performance.now();
    // the context's state is set only when it changes: Chrome parses a colour string on every assignment, and
    // features sorted by priority mostly share their style with the one before
    const pen = new Pen(ctx);
    /** Small features' boxes in the path not yet filled. */
    let boxes = 0;
    for (const s of this.shapes) {
      if (s.box[2] < vx0 || s.box[0] > vx1 || s.box[3] < vy0 || s.box[1] > vy1) continue;
      const style = this.styleOf(s.item);
      if (!style) continue;
      // smaller than four pixels: a filled box in the line colour says as much, for far less work
      const w = (s.box[2] - s.box[0]) * scale;
      const h = (s.box[3] - s.box[1]) * scale;
      if (w < 4 && h < 4) {
        // boxes alike in a row are filled as one path: a fillRect each took most of a Europe-wide repaint
        if (boxes === 0 || style.stroke !== pen.fillWith || style.strokeAlpha !== pen.alpha) {
          if (boxes > 0) ctx.fill();
          ctx.beginPath();
          pen.fill(style.stroke, style.strokeAlpha);
        }
        ctx.rect(s.box[0] * scale - ox, s.box[1] * scale - oy, Math.max(2, w), Math.max(2, h));
        boxes++;
        continue;
      }
      if (boxes > 0) ctx.fill();
      boxes = 0;
      ctx.beginPath();
      for (const ring of s.rings) {
        let px = ring[0]!;
        let py = ring[1]!;
        ctx.moveTo(px * scale - ox, py * scale - oy);
        for (let i = 2; i < ring.length; i += 2) {
          const x = ring[i]!;
          const y = ring[i + 1]!;
          if (Math.abs(x - px) < minStep && Math.abs(y - py) < minStep && i < ring.length - 2) continue;
          ctx.lineTo(x * scale - ox, y * scale - oy);
          px = x;
          py = y;
        }
        ctx.closePath();
      }
      pen.fill(style.fill, style.fillAlpha);
      ctx.fill("evenodd");
      // under 16 pixels a wider outline would cover the feature; a hairline is also far cheaper to draw
      pen.stroke(style.stroke, style.strokeAlpha, w < 16 && h < 16 ? 1 : style.width, style.dash);
      ctx.stroke();
    }
    if (boxes > 0) ctx.fill();
    this.lastPaintMs = performance.now() - started;
    ctx.globalAlpha = 1;
  }

  private click(e: L.LeafletMouseEvent): void {
    const { scale, ox, oy } = this.view();
    const p = e.containerPoint;
    const [x, y] = [(p.x + ox) / scale, (p.y + oy) / scale];
    const slack = 3 / scale;
    for (let i = this.shapes.length - 1; i >= 0; i--) {
      const s = this.shapes[i]!;
      if (x < s.box[0] - slack || x > s.box[2] + slack || y < s.box[1] - slack || y > s.box[3] + slack) continue;
      if (!this.styleOf(s.item) || !inside(s.rings, x, y)) continue;
      this.onClick(s.item, e.latlng);
      return;
    }
  }
}

/** A 2D context's fill and stroke state, assigned only when it differs from the last assignment. */
export class Pen {
  fillWith: string | CanvasPattern | undefined;
  private strokeWith: string | undefined;
  alpha = -1;
  private width = -1;
  private dash: number[] | undefined;

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  fill(paint: string | CanvasPattern, alpha: number): void {
    this.setAlpha(alpha);
    if (paint !== this.fillWith) this.ctx.fillStyle = this.fillWith = paint;
  }

  stroke(paint: string, alpha: number, width: number, dash: number[]): void {
    this.setAlpha(alpha);
    if (paint !== this.strokeWith) this.ctx.strokeStyle = this.strokeWith = paint;
    if (width !== this.width) this.ctx.lineWidth = this.width = width;
    if (dash !== this.dash && (dash.length > 0 || (this.dash?.length ?? 1) > 0)) this.ctx.setLineDash(dash);
    this.dash = dash;
  }

  private setAlpha(alpha: number): void {
    if (alpha !== this.alpha) this.ctx.globalAlpha = this.alpha = alpha;
  }
}

/** Even-odd point in polygon over every ring (holes and multi-polygons alike). */
function inside(rings: readonly Float64Array[], x: number, y: number): boolean {
  let odd = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [r[i]!, r[i + 1]!, r[j]!, r[j + 1]!];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  }
  return odd;
}
