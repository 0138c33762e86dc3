// Crash safety (docs/design.md §5) at length (`make test-all`): fifty kills of a local publish; on s3rver and on Swift
// a faulty network, six kills of a publish holding the store's publisher lease each followed at once by a publish
// that succeeds, a lease left by another host, three races; five local races.
import { crashHooks, describeKillLoop, describeLocalRace, describeS3Crash } from "./crash-harness.js";

crashHooks();
describeKillLoop(50);
describeS3Crash(["s3rver", "swift"], { faults: true, leaseKills: 6, raceRounds: 3 });
describeLocalRace(5);
