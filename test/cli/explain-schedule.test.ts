import { describe, expect, it } from "vitest";
import { main } from "../../jobs/cli.js";
import { io } from "./io.js";

describe("explain-schedule", () => {
  it("explains one schedule given by flags", async () => {
    const t = io();
    const code = await main(
      ["explain-schedule", "--b", "2609010800", "--c", "2609302359", "--d", "MON-FRI 0800-1600", "--day", "2026-09-14"],
      t.io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(t.out())).toEqual({
      status: "exact",
      parserVersion: expect.any(String),
      intervals: [["2026-09-14T08:00:00Z", "2026-09-14T16:00:00Z"]],
      issues: [],
    });
  });

  it("reads the ICAO example of 1991 in 1991 and its last day after AND; says so when the day is outside [B, C]", async () => {
    const d = "APR 03 07 12 21 24 AND 28 0730 TO 1500";
    const ask = async (day: string) => {
      const t = io();
      expect(
        await main(["explain-schedule", "--b", "9104030730", "--c", "9104281500", "--d", d, "--day", day], t.io),
      ).toBe(0);
      return JSON.parse(t.out());
    };
    const last = await ask("1991-04-28");
    expect(last).toMatchObject({ status: "exact", intervals: [["1991-04-28T07:30:00Z", "1991-04-28T15:00:00Z"]] });
    expect(last.note).toBeUndefined();
    const outside = await ask("2091-04-28");
    expect(outside.intervals).toEqual([]);
    expect(outside.note).toBe(
      "the day is outside [B, C] (1991-04-03T07:30:00Z to 1991-04-28T15:00:00Z): the NOTAM is not in force on it",
    );
  });

  it("uses the position for SR/SS, and shows the parsed schedule on request", async () => {
    const t = io();
    const argv = ["explain-schedule", "--b", "2609010800", "--c", "2609302359", "--d", "SR MINUS30-SS PLUS30"];
    await main([...argv, "--day", "2026-09-14", "--lat", "50.03", "--lon", "8.57", "--schedule"], t.io);
    const out = JSON.parse(t.out());
    expect(out.status).toBe("exact");
    expect(out.intervals).toEqual([["2026-09-14T04:30:00Z", "2026-09-14T18:12:00Z"]]);
    expect(out.schedule).toEqual({ groups: [{ days: "every", times: [["SR-30", "SS+30"]] }] });
  });

  it("answers one line per input line with --jsonl, an error object for each bad line, and never aborts", async () => {
    const lines = [
      { itemB: "2609010800", itemC: "2609302359", itemD: "MON-FRI 0800-1600", day: "2026-09-13" },
      "not json",
      { itemB: "2609010800", itemC: "2609302359", itemD: "0800-1600" },
      ["an", "array"],
      { itemB: "2609010800", itemC: "PERM", itemD: "SEE AIP SUP 12/26", day: "2026-09-14" },
      { itemB: "2609010800", itemC: "2609302359", itemD: "SR-SS", day: "2026-09-14", lat: 95, lon: 8 },
      { itemB: "2609011800", itemC: "2609010800", itemD: "H24", day: "2026-09-14" },
      // a schedule without sun times needs no position: null is as good as absent
      { itemB: "2609010800", itemC: "2609302359", itemD: "MON-FRI 0800-1600", day: "2026-09-14", lat: null, lon: null },
      { itemB: "2609010800", itemC: "2609302359", itemD: "SR-SS", day: "2026-09-14", lat: null, lon: null },
      { itemB: "2609010800", itemC: "2609302359", itemD: "H24", day: "2026-09-14", lat: 50, lon: null },
    ];
    const t = io(`${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n\n`);
    expect(await main(["explain-schedule", "--jsonl"], t.io)).toBe(0);
    const out = t
      .out()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(10);
    expect(out[0]).toMatchObject({ status: "exact", intervals: [] });
    expect(out[1].error).toMatch(/^not JSON/);
    expect(out[2]).toEqual({ error: "day must be a string" });
    expect(out[3]).toEqual({ error: "not a JSON object" });
    expect(out[4]).toMatchObject({
      status: "unsupported",
      intervals: [["2026-09-14T00:00:00Z", "2026-09-15T00:00:00Z"]],
    });
    expect(out[4].issues[0]).toEqual({ code: "schedule.unsupported.SEE", at: 0, text: "SEE" });
    expect(out[5].error).toMatch(/lat and lon/);
    expect(out[6].error).toMatch(/Item C "2609010800" is not after Item B/);
    expect(out[7]).toMatchObject({ status: "exact", intervals: [["2026-09-14T08:00:00Z", "2026-09-14T16:00:00Z"]] });
    expect(out[8]).toMatchObject({ status: "partial", issues: [{ code: "schedule.sun.noPosition" }] });
    expect(out[9].error).toMatch(/lat and lon must both be given/);
  });

  it("exits 2 with a one-line reason for missing or bad flags", async () => {
    const t = io();
    expect(await main(["explain-schedule", "--d", "H24"], t.io)).toBe(2);
    expect(t.err()).toMatch(/needs --b, --c, --day/);
    const u = io();
    expect(
      await main(["explain-schedule", "--b", "26", "--c", "2609302359", "--d", "H24", "--day", "2026-09-14"], u.io),
    ).toBe(2);
    expect(u.err()).toMatch(/Item B "26" is not YYMMDDhhmm/);
  });
});
