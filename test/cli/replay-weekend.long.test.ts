// The hourly weekend replayed (issue 23, Done when): every hourly UK PIB of 14–16 June 2024 (74 files) published in
// order into one store by `replay`, with YAIXM airspace of 2024-09, and every check of replay-checks.ts on it
// (`make test-all`; the fast suite's replay.test.ts runs them on four of the PIBs). Without ../shared/data the same
// runs on three copies of the bundled 2026 briefing, and says so.
import { bundledCase, describeReplay, HAS_WEEKEND, weekendCase } from "./replay-checks.js";

describeReplay(
  HAS_WEEKEND
    ? weekendCase("all", {
        minPairs: 500,
        minRebuilt: 51,
        history: { entries: 3, days: 3 },
        afternoon: true,
        parseOpenAir: true,
      })
    : bundledCase(true),
);
