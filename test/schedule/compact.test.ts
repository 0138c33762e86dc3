import { describe, expect, it } from "vitest";
import { CompactSchedule, ItemDParsedSchedule } from "../../src/model/contract.js";
import { evaluateItemD } from "../../src/schedule/evaluate.js";
import { parseValidity } from "../../src/schedule/validity.js";

const v = parseValidity("2609010800", "2610312359");
const day = Date.UTC(2026, 8, 14) / 86_400_000;

describe("the compact schedule of ItemDParsedSchedule", () => {
  it.each([
    "MON-FRI 0800-1600 EXC SEP 17",
    "SR MINUS30-SS PLUS30",
    "FEB 08 0800-MAR 12 2000",
    "FRI 1200-SUN 2000",
    "01 02 04-06 0800-1300, 03 0800-1600",
    "H24",
  ])("%s passes the contract's schema", (d) => {
    if (!v.ok) throw new Error(v.reason);
    const r = evaluateItemD(d, v.value, day, { lat: 50, lon: 8 });
    expect(r.schedule).not.toBeNull();
    expect(CompactSchedule.parse(r.schedule)).toEqual(r.schedule);
    expect(
      ItemDParsedSchedule.parse({ status: r.status, schedule: r.schedule, parserVersion: r.parserVersion }),
    ).toBeTruthy();
  });

  it("writes weekdays Monday first, dates resolved, times as HH:MM or SR/SS with offsets", () => {
    if (!v.ok) throw new Error(v.reason);
    expect(evaluateItemD("SUN MON 0800-2359, 17 SR PLUS15-1200", v.value, day).schedule).toEqual({
      groups: [
        { days: { weekdays: ["MON", "SUN"] }, times: [["08:00", "24:00"]] },
        { days: { dates: ["2026-09-17"] }, times: [["SR+15", "12:00"]] },
      ],
    });
  });

  it("is null when the text is not understood", () => {
    if (!v.ok) throw new Error(v.reason);
    expect(evaluateItemD("WHEN THE BOSS SAYS SO", v.value, day).schedule).toBeNull();
  });
});
