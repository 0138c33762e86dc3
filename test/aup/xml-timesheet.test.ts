// Timesheet expansion of AIXM activations, through the whole reader (inline messages).
import { describe, expect, it } from "vitest";
import { activation, codes, endAt, inline, spans, tempdelta } from "./xml-builders.js";

/** Intervals of one ACTIVE activation with these timesheets over validTime [begin, end). */
const expand = (sheets: string[], begin: string, end: string) => {
  const intervals = sheets.map((s) => `<aixm:timeInterval><aixm:Timesheet>${s}</aixm:Timesheet></aixm:timeInterval>`);
  const r = inline([
    tempdelta("EDR205CZ", activation(`${intervals.join("")}<aixm:status>ACTIVE</aixm:status>`), begin, endAt(end)),
  ]);
  return { spans: spans(r), codes: codes(r) };
};

describe("timesheets", () => {
  const sheet = (s: Record<string, string>) =>
    Object.entries(s)
      .map(([k, v]) => `<aixm:${k}>${v}</aixm:${k}>`)
      .join("");

  it("weekdays MON–FRI inside a DD-MM date window", () => {
    const s = sheet({
      timeReference: "UTC",
      startDate: "22-02",
      endDate: "01-03",
      day: "MON",
      dayTil: "FRI",
      startTime: "08:00",
      endTime: "12:00",
    });
    const r = expand([s], "2022-02-19T00:00:00Z", "2022-03-05T00:00:00Z");
    expect(r.spans.map((x) => x.slice(0, 10))).toEqual([
      "2022-02-22",
      "2022-02-23",
      "2022-02-24",
      "2022-02-25",
      "2022-02-28",
      "2022-03-01",
    ]);
  });

  it("overnight 23:00–06:00 ends the next day, clipped to validTime", () => {
    const r = expand(
      [sheet({ day: "ANY", startTime: "23:00", endTime: "06:00" })],
      "2022-02-23T06:00:00Z",
      "2022-02-25T00:00:00Z",
    );
    expect(r.spans).toEqual(["2022-02-23T23:00:00Z/2022-02-24T06:00:00Z", "2022-02-24T23:00:00Z/2022-02-25T00:00:00Z"]);
  });

  it("only exclusions: validTime minus them", () => {
    const r = expand(
      [sheet({ day: "ANY", startTime: "12:00", endTime: "13:00", excluded: "YES" })],
      "2022-02-23T09:00:00Z",
      "2022-02-23T18:00:00Z",
    );
    expect(r.spans).toEqual(["2022-02-23T09:00:00Z/2022-02-23T12:00:00Z", "2022-02-23T13:00:00Z/2022-02-23T18:00:00Z"]);
  });

  it("an unsupported day (HOL) is reported, never guessed", () => {
    const r = expand(
      [sheet({ day: "HOL", startTime: "08:00", endTime: "12:00" })],
      "2022-02-23T00:00:00Z",
      "2022-02-24T00:00:00Z",
    );
    expect(r).toEqual({ spans: [], codes: ["aup.time.timesheetUnsupported", "aup.activation.noInterval"] });
  });
});
