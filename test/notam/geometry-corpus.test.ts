// Item E geometry over every NOTAM of ../shared/data/notam (the fixtures when it is absent): no throw, every
// geometry valid, and for R and W NOTAMs with coordinates in Item E the rate drawn from Item E and the distance to
// their own Q-line circle. The misses are printed by cause. Cases: test/notam/geometry.test.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { METERS_PER_NM } from "../../src/geo/geodesy.js";
import { checkAreaGeometry } from "../../src/geo/rfc7946.js";
import { farthestM, notamGeometry, parseCoordinates } from "../../src/notam/geometry.js";
import { parseQLine } from "../../src/notam/qline.js";
import { FIXTURES, SHARED_DATA } from "../helpers.js";

const NM = METERS_PER_NM;

// Every NOTAM of ../shared/data/notam (JSON lines, fields read directly). R and W subjects (docs/design.md §4: restrictive
// and activity NOTAMs) whose Item E holds a coordinate should be drawn from Item E, inside their own Q-line circle
// widened by max(2 NM, 20 %) and by the rounding of the Q-line centre to whole minutes (≤ 0.71 NM).
describe("notamGeometry: corpus", () => {
  const dir = path.join(SHARED_DATA, "notam");
  const fixtures = path.join(FIXTURES, "notam-geometry");
  interface Row {
    file: string;
    id: string;
    q?: string;
    itemE?: string;
  }
  const pad = (v: unknown) => String(v ?? "").padStart(3, "0");
  const rows = (): Row[] => {
    if (!existsSync(dir)) {
      console.warn(`NOTAM geometry corpus: ${dir} is absent; checked the fixtures only`);
      // the fixtures that are defects on purpose (routes, bad Q-lines, crossed rings) would skew the rates
      return readdirSync(fixtures)
        .filter((f) => f.endsWith(".json") && !f.endsWith(".expected.json"))
        .map((f) => ({ file: f, ...JSON.parse(readFileSync(path.join(fixtures, f), "utf8")) }))
        .filter((fx) => fx.expect.source === "itemE" && !fx.expect.issues)
        .map((fx) => ({ file: fx.file, id: fx.id, q: fx.qLine, itemE: fx.itemE }));
    }
    return readdirSync(dir)
      .filter((f) => /\.jsonl(\.gz)?$/.test(f) && !f.startsWith("itemD_"))
      .flatMap((file) => {
        const bytes = readFileSync(path.join(dir, file));
        const text = (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
        return text
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => {
            const r = JSON.parse(l);
            // UK records split the Q-line into fields; the others keep it whole in itemQ
            const q =
              r.itemQ ??
              [
                r.fir,
                r.qcode,
                r.traffic,
                r.purpose,
                r.scope,
                pad(r.lower),
                pad(r.upper),
                `${r.coordinates}${pad(r.radius)}`,
              ].join("/");
            return { file, id: r.id, q, itemE: r.itemE ?? undefined };
          });
      });
  };

  it("draws ≥ 98 % of R/W Item E areas from Item E, near the Q-line circle, never throws", () => {
    const all = rows();
    const causes: Record<string, number> = {};
    const count = (k: string) => (causes[k] = (causes[k] ?? 0) + 1);
    let throws = 0,
      eligible = 0,
      fromE = 0,
      checked = 0,
      outside = 0,
      invalid = 0;
    for (const row of all) {
      if (!row.itemE) continue;
      const parsed = row.q ? parseQLine(row.q) : undefined;
      const q = parsed?.ok ? parsed.value : undefined;
      let r: ReturnType<typeof notamGeometry>;
      try {
        r = notamGeometry(row.itemE, q);
      } catch {
        throws++;
        continue;
      }
      if (r.value && checkAreaGeometry(r.value.geometry).length > 0) invalid++;
      if (!/^Q[RW]/.test(q?.code ?? "") || parseCoordinates(row.itemE).length === 0) continue;
      eligible++;
      if (r.value?.source !== "itemE") {
        count(
          `not from Item E: ${r.issues
            .map((i) => i.code.replace("notam.geometry.", ""))
            .filter((c) => c !== "itemEUnused")
            .join("+")}`,
        );
        continue;
      }
      fromE++;
      if (!q?.centre || q.radiusNm === undefined || q.radiusNm >= 999) continue;
      checked++;
      const limit = (q.radiusNm + Math.max(2, 0.2 * q.radiusNm) + 0.71) * NM;
      if (farthestM(r.value.geometry, q.centre) > limit) {
        outside++;
        count(`outside the Q-line circle: ${r.value.shape}`);
      }
    }
    const rate = fromE / eligible;
    console.log(
      `NOTAM geometry corpus: ${all.length} NOTAMs, ${eligible} R/W with coordinates in Item E, ${fromE} from Item E ` +
        `(${(100 * rate).toFixed(2)} %), ${checked} checked against the Q-line circle, ${outside} outside; misses by cause:`,
      Object.fromEntries(Object.entries(causes).sort((a, b) => b[1] - a[1])),
    );
    expect({ throws, invalid }).toEqual({ throws: 0, invalid: 0 });
    expect(rate).toBeGreaterThanOrEqual(0.98);
    expect(outside / Math.max(1, checked)).toBeLessThanOrEqual(0.01);
  });
});
