/**
 * A process of a RunPool: plays the runs its parent sends, one at a time in the order sent, and
 * sends back the results of each request once its runs are played. It exits when its parent goes
 * away, so killing a sweep or a worker leaves no orphans.
 */
import { executeRun } from "./execute-run.js";
import type { PoolReply, PoolRequest, PoolResult } from "./run-pool.js";

const requests: PoolRequest[] = [];
let playing = false;

async function playRequests(): Promise<void> {
  playing = true;
  for (let request = requests.shift(); request; request = requests.shift()) {
    const started = performance.now();
    const results: PoolResult[] = [];
    for (const spec of request.runs) {
      try {
        results.push({ key: spec.key, record: await executeRun(spec) });
      } catch (error) {
        results.push({ key: spec.key, error: error instanceof Error ? error.message : String(error) });
      }
    }
    process.send!({ results, busy_ms: performance.now() - started } satisfies PoolReply);
  }
  playing = false;
}

process.on("message", (request: PoolRequest) => {
  requests.push(request);
  if (!playing) void playRequests();
});
process.on("disconnect", () => process.exit(0));
// Ctrl-C reaches the whole process group: the parent decides when runs stop, not the terminal.
process.on("SIGINT", () => {});
