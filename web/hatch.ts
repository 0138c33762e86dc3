// The diagonal hatch a feature whose dynamicStyle says forwardDiagonal or backwardDiagonal is filled with, in its
// line colour: a pattern for the canvases, the map form's and the tiles'.

/** An 8×8 canvas with one diagonal line in `color`, or undefined without a 2D context. */
function hatchCanvas(color: string, direction: string): HTMLCanvasElement | undefined {
  const c = document.createElement("canvas");
  c.width = c.height = 8;
  const ctx = c.getContext("2d");
  if (!ctx) return undefined;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  const [y0, y1] = direction === "forwardDiagonal" ? [8, 0] : [0, 8];
  ctx.moveTo(0, y0);
  ctx.lineTo(8, y1);
  ctx.stroke();
  return c;
}

const patterns = new Map<string, CanvasPattern | string>();
/** The hatch as a canvas pattern (remembered: each repaint asks again); the colour itself where none can be made. */
export function hatchPattern(color: string, direction: string): CanvasPattern | string {
  const key = `${color}|${direction}`;
  let hit = patterns.get(key);
  if (hit === undefined) {
    const c = hatchCanvas(color, direction);
    hit = c?.getContext("2d")?.createPattern(c, "repeat") ?? color;
    patterns.set(key, hit);
  }
  return hit;
}
