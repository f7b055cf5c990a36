import type { AffordanceMode, NpcPolicies, RunEvent, RunStatus } from "../engine/index.js";

/** The file `warren run --log` writes and `warren replay` reads. */
export const RUN_LOG_FORMAT = "warren-log/1";

export interface RunLogFile {
  format: typeof RUN_LOG_FORMAT;
  scenario: string;
  seed: number;
  /** The trial played (`--trial`), when not the first; a replay needs none: the draws are in the decisions. */
  trial?: number;
  controlled_agents: string[];
  npc_policy: NpcPolicies;
  /** Refusals read differently in each mode, so a replay needs it (absent in older logs: "ready"). */
  affordances?: AffordanceMode;
  status: RunStatus;
  status_reason: string;
  sim_time_ms: number;
  log_hash: string;
  /** The simulation's events; the "decision" ones are what a replay feeds back. */
  events: RunEvent[];
}

/** Checks a parsed log file's shape; returns a sentence saying what is wrong, or "". */
export function runLogProblem(value: unknown): string {
  if (value === null || typeof value !== "object") return "the file is not a JSON object";
  const log = value as Record<string, unknown>;
  if (log.format !== RUN_LOG_FORMAT)
    return `format must be "${RUN_LOG_FORMAT}" (got ${JSON.stringify(log.format)})`;
  if (typeof log.scenario !== "string") return "scenario must be a string";
  if (typeof log.seed !== "number") return "seed must be a number";
  if (typeof log.log_hash !== "string") return "log_hash must be a string";
  if (typeof log.status !== "string") return "status must be a string";
  if (!Array.isArray(log.events)) return "events must be an array";
  // The run takes the mode as given: a file's is checked here, as a request's is by its schema.
  if (log.affordances !== undefined && log.affordances !== "ready" && log.affordances !== "all")
    return `affordances must be "ready" or "all" (got ${JSON.stringify(log.affordances)})`;
  return "";
}
