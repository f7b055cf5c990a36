/**
 * The sweep benchmark's floor: a process that plays each list of runs it is sent, one after
 * another with nothing between them, and says when it is done. N of these, each given its share,
 * show what the machine itself gives N processes playing runs, with no pool and no sweep around them.
 */
import { executeRun } from "../src/sweep/execute-run.js";
import type { RunSpec } from "../src/sweep/sweep-plan.js";

process.on("message", async (specs: RunSpec[]) => {
  for (const spec of specs) await executeRun(spec);
  process.send!("done");
});
process.on("disconnect", () => process.exit(0));
