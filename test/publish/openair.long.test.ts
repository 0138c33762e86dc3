// OpenAir for instruments (issue 23 §3) on the real UK publication of `make run`: every check of openair-checks.ts,
// openAIP's reader given the whole file (~25 s of CPU; the fast suite's openair.test.ts gives it every fourth block).
import { describeOpenAir } from "./openair-checks.js";

describeOpenAir(1);
