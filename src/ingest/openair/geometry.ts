// OpenAir geometry commands (DP, V X=/D=, DA, DB, DC) to one raw ring of [lon, lat] pairs.
//   DP 48:29:28 N 009:11:28 E     DP 45:37:56N 13:55:08E     DP 45:15.531N 014:18.333E
//   V X=52:24:38 N 013:07:46 E    V D=-    DA 10, 270, 290    DB p1, p2    DC 1.10
import { arcPoints, bearingDeg, circleRing, distanceM, type LatLon, METERS_PER_NM } from "../../geo/geodesy.js";
import type { RawRing } from "../../model/airspace.js";

/** Arc densification step in degrees. */
const ARC_STEP_DEG = 5;
/** Segments of a DC circle ring (docs/design.md: at least 32). */
const CIRCLE_SEGMENTS = 64;

// One coordinate pair: degrees:minutes[:seconds] or degrees:decimal-minutes, hemisphere letter after each half.
// The optional comma tolerates Naviter's own example `DB 39:36:40N 119:46:10W, 39:29:09N, 119:36:10W`.
const HALF = String.raw`(\d{1,3}):(\d{1,2}(?:\.\d+)?)(?::(\d{1,2}(?:\.\d+)?))?`;
const PAIR = new RegExp(String.raw`${HALF}\s*([NS])\s*,?\s*${HALF}\s*([EW])`, "gi");

function angle(deg: string, min: string, sec: string | undefined, max: number): number | undefined {
  const d = Number(deg);
  const m = Number(min);
  const s = sec === undefined ? 0 : Number(sec);
  // Minutes or seconds written as 60 (`42:40:60 N`) are a rounding habit of the exports: the sum carries them.
  if (m > 60 || s > 60 || (sec !== undefined && min.includes("."))) return undefined;
  const v = d + m / 60 + s / 3600;
  return v <= max ? v : undefined;
}

function toLatLon(m: RegExpMatchArray): LatLon | undefined {
  const [, latD, latM, latS, ns, lonD, lonM, lonS, ew] = m;
  if (!latD || !latM || !ns || !lonD || !lonM || !ew) return undefined;
  const lat = angle(latD, latM, latS, 90);
  const lon = angle(lonD, lonM, lonS, 180);
  if (lat === undefined || lon === undefined) return undefined;
  return { lat: ns.toUpperCase() === "S" ? -lat : lat, lon: ew.toUpperCase() === "W" ? -lon : lon };
}

/** Parses exactly `count` coordinate pairs from `text` (separated by blanks or commas), else undefined. */
export function parsePoints(text: string, count: number): LatLon[] | undefined {
  const matches = [...text.matchAll(PAIR)];
  if (matches.length !== count) return undefined;
  if (text.replace(PAIR, "").replace(/[\s,]/g, "") !== "") return undefined;
  const out: LatLon[] = [];
  for (const m of matches) {
    const p = toLatLon(m);
    if (!p) return undefined;
    out.push(p);
  }
  return out;
}

function positive(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+(?:\.\d+)?$|^\.\d+$/.test(t)) return undefined;
  const v = Number(t);
  return v > 0 ? v : undefined;
}

export type GeometryIssue = { code: string; message: string };

/** Geometry state of one AC block; feed it the D/V lines in order, then call `ring()`. */
export class RingBuilder {
  private centre: LatLon | undefined;
  private clockwise = true;
  private readonly points: LatLon[] = [];
  private readonly circles: Array<{ centre: LatLon; radiusNm: number }> = [];

  /** Applies one command; returns an issue when the line cannot be used, `ignored` for V W=/Z=. */
  apply(key: "DP" | "DA" | "DB" | "DC" | "V", arg: string): GeometryIssue | "ignored" | "unknown" | undefined {
    if (key === "V") return this.variable(arg);
    if (key === "DP") {
      const p = parsePoints(arg, 1)?.[0];
      if (!p) return unparsable(key, arg);
      this.points.push(p);
      return undefined;
    }
    if (key === "DC") {
      const r = positive(arg);
      if (r === undefined) return unparsable(key, arg);
      if (!this.centre) return noCentre(key, arg);
      this.circles.push({ centre: this.centre, radiusNm: r });
      return undefined;
    }
    if (key === "DA") {
      const parts = arg.split(",").map((s) => s.trim());
      const [r, a, b] = [positive(parts[0] ?? ""), angleArg(parts[1]), angleArg(parts[2])];
      if (parts.length !== 3 || r === undefined || a === undefined || b === undefined) return unparsable(key, arg);
      if (!this.centre) return noCentre(key, arg);
      this.points.push(...arcPoints(this.centre, r * METERS_PER_NM, a, b, this.clockwise, ARC_STEP_DEG));
      return undefined;
    }
    // DB p1, p2: from p1 to the bearing of p2, radius centre→p1 (the arc is over-defined; p1 wins).
    const ends = parsePoints(arg, 2);
    if (!ends?.[0] || !ends[1]) return unparsable(key, arg);
    if (!this.centre) return noCentre(key, arg);
    const [p1, p2] = [ends[0], ends[1]];
    const radius = distanceM(this.centre, p1);
    const from = bearingDeg(this.centre, p1);
    const to = bearingDeg(this.centre, p2);
    this.points.push(...arcPoints(this.centre, radius, from, to, this.clockwise, ARC_STEP_DEG));
    return undefined;
  }

  private variable(arg: string): GeometryIssue | "ignored" | "unknown" | undefined {
    const m = /^([A-Za-z])\s*=\s*(.*)$/.exec(arg);
    const name = m?.[1]?.toUpperCase();
    const value = (m?.[2] ?? "").trim();
    if (name === "X") {
      const p = parsePoints(value, 1)?.[0];
      if (!p) return unparsable("V X=", value);
      this.centre = p;
      return undefined;
    }
    if (name === "D") {
      if (value !== "+" && value !== "-") return unparsable("V D=", value);
      this.clockwise = value === "+";
      return undefined;
    }
    // V W= (airway width, only for DY) and V Z= (zoom visibility) do not change the area.
    return name === "W" || name === "Z" ? "ignored" : "unknown";
  }

  /**
   * The block's ring as [lon, lat], not closed or deduplicated (the repair stage does that), except a lone
   * DC circle, which `circleRing` closes. `mixed` is set when a circle was dropped in favour of other points.
   */
  ring(): { ring: RawRing; distinct: number; mixed: boolean; extraCircles: number } {
    const first = this.circles[0];
    if (this.points.length === 0 && first) {
      const ring = circleRing(first.centre, first.radiusNm * METERS_PER_NM, CIRCLE_SEGMENTS);
      return { ring, distinct: CIRCLE_SEGMENTS, mixed: false, extraCircles: this.circles.length - 1 };
    }
    const ring: RawRing = this.points.map((p) => [p.lon, p.lat]);
    const distinct = new Set(ring.map(([lon, lat]) => `${lon},${lat}`)).size;
    return { ring, distinct, mixed: this.circles.length > 0, extraCircles: 0 };
  }
}

function angleArg(text: string | undefined): number | undefined {
  const t = (text ?? "").trim();
  if (!/^-?\d+(?:\.\d+)?$/.test(t)) return undefined;
  return ((Number(t) % 360) + 360) % 360;
}

function unparsable(key: string, arg: string): GeometryIssue {
  return { code: "openair.coordinate.unparsable", message: `${key} not understood: "${arg.trim()}"` };
}

function noCentre(key: string, arg: string): GeometryIssue {
  return { code: "openair.geometry.noCentre", message: `${key} "${arg.trim()}" without a preceding V X= centre` };
}
