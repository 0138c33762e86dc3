import { getTimes } from "suncalc";
import { describe, expect, it } from "vitest";
import { sunTimes } from "../../src/schedule/sun.js";

// suncalc 2, not 1: 1.x puts solar noon ~70 s late (mourner/suncalc#164) and takes the declination at noon for
// both events, off by up to ~10 min near polar day at 66N; 2.x iterates on the true altitude and agrees to seconds.
/** Reference events (epoch ms), anchored like ours to the transit near 12:00 UTC − lon/15 h on `date`. */
function reference(date: string, lat: number, lon: number): { sunrise?: number; sunset?: number; polar?: string } {
  const times = getTimes(new Date(Date.parse(`${date}T12:00:00Z`) - (lon / 15) * 3_600_000), lat, lon);
  if (times.alwaysUp) return { polar: "day" };
  if (times.alwaysDown) return { polar: "night" };
  return { sunrise: times.sunrise!.getTime(), sunset: times.sunset!.getTime() };
}

const dates2026 = Array.from({ length: 12 }, (_, m) => `2026-${String(m + 1).padStart(2, "0")}`).flatMap((month) => [
  `${month}-01`,
  `${month}-15`,
]);

describe("sunTimes", () => {
  it("agrees with suncalc within 60 s over Europe, lat 35..66, lon -25..40, 1st and 15th of each month of 2026", () => {
    let max = 0;
    let worst = "";
    let cases = 0;
    let polar = 0;
    const mismatches: string[] = [];
    for (let lat = 35; lat <= 66; lat++) {
      for (let lon = -25; lon <= 40; lon += 5) {
        for (const date of dates2026) {
          const ours = sunTimes(date, lat, lon);
          const ref = reference(date, lat, lon);
          cases++;
          if (ours.polar || ref.polar) {
            // Only at 66N around midsummer; both must call it the same way.
            if (ours.polar !== ref.polar) mismatches.push(`${date} ${lat} ${lon}`);
            polar++;
            continue;
          }
          for (const [a, b] of [
            [ours.sunrise, ref.sunrise],
            [ours.sunset, ref.sunset],
          ] as const) {
            const diff = Math.abs((a ?? Number.NaN) - (b ?? Number.NaN)) / 1000;
            if (!(diff <= max)) {
              max = diff;
              worst = `${date} ${lat} ${lon}`;
            }
          }
        }
      }
    }
    expect(cases).toBe(32 * 14 * 24);
    expect(mismatches, "polar-state disagreements").toEqual([]);
    expect(polar, "the grid should reach polar day at 66N in June").toBeGreaterThan(0);
    expect(max, `max |ours - suncalc| = ${max.toFixed(1)} s at ${worst}`).toBeLessThanOrEqual(60);
  });

  it.each(["2026-06-21", "2026-12-21"])("matches suncalc for Frankfurt (50.03N 8.57E) on %s", (date) => {
    const ours = sunTimes(date, 50.03, 8.57);
    const ref = reference(date, 50.03, 8.57);
    expect(ours.polar).toBeUndefined();
    expect(Math.abs(ours.sunrise! - ref.sunrise!)).toBeLessThanOrEqual(60_000);
    expect(Math.abs(ours.sunset! - ref.sunset!)).toBeLessThanOrEqual(60_000);
    expect(new Date(ours.sunrise!).toISOString().slice(0, 10)).toBe(date);
    expect(new Date(ours.sunset!).toISOString().slice(0, 10)).toBe(date);
  });

  it("reports polar day at 78N 15E (Svalbard) at midsummer", () => {
    expect(sunTimes("2026-06-21", 78, 15)).toEqual({ polar: "day" });
    expect(reference("2026-06-21", 78, 15)).toEqual({ polar: "day" });
  });

  it("reports polar night at 78N 15E (Svalbard) at midwinter", () => {
    expect(sunTimes("2026-12-21", 78, 15)).toEqual({ polar: "night" });
    expect(reference("2026-12-21", 78, 15)).toEqual({ polar: "night" });
  });

  it.each(["2026-13-01", "2026-02-30", "20260621", "2026-6-21", ""])("throws a RangeError naming %j", (date) => {
    expect(() => sunTimes(date, 50, 8)).toThrow(RangeError);
    expect(() => sunTimes(date, 50, 8)).toThrow(`"${date}"`);
  });
});
