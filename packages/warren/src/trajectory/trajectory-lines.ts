import type {
  AffordanceMode,
  Envelope,
  EventOf,
  NpcPolicies,
  Resolution,
  RunSummary,
} from "../engine/index.js";
import {
  PROTOCOL_VERSION,
  TRAJECTORY_FORMAT,
  type TrajectoryHeader,
  type TrajectoryStep,
} from "../protocol/index.js";

/** A remote agent's command that was not accepted, as its verdict event says it. */
export type StepVerdict = TrajectoryStep["verdicts"][number];

/** The run a trajectory is of: what a replay needs to play it again, and who played it. */
export interface TrajectoryRun {
  scenario: string;
  seed: number;
  trial: number;
  affordances: AffordanceMode;
  npc_policy: NpcPolicies;
  controlled_agents: string[];
  warren_version: string;
  briefing_revision: number;
  sweep?: TrajectoryHeader["sweep"];
  agents: TrajectoryHeader["agents"];
}

/**
 * One decision's line: what the agent saw when it woke (its envelope), what it decided and how
 * that resolved (the decision's event), the commands refused before it, and the run's scores and
 * log hash once it resolved.
 */
export function stepLine(
  seen: Envelope,
  decision: EventOf<"decision">,
  resolution: Resolution,
  verdicts: StepVerdict[],
  now: Pick<RunSummary, "scores" | "log_hash">,
): TrajectoryStep {
  // The refusal's sentence is the outcome's reason; when the agent wakes again, its next step.
  const {
    agent,
    observation_id,
    expired,
    refused: _refused,
    wakes_at_ms: _wakes,
    ...command
  } = decision.data;
  return {
    type: "step",
    agent,
    step: seen.seq,
    observation_id,
    sim_time_ms: decision.sim_time_ms,
    reason: seen.reason,
    observation: { text: seen.text, structured: seen.observation, affordances: seen.affordances },
    command,
    expired: expired === true,
    receipt: decision.receipt ?? null,
    verdicts,
    outcome: { status: resolution.outcome, reason: resolution.reason },
    scores: now.scores,
    log_hash: now.log_hash,
    event_cursor: decision.cursor,
  };
}

/** Line 1: the run, its agents, and how it ended. */
export function headerLine(
  run: TrajectoryRun,
  ended: RunSummary,
  counts: { sim_events: number; steps: number },
): TrajectoryHeader {
  const { sweep, agents, ...identity } = run;
  return {
    type: "header",
    format: TRAJECTORY_FORMAT,
    ...identity,
    protocol: PROTOCOL_VERSION,
    ...(sweep ? { sweep } : {}),
    agents,
    result: {
      status: ended.status,
      status_reason: ended.status_reason,
      objectives: ended.objectives,
      sim_time_ms: ended.sim_time_ms,
      log_hash: ended.log_hash,
      scores: ended.scores,
      ...counts,
    },
  };
}
