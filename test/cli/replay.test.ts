// `replay` and the record it leaves (issue 23), checked on a slice of the hourly UK weekend: four PIBs over three
// days, one of them after 15:00 UTC (tomorrow published beside today). Every check is in replay-checks.ts;
// replay-weekend.long.test.ts runs them on all 74 PIBs (`make test-all`). Without ../shared/data the same runs on
// three copies of the bundled 2026 briefing, and says so.
import { bundledCase, describeReplay, HAS_WEEKEND, weekendCase } from "./replay-checks.js";

describeReplay(
  HAS_WEEKEND
    ? weekendCase(["2024-06-14T1403Z", "2024-06-14T1503Z", "2024-06-15T1003Z", "2024-06-16T1003Z"], {
        minPairs: 0,
        minRebuilt: 1,
        history: { entries: 1, days: 2 },
        afternoon: true,
        parseOpenAir: false,
      })
    : bundledCase(false),
);
