import type { Clock } from "../engine/index.js";
import type { HostedRun } from "./hosted-run.js";

/**
 * Ends a run still `created` (some controlled agent never claimed) `claimWithinMs` after its
 * creation, as abandoned: a run nobody plays cannot hold one of the server's live slots for good.
 */
export function abandonIfUnclaimed(hosted: HostedRun, claimWithinMs: number, clock: Clock): void {
  if (hosted.run.status !== "created") return;
  const cancel = clock.setTimer(claimWithinMs, () => {
    if (hosted.run.status !== "created") return;
    hosted.run.halt(
      "abandoned",
      `no one claimed ${hosted.unclaimed().join(", ")} within ${claimWithinMs / 1000} s of the run's creation`,
    );
  });
  hosted.run.onEnd(cancel);
}
