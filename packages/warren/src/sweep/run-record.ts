import type { ObjectiveView, RunEvent, RunScores, RunStatus, RunSummary } from "../engine/index.js";
import type { RunSpec } from "./sweep-plan.js";

/**
 * One line of a sweep's runs.jsonl: a finished run. New measures (scores, say) are added as new
 * fields; readers ignore fields they do not know.
 */
export interface RunRecord {
  key: string;
  scenario: string;
  seed: number;
  /** Which play of this (scenario, mix, seed) it is, from 0; records written before trials have none (0). */
  trial?: number;
  mix: string;
  status: RunStatus;
  status_reason: string;
  /** Every objective met. */
  success: boolean;
  sim_time_ms: number;
  /** Decisions taken (actions, sleeps, noops), not counting expired deadlines. */
  commands: number;
  /** Actions the engine refused. */
  refusals: number;
  /** Observations whose decision deadline ran out. */
  expired: number;
  wall_time_ms: number;
  log_hash: string;
  objectives: ObjectiveView[];
  /** The run's scores, as `warren run --json` gives them: time against the solution, each agent's part. */
  scores: RunScores;
  /** Remote mixes: how the client command ended; `stderr` is its last output when it failed. */
  client?: { exit_code: number | null; signal: string | null; stderr?: string };
}

/** The record of an ended run from its summary and its event log. */
export function recordOf(
  spec: RunSpec,
  summary: RunSummary,
  events: readonly RunEvent[],
  wallMs: number,
): RunRecord {
  const expired = events.filter((e) => e.sim && e.kind === "decision" && e.data.expired === true).length;
  const total = (field: "commands" | "refusals"): number =>
    summary.scores.agents.reduce((sum, agent) => sum + agent[field], 0);
  return {
    key: spec.key,
    scenario: spec.scenario,
    seed: spec.seed,
    trial: spec.trial,
    mix: spec.mix.name,
    status: summary.status,
    status_reason: summary.status_reason,
    success: summary.status === "completed",
    sim_time_ms: summary.sim_time_ms,
    commands: total("commands"),
    refusals: total("refusals"),
    expired,
    wall_time_ms: Math.round(wallMs),
    log_hash: summary.log_hash,
    objectives: summary.objectives,
    scores: summary.scores,
  };
}

/** Checks a parsed line's shape enough to trust it when resuming; "" when it is a record. */
export function recordProblem(value: unknown): string {
  if (value === null || typeof value !== "object") return "not a JSON object";
  const r = value as Record<string, unknown>;
  for (const field of ["key", "scenario", "mix", "status", "log_hash"]) {
    if (typeof r[field] !== "string") return `${field} must be a string`;
  }
  for (const field of ["seed", "sim_time_ms", "commands", "refusals", "wall_time_ms"]) {
    if (typeof r[field] !== "number") return `${field} must be a number`;
  }
  if (typeof r.success !== "boolean") return "success must be a boolean";
  if (r.trial !== undefined && !(Number.isInteger(r.trial) && (r.trial as number) >= 0)) {
    return "trial must be an integer of at least 0";
  }
  const scores = r.scores as { agents?: unknown } | null | undefined;
  if (typeof scores !== "object" || scores === null || !Array.isArray(scores.agents)) {
    return "scores must be an object with agents (a record from an older warren: sweep into a new folder)";
  }
  return "";
}
