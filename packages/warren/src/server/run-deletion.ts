import type { RunView } from "../protocol/index.js";
import type { RunRegistry } from "./run-registry.js";

/**
 * DELETE /v1/runs/{run}: a run still going ends at once as `deleted` (its long polls and
 * spectators see it end, its live slot is free), and an ended run is let go to its summary, its
 * events and commands freed. Deleting again answers the same summary; an unknown run is a 404.
 */
export function deleteRun(registry: RunRegistry, runId: string): RunView {
  const view = registry.view(runId);
  if (view.status === "created" || view.status === "running") {
    registry.get(runId).run.halt("deleted", `deleted by DELETE /v1/runs/${runId}`);
  }
  registry.ended.letGo(runId);
  return registry.view(runId);
}
