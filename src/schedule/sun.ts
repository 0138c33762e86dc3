// Sunrise/sunset after the NOAA Solar Calculator (Meeus-based low-precision solar coordinates, good to well
// under a minute between ±72° latitude). Pure: callers supply the date, so results are reproducible.
// No luxon here (issue 17): Item D's SR/SS are UTC instants of a UTC day, no zone or DST is involved; the local
// hours of AIP remarks go through luxon in src/resolve/hours.ts. Checked against suncalc 2 in test/schedule/sun.test.ts.

const DAY_MS = 86_400_000;
const JD_UNIX_EPOCH = 2_440_587.5;
const JD_J2000 = 2_451_545;
const rad = (deg: number): number => (deg * Math.PI) / 180;
const deg = (r: number): number => (r * 180) / Math.PI;
/** Standard refraction (34') plus the solar semi-diameter (16'), as in NOAA and suncalc. */
const COS_ZENITH = Math.cos(rad(90.833));

export type SunTimes = { sunrise?: number; sunset?: number; polar?: "day" | "night" };

/** Solar declination (rad) and equation of time (minutes) at Julian date `jd`. */
function solarCoordinates(jd: number): { declination: number; eqTimeMin: number } {
  const t = (jd - JD_J2000) / 36_525; // Julian centuries since J2000
  const meanLong = rad((280.46646 + t * (36_000.76983 + 0.0003032 * t)) % 360);
  const meanAnomaly = rad(357.52911 + t * (35_999.05029 - 0.0001537 * t));
  const eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t);
  const centre =
    Math.sin(meanAnomaly) * (1.914602 - t * (0.004817 + 0.000014 * t)) +
    Math.sin(2 * meanAnomaly) * (0.019993 - 0.000101 * t) +
    Math.sin(3 * meanAnomaly) * 0.000289;
  // Nutation and aberration enter through the longitude of the Moon's ascending node.
  const omega = rad(125.04 - 1934.136 * t);
  const apparentLong = rad(deg(meanLong) + centre - 0.00569 - 0.00478 * Math.sin(omega));
  const meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
  const obliquity = rad(meanObliquity + 0.00256 * Math.cos(omega));
  const declination = Math.asin(Math.sin(obliquity) * Math.sin(apparentLong));
  const y = Math.tan(obliquity / 2) ** 2;
  const eqTime =
    y * Math.sin(2 * meanLong) -
    2 * eccentricity * Math.sin(meanAnomaly) +
    4 * eccentricity * y * Math.sin(meanAnomaly) * Math.cos(2 * meanLong) -
    0.5 * y * y * Math.sin(4 * meanLong) -
    1.25 * eccentricity * eccentricity * Math.sin(2 * meanAnomaly);
  return { declination, eqTimeMin: 4 * deg(eqTime) };
}

/** cos of the hour angle at which the sun's centre sits at -0.833°; outside [-1, 1] it never gets there. */
function cosHourAngle(latRad: number, declination: number): number {
  return COS_ZENITH / (Math.cos(latRad) * Math.cos(declination)) - Math.tan(latRad) * Math.tan(declination);
}

/** Minutes after 00:00 UTC of the day starting at `jd0` when the sun rises (sign 1) or sets (sign -1). */
function eventMinutes(jd0: number, minutes: number, latRad: number, lon: number, sign: 1 | -1): number {
  const { declination, eqTimeMin } = solarCoordinates(jd0 + minutes / 1440);
  // Clamped because declination drifts between noon and the event: on the day a polar period starts or ends the
  // sun may just reach the horizon at noon but not at the event's time; it then grazes it at midnight/noon.
  const hourAngle = deg(Math.acos(Math.min(1, Math.max(-1, cosHourAngle(latRad, declination)))));
  return 720 - 4 * (lon + sign * hourAngle) - eqTimeMin;
}

/**
 * Sunrise and sunset (UTC epoch ms) on the UTC calendar date `date` (YYYY-MM-DD) at lat/lon (degrees, east
 * positive), NOAA algorithm, solar altitude -0.833°. `polar`: "day" when the sun never sets that date, "night" when
 * it never rises (then sunrise/sunset are undefined).
 *
 * The events always bracket the solar transit at about 12:00 UTC − lon/15 h on `date` (on `date` for |lon| < ~176°),
 * never a neighbouring day's. In Europe below ~58N both fall on `date`; farther north in summer the night is so short
 * that sunrise can fall late on the previous UTC date (east, e.g. 60N 40E in June) or sunset early on the next
 * (west), and the same happens at any latitude well outside lon −30..45.
 * @throws RangeError when `date` is not a valid YYYY-MM-DD calendar date.
 */
export function sunTimes(date: string, lat: number, lon: number): SunTimes {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const midnight = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  // Date.UTC silently rolls 2026-02-30 over to March; the round trip catches that.
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`sunTimes: invalid date "${date}", expected YYYY-MM-DD`);
  }
  return sunTimesOnDay(midnight / DAY_MS, lat, lon);
}

/** As sunTimes, for the UTC day `day` (days since 1970-01-01): no date text to parse on hot paths. */
export function sunTimesOnDay(day: number, lat: number, lon: number): SunTimes {
  const midnight = day * DAY_MS;
  const jd0 = day + JD_UNIX_EPOCH;
  const latRad = rad(lat);

  // Polar state is judged at the nominal noon, where the sun is highest (day) or the night deepest (night).
  const noon = solarCoordinates(jd0 + 0.5 - lon / 360);
  const cosH = cosHourAngle(latRad, noon.declination);
  if (cosH < -1) return { polar: "day" };
  if (cosH > 1) return { polar: "night" };

  const event = (sign: 1 | -1): number => {
    // Two refinements: the first moves the estimate from noon to within minutes of the event, the second
    // absorbs the declination change over those minutes (NOAA's own calculator stops after one).
    let minutes = 720 - 4 * lon - noon.eqTimeMin;
    for (let i = 0; i < 3; i++) minutes = eventMinutes(jd0, minutes, latRad, lon, sign);
    return Math.round(midnight + minutes * 60_000);
  };
  return { sunrise: event(1), sunset: event(-1) };
}
