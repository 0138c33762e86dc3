// The NOTAM rows of the docs/design.md §4 decision table on hand-made airspaces and NOTAMs.
import { describe, expect, it } from "vitest";
import type { Notam } from "../../src/model/notam.js";
import { airspaceDay } from "../../src/resolve/airspace-activity.js";
import { assumed } from "../../src/resolve/evidence.js";
import { explainActivity } from "../../src/resolve/explain.js";
import type { DayNotam } from "../../src/resolve/notams.js";
import { evaluateItemD } from "../../src/schedule/evaluate.js";
import { parseValidity } from "../../src/schedule/validity.js";
import { airspace, DAY } from "../publish/fixtures.js";

const at = (hhmm: string) => Date.parse(`${DAY.date}T${hhmm}:00Z`);
const fresh = { day: DAY, now: at("06:00"), sources: { notam: assumed("notam", "fresh"), aup: [] } };

function dayNotam(kind: "A" | "D", itemD: string | undefined, over: Partial<DayNotam> = {}, id = "A0001/26"): DayNotam {
  const notam: Notam = {
    id,
    series: "A",
    number: 1,
    year: 26,
    type: "N",
    itemA: ["EDGG"],
    itemB: "2609140000",
    itemC: "2609150000",
    ...(itemD ? { itemD } : {}),
    itemE: "ED-R 116 ACTIVE",
    origin: { source: "test", record: 0 },
  };
  const v = parseValidity(notam.itemB, notam.itemC!);
  if (!v.ok) throw new Error(v.reason);
  const schedule = itemD ? evaluateItemD(itemD, v.value, DAY.start / 86_400_000) : undefined;
  return {
    notam,
    kind,
    obstacle: false,
    validity: v.value,
    ...(schedule ? { schedule } : {}),
    spans: schedule ? schedule.intervals : [[DAY.start, DAY.end]],
    upper: { value: 100, unit: 6, referenceDatum: 2 },
    lower: { value: 0, unit: 1, referenceDatum: 0 },
    linked: [],
    effect: kind === "D" ? "deactivate" : "activate",
    unsure: [],
    ...over,
  };
}

describe("airspaces with linked NOTAMs", () => {
  it("a byNotam area activated by a NOTAM: its intervals, rows with the NOTAM's limits, the NOTAM listed", () => {
    const a = airspace("r116", "DE", 8, { type: 1, icaoClass: 8, byNotam: true });
    const d = airspaceDay(a, fresh, { notams: [dayNotam("A", "0800-1600")] });
    expect(d.activity).toMatchObject({ isActive: "Yes", activationType: "isActivatedByNOTAMAirspace" });
    expect(d.intervals).toEqual([[at("08:00"), at("16:00")]]);
    expect(d.rows).toEqual([
      {
        start: `${DAY.date}T08:00:00Z`,
        end: `${DAY.date}T16:00:00Z`,
        upperLimit: { value: 100, unit: 6, referenceDatum: 2 },
      },
    ]);
    expect(d.notams[0]).toMatchObject({ NotamId: "A0001/26", NotamIsOfKind: "A", ItemD: "0800-1600" });
    expect(d.notams[0]!.ItemDParsedSchedule?.status).toBe("exact");
  });

  it("a byNotam area with a fresh NOTAM source and nothing activating it is No", () => {
    const a = airspace("r116", "DE", 8, { type: 1, icaoClass: 8, byNotam: true });
    expect(airspaceDay(a, fresh).activity).toMatchObject({ isActive: "No", activationType: "isNotActiveAirspace" });
  });

  it("an exact deactivation subtracts its intervals from a permanent airspace", () => {
    const d = airspaceDay(airspace("ctr", "DE", 8), fresh, { notams: [dayNotam("D", "0800-1600")] });
    expect(d.intervals).toEqual([
      [DAY.start, at("08:00")],
      [at("16:00"), DAY.end],
    ]);
    expect(d.activity.activationType).toBe("isActive");
    expect(d.notams).toHaveLength(1);
  });

  it("a deactivation over the whole day leaves the airspace No, with the NOTAM listed", () => {
    const d = airspaceDay(airspace("ctr", "DE", 8), fresh, { notams: [dayNotam("D", undefined)] });
    expect(d.activity).toMatchObject({ isActive: "No", activationType: "isNotActiveAirspace" });
    expect(d.intervals).toEqual([]);
    expect(d.notams[0]!.NotamIsOfKind).toBe("D");
  });

  it("a deactivation whose schedule is not exact subtracts nothing", () => {
    const partial = dayNotam("D", "MON 0535-1800, 1900-2100");
    expect(partial.schedule?.status).toBe("partial");
    const d = airspaceDay(airspace("ctr", "DE", 8), fresh, { notams: [partial] });
    expect(d.intervals).toEqual([[DAY.start, DAY.end]]);
    expect(d.activity.isActive).toBe("Yes");
  });

  it("a NOTAM that activates nothing on the day is listed without changing the activity", () => {
    const a = airspace("r116", "DE", 8, { type: 1, icaoClass: 8, byNotam: true });
    const d = airspaceDay(a, fresh, { notams: [dayNotam("A", "SEP 20 0800-1600", { spans: [] })] });
    expect(d.activity.activationType).toBe("isNotActiveAirspace");
    expect(d.notams).toHaveLength(1);
  });
});

