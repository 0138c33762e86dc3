// Buffer zones in the AUP/UUP (issue 50 §3): a `Z` allocation links the buffer's own volume where the file holds one;
// else the area it surrounds, as a buffer: active for the allocation's times with its own limits. The designators are
// real (EAUP 2022: Germany's EDR10AZ, Poland's EPTR501Z beside EPTR501; the lotnik file holds `TR 501` and `TR 501Z`);
// the volumes are hand-made squares.
import { describe, expect, it } from "vitest";
import type { AupPlan } from "../../src/model/aup.js";
import { utcDay } from "../../src/model/time.js";
import { AirspaceType } from "../../src/model/vocab.js";
import { airspaceDay } from "../../src/resolve/airspace-activity.js";
import { allocationLinks, aupForDay } from "../../src/resolve/aup.js";
import { AirspaceLinker } from "../../src/resolve/link.js";
import { airspace } from "../publish/fixtures.js";

const DAY = utcDay("2022-05-10")!;
const at = (hm: string) => Date.parse(`2022-05-10T${hm}:00Z`);
const FL = (n: number) => ({ value: n, unit: 6 as const, referenceDatum: 2 as const });

const area = (id: string, name: string, country: string) =>
  airspace(id, country, 10, { name, type: AirspaceType.RESTRICTED, upperLimit: FL(100), lowerLimit: FL(50) });
const AREAS = [
  area("ed-r-10a", "ED-R 10A", "DE"),
  area("ep-tr-501", "TR 501", "PL"),
  area("ep-tr-501z", "TR 501Z", "PL"),
];
const linker = new AirspaceLinker(AREAS);

function plan(designator: string): AupPlan {
  return {
    aupDay: "2022-05-10",
    kind: "AUP",
    issued: at("05:00"),
    issuedFrom: "content",
    source: "eaup.csv",
    allocations: [
      {
        designator,
        status: "ACTIVE",
        start: at("08:00"),
        end: at("12:00"),
        lowerText: "FL030",
        upperText: "FL120",
        lower: FL(30),
        upper: FL(120),
        origin: { source: "eaup.csv", record: 1 },
      },
    ],
  } as AupPlan;
}

describe("buffer zones in the AUP", () => {
  it("links the buffer's own volume where the file holds it, never the area beside it", () => {
    const z = allocationLinks("EPTR501Z", linker);
    expect(z.airspaces.map((a) => a.id)).toEqual(["ep-tr-501z"]);
    expect(z.asBuffer).toBe(false);
    expect(allocationLinks("EPTR501", linker).airspaces.map((a) => a.id)).toEqual(["ep-tr-501"]);
  });

  it("else activates the area it surrounds as a buffer: the allocation's times, the area's own limits", () => {
    const z = allocationLinks("EDR10AZ", linker);
    expect(z.airspaces.map((a) => a.id)).toEqual(["ed-r-10a"]);
    expect(z.asBuffer).toBe(true);
    const day = aupForDay([plan("EDR10AZ")], DAY, linker);
    const allocations = day.linked.get("ed-r-10a")!;
    expect(allocations.map((x) => [x.designator, x.asBuffer])).toEqual([["EDR10AZ", true]]);
    const ctx = { day: DAY, now: at("07:00"), sources: { notam: [], aup: [] } };
    const d = airspaceDay(AREAS[0]!, ctx, { allocations, amcManaged: true });
    expect(d.activity.activationType).toBe("isActivatedByAUPAirspace");
    expect(d.intervals).toEqual([[at("08:00"), at("12:00")]]);
    // the buffer's FL030–FL120 are not the area's: its row keeps FL050–FL100
    expect(d.rows).toEqual([{ start: "2022-05-10T08:00:00Z", end: "2022-05-10T12:00:00Z" }]);
    expect(d.aupuups.map((r) => r.Designator)).toEqual(["EDR10AZ"]);
  });

  it("an allocation of the area itself keeps its levels as the day's limits", () => {
    const day = aupForDay([plan("EDR10A")], DAY, linker);
    const allocations = day.linked.get("ed-r-10a")!;
    expect(allocations[0]!.asBuffer).toBeUndefined();
    const ctx = { day: DAY, now: at("07:00"), sources: { notam: [], aup: [] } };
    const d = airspaceDay(AREAS[0]!, ctx, { allocations, amcManaged: true });
    expect(d.rows[0]).toMatchObject({ upperLimit: FL(120), lowerLimit: FL(30) });
  });

  it("Finland books its TSAs through their buffers (EFTSAH01Z, 2022 plans): the file's bare TSAH01 is active", () => {
    const tsa = {
      ...airspace("ef-tsa-h01", "FI", 25, { name: "TSAH01", type: AirspaceType.TSA }),
      origin: { source: "fi_efin-datafiles-topskyareas_2026-05.openair", record: 1 },
    };
    const fi = new AirspaceLinker([tsa]);
    const day = aupForDay([plan("EFTSAH01Z")], DAY, fi);
    const allocations = day.linked.get("ef-tsa-h01")!;
    expect(allocations.map((x) => [x.designator, x.asBuffer])).toEqual([["EFTSAH01Z", true]]);
    const ctx = { day: DAY, now: at("09:00"), sources: { notam: [], aup: [] } };
    const d = airspaceDay(tsa, ctx, { allocations, amcManaged: true });
    expect([d.activity.isActive, d.activity.activationType]).toEqual(["Yes", "isActivatedByAUPAirspace"]);
    expect(d.aupuups.map((r) => r.Designator)).toEqual(["EFTSAH01Z"]);
  });
});
