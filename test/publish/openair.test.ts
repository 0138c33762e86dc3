// OpenAir for instruments (issue 23 §3) on the real UK publication of `make run`: every check of openair-checks.ts,
// openAIP's reader given every fourth block (the whole file: openair.long.test.ts, `make test-all`).
import { describeOpenAir } from "./openair-checks.js";

describeOpenAir(4);