describe("explain names the NOTAM that cut or extended the day (issue 22 §3)", () => {
  const because = (a: ReturnType<typeof airspace>, notams: DayNotam[]) => {
    const d = airspaceDay(a, fresh, { notams });
    const ids = d.notams.map((n) => n.NotamId);
    return { day: d, because: explainActivity(a, d.activity, { notams: ids, aup: [], amcManaged: false }).because };
  };
  const cta = airspace("cta", "DE", 8, { type: 26, name: "CTA TEST" });

  it("a permanent airspace deactivated from 22:47: active by its type until 22:47 UTC, then deactivated by the NOTAM", () => {
    const { day, because: text } = because(cta, [dayNotam("D", "2247-2359", {}, "A1234/25")]);
    expect(day.intervals).toEqual([[DAY.start, at("22:47")]]);
    expect(day.activity.rule).toBe("permanent");
    expect(text).toBe("active by its type until 22:47 UTC, then deactivated by NOTAM A1234/25");
  });

  it("deactivated at the start of the day, or in its middle", () => {
    expect(because(cta, [dayNotam("D", "0000-0600", {}, "D0002/26")]).because).toBe(
      "deactivated by NOTAM D0002/26 until 06:00 UTC, then active by its type from 06:00 UTC",
    );
    expect(because(cta, [dayNotam("D", "0800-1600", {}, "D0003/26")]).because).toBe(
      "active by its type 00:00–08:00 and 16:00–24:00 UTC; deactivated by NOTAM D0003/26 08:00–16:00 UTC",
    );
  });

  it("deactivated for the whole day: names the NOTAM and what it removed", () => {
    expect(because(cta, [dayNotam("D", undefined, {}, "D0004/26")]).because).toBe(
      "deactivated by NOTAM D0004/26 for all the time it would have been active on the day (by its type, all day)",
    );
  });

  it("a deactivation that is not exact removes nothing, and says so", () => {
    const text = because(cta, [dayNotam("D", "MON 0535-1800, 1900-2100", {}, "D0005/26")]).because;
    expect(text).toBe(
      "a permanent airspace (its type is active whenever it exists): the whole day; deactivation NOTAM D0005/26 is linked but its Item D is not exact, so it removes nothing",
    );
  });

  it("a NOTAM activation names the NOTAM and its hours; a deactivation beside it too", () => {
    const r = airspace("r116", "DE", 8, { type: 1, icaoClass: 8, byNotam: true });
    const on = dayNotam("A", "0800-1600", {}, "A0006/26");
    expect(because(r, [on]).because).toBe(
      "activated on the day by NOTAM A0006/26 08:00–16:00 UTC (decision table: linked activation)",
    );
    const cut = dayNotam("D", "1400-1600", {}, "D0007/26");
    expect(because(r, [on, cut]).because).toBe(
      "activated on the day by NOTAM A0006/26 08:00–14:00 UTC (decision table: linked activation); deactivated by NOTAM D0007/26 14:00–16:00 UTC",
    );
  });
});
