import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Two suites (README "Tests"): `make test` runs every `*.test.ts` but the long ones, in minutes; `make test-all`
 * (TEST_SUITE=all, what CI runs) adds the `*.long.test.ts`: the ten-minute soak, the whole weekend's replay, the crash
 * loops.
 */
const ALL = process.env.TEST_SUITE === "all";

/** Soak tests (`*soak*.test.ts`, minutes of real time, mostly waiting) start first, on a worker of their own. */
class SoakFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const soak = (f: TestSpecification) => /soak[^/]*\.test\.ts$/.test(f.moduleId);
    return [...sorted.filter(soak), ...sorted.filter((f) => !soak(f))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ALL ? [] : ["test/**/*.long.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A worker runs its files one after another in one module graph, modules loaded and compiled once: a third of
    // the suite's CPU went into loading them again for every file. Tests restore what they change of the process
    // (environment, handlers) and share no module state that another file could see.
    isolate: false,
    // Many tests wait on child processes and servers: three workers keep two cores busy. The whole suite adds one
    // that waits out the soak (test/cli/watch-soak.long.test.ts).
    maxWorkers: ALL ? 4 : 3,
    sequence: { sequencer: SoakFirst },
  },
});
