import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Soak tests (`*soak.test.ts`, minutes of real time, mostly waiting) start first, on a worker of their own. */
class SoakFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const soak = (f: TestSpecification) => f.moduleId.endsWith("soak.test.ts");
    return [...sorted.filter(soak), ...sorted.filter((f) => !soak(f))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // one worker for the suite, one for the soak test that runs beside it (test/cli/watch-soak.test.ts)
    maxWorkers: 2,
    sequence: { sequencer: SoakFirst },
  },
});
