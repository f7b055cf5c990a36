/**
 * A process of a RunPool: plays the runs its parent sends, one at a time, and sends back each
 * record. It exits when its parent goes away, so killing a sweep or a worker leaves no orphans.
 */
import { executeRun } from "./execute-run.js";
import type { PoolReply, PoolRequest } from "./run-pool.js";

const send = (reply: PoolReply): void => {
  process.send!(reply);
};

process.on("message", (request: PoolRequest) => {
  executeRun(request.spec).then(
    (record) => send({ key: request.spec.key, record }),
    (error: unknown) =>
      send({ key: request.spec.key, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on("disconnect", () => process.exit(0));
// Ctrl-C reaches the whole process group: the parent decides when runs stop, not the terminal.
process.on("SIGINT", () => {});
