import { type Static, Type } from "typebox";
import { MAX_SLEEP_MS } from "../engine/command-payload.js";
import { Briefing, ObjectiveView } from "./briefing.js";
import { Receipt } from "./commands.js";
import { Affordance, Observation, ToolArgs, WakeReason } from "./observation.js";
import { AffordanceMode, Controller, NpcPolicies } from "./policies.js";
import { RunStatus } from "./runs.js";
import { RunScores } from "./scores.js";

/**
 * A trajectory file (`warren run --trajectory`, `warren sweep --trajectories`): JSON lines, the
 * first a header holding the run's final result, then one step per decision. docs/trajectories.md
 * describes every field; docs/trajectory.schema.json is TrajectoryLine as a file, for readers
 * without warren.
 */
export const TRAJECTORY_FORMAT = "warren-trajectory/1";

const closed = { additionalProperties: false } as const;
/** Lines may gain fields within a format: readers ignore those they do not know. */
const open = { additionalProperties: true } as const;

export const TrajectoryResult = Type.Object(
  {
    status: RunStatus,
    status_reason: Type.String(),
    objectives: Type.Array(ObjectiveView),
    sim_time_ms: Type.Integer(),
    log_hash: Type.String({
      description: "sha256 of the simulation's event log: the run's fingerprint, what a replay must reach",
    }),
    scores: RunScores,
    sim_events: Type.Integer({ minimum: 0, description: "simulation events the log hash covers" }),
    steps: Type.Integer({ minimum: 0, description: "step lines after the header" }),
  },
  { ...closed, title: "TrajectoryResult", description: "how the run ended" },
);

export const TrajectoryAgent = Type.Object(
  {
    agent_id: Type.String(),
    name: Type.String(),
    role: Type.String(),
    controller: Controller,
    briefing: Briefing,
  },
  { ...closed, title: "TrajectoryAgent", description: "an agent, who played it, and its briefing" },
);

export const TrajectoryHeader = Type.Object(
  {
    type: Type.Literal("header"),
    format: Type.Literal(TRAJECTORY_FORMAT),
    scenario: Type.String(),
    seed: Type.Integer({ minimum: 0, maximum: 4294967295 }),
    trial: Type.Integer({ minimum: 0, maximum: 4294967295 }),
    affordances: AffordanceMode,
    npc_policy: NpcPolicies,
    controlled_agents: Type.Array(Type.String(), { description: "the agents remote clients played" }),
    warren_version: Type.String({ description: "the warren-sim package that played the run" }),
    protocol: Type.String({ description: "the remote protocol's version, warren-agent/0" }),
    briefing_revision: Type.Integer({ minimum: 1, description: "the briefings' revision" }),
    sweep: Type.Optional(
      Type.Object(
        { key: Type.String(), mix: Type.String() },
        { ...closed, description: "for a sweep's run: its record's key and its mix" },
      ),
    ),
    agents: Type.Array(TrajectoryAgent),
    result: TrajectoryResult,
  },
  { ...open, title: "TrajectoryHeader", description: "line 1: the run, its agents and how it ended" },
);
export type TrajectoryHeader = Static<typeof TrajectoryHeader>;

export const TrajectoryCommand = Type.Union(
  [
    Type.Object({ action: Type.String(), args: ToolArgs }, closed),
    Type.Object({ sleep_ms: Type.Integer({ minimum: 1, maximum: MAX_SLEEP_MS }) }, closed),
    Type.Object({ noop: Type.Literal(true) }, closed),
  ],
  {
    title: "TrajectoryCommand",
    description: "what the agent decided: an action with its args, a sleep or a noop",
  },
);
export type TrajectoryCommand = Static<typeof TrajectoryCommand>;

export const TrajectoryStep = Type.Object(
  {
    type: Type.Literal("step"),
    agent: Type.String(),
    step: Type.Integer({
      minimum: 0,
      description: "the agent's decisions count from 0 without gaps (its observation's seq)",
    }),
    observation_id: Type.String({ description: "<agent>#<step>" }),
    sim_time_ms: Type.Integer({ description: "when the agent woke and its decision resolved" }),
    reason: WakeReason,
    observation: Type.Object(
      {
        text: Type.String({ description: "the observation rendered for a language model" }),
        structured: Observation,
        affordances: Type.Array(Affordance),
      },
      { ...closed, description: "what the agent saw, as a remote agent's envelope gives it" },
    ),
    command: TrajectoryCommand,
    expired: Type.Boolean({ description: "the deadline passed: the engine recorded this noop itself" }),
    receipt: Type.Union([Receipt, Type.Null()], {
      description: "a remote agent's accepted command's receipt, outcome settled; null otherwise",
    }),
    verdicts: Type.Array(
      Type.Object(
        {
          command_id: Type.String(),
          observation_id: Type.String(),
          status: Type.Enum(["duplicate", "rejected", "stale", "expired"]),
          detail: Type.String(),
        },
        closed,
      ),
      { description: "a remote agent's commands not accepted since its previous step, one per status" },
    ),
    outcome: Type.Object(
      {
        status: Type.Enum(["accepted", "rejected"]),
        reason: Type.String({ description: "why the world refused it, or why it was moot" }),
      },
      { ...closed, description: "how the engine adjudicated the command" },
    ),
    scores: RunScores,
    log_hash: Type.String({ description: "the log hash with this decision in it" }),
    event_cursor: Type.Integer({ minimum: 1, description: "the decision's event in the run's log" }),
  },
  { ...open, title: "TrajectoryStep", description: "one decision of one agent, in the order they resolved" },
);
export type TrajectoryStep = Static<typeof TrajectoryStep>;

export const TrajectoryLine = Type.Union([TrajectoryHeader, TrajectoryStep], {
  title: "TrajectoryLine",
  description: `one line of a ${TRAJECTORY_FORMAT} file: the first is the header, every other a step`,
});
export type TrajectoryLine = Static<typeof TrajectoryLine>;

/** TrajectoryLine as a JSON Schema document of its own: docs/trajectory.schema.json holds it. */
export function trajectorySchemaDocument(): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $comment:
      "Each line of a warren-trajectory/1 file is one TrajectoryLine. Written from warren's src/protocol/trajectory.ts by scripts/write-trajectory-schema.ts.",
    ...(JSON.parse(JSON.stringify(TrajectoryLine)) as Record<string, unknown>),
  };
}
