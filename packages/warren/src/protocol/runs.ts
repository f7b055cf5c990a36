import { type Static, Type } from "typebox";
import { ObjectiveView } from "./briefing.js";
import {
  DEFAULT_CLAIM_WITHIN_S,
  DEFAULT_DEADLINE_S,
  DEFAULT_MAX_WALL_S,
  MAX_CLAIM_WITHIN_S,
  MAX_DEADLINE_S,
  MAX_NAME_CHARS,
  MAX_NAMED_AGENTS,
  MAX_SIM_S,
  MAX_WALL_S,
} from "./limits.js";
import { AffordanceMode, Controller, NpcPolicies } from "./policies.js";
import { RunScores } from "./scores.js";

export const RunStatus = Type.Enum(
  [
    "created",
    "running",
    "completed",
    "failed",
    "crashed",
    "interrupted",
    "over_budget",
    "abandoned",
    "deleted",
  ],
  {
    title: "RunStatus",
    description:
      "created until every controlled agent has been claimed once; then running until it ends: completed or failed by its simulation; crashed (it failed unexpectedly), interrupted (the server stopped or was killed before the run ended; status_reason says when), over_budget (its kept events and commands passed the server's byte budget for a run), abandoned (no one claimed its agents within claim_within_s), deleted (DELETE /v1/runs/{run})",
  },
);
export type RunStatus = Static<typeof RunStatus>;

const TRIAL_MEANING =
  "which play of the same scenario, seed and agents this is, as a sweep's --trials counts them (0 the first): the world is the seed's whatever the trial, but the random baseline draws differently on each, and a remote agent may read it to vary its own play";

export const CreateRunRequest = Type.Object(
  {
    controlled_agents: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_NAME_CHARS }), {
        uniqueItems: true,
        maxItems: MAX_NAMED_AGENTS,
        default: [],
        description: "agents played remotely; the run starts once each has been claimed",
      }),
    ),
    npc_policy: Type.Optional(NpcPolicies),
    trial: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 4294967295,
        default: 0,
        description: TRIAL_MEANING,
      }),
    ),
    affordances: Type.Optional(AffordanceMode),
    pace: Type.Optional(
      // One schema with two types, so a wrong value gets one clear error rather than anyOf's three.
      Type.Unsafe<number | null>({
        type: ["number", "null"],
        exclusiveMinimum: 0,
        default: null,
        description: "null: as fast as answers come; a number: sim ms per wall ms",
      }),
    ),
    deadline_s: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_DEADLINE_S,
        default: DEFAULT_DEADLINE_S,
        description: "wall seconds an agent has to answer each observation",
      }),
    ),
    max_sim_s: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_SIM_S,
        description: "sim seconds after which the run fails (default and cap: the scenario's time limit)",
      }),
    ),
    max_wall_s: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_WALL_S,
        default: DEFAULT_MAX_WALL_S,
        description: "wall seconds after the start after which the run fails",
      }),
    ),
    claim_within_s: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_CLAIM_WITHIN_S,
        default: DEFAULT_CLAIM_WITHIN_S,
        description:
          "wall seconds the run waits, from its creation, for every controlled agent to be claimed; past it the run ends abandoned (default: the server's, 300 unless it was started with another)",
      }),
    ),
  },
  {
    title: "CreateRunRequest",
    additionalProperties: false,
    description: "optional: no body means every default; checked as sent, never coerced",
  },
);
export type CreateRunRequest = Static<typeof CreateRunRequest>;

export const AgentView = Type.Object(
  {
    agent_id: Type.String(),
    name: Type.String(),
    role: Type.String(),
    controller: Controller,
    leased: Type.Boolean(),
    holder: Type.Union([Type.String(), Type.Null()], {
      description: 'the label given at claim (holder=), "" if none; null when not leased',
    }),
    lease_expires_unix: Type.Union([Type.Number(), Type.Null()]),
  },
  { title: "AgentView", additionalProperties: false },
);
export type AgentView = Static<typeof AgentView>;

export const RunView = Type.Object(
  {
    run_id: Type.String(),
    scenario: Type.String(),
    seed: Type.Integer(),
    trial: Type.Integer({ description: TRIAL_MEANING }),
    status: RunStatus,
    status_reason: Type.String(),
    pace: Type.Union([Type.Number(), Type.Null()]),
    sim_time_ms: Type.Integer(),
    objectives: Type.Array(ObjectiveView),
    agents: Type.Array(AgentView),
    event_cursor: Type.Integer({ description: "the latest event; a spectator resumes with since=<cursor>" }),
    log_hash: Type.String({ description: "sha256 of the simulation's event log so far" }),
    npc_policy: NpcPolicies,
    affordances: AffordanceMode,
    controlled_agents: Type.Array(Type.String()),
    unclaimed_agents: Type.Array(Type.String(), {
      description: "controlled agents not yet claimed; a created run starts when this is empty",
    }),
    deadline_s: Type.Number(),
    max_sim_s: Type.Number({ description: "the sim time at which the run fails if still going" }),
    max_wall_s: Type.Number(),
    claim_within_s: Type.Number({
      description: "wall seconds from created_unix after which a run still created ends abandoned",
    }),
    created_unix: Type.Number(),
    scores: RunScores,
  },
  { title: "RunView", description: "a run: more fields may be added" },
);
export type RunView = Static<typeof RunView>;

export const RunList = Type.Object(
  { runs: Type.Array(RunView) },
  { title: "RunList", additionalProperties: false },
);
export type RunList = Static<typeof RunList>;

export const ScenarioInfo = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    premise: Type.String(),
    summary: Type.String(),
    agents: Type.Array(
      Type.Object(
        { agent_id: Type.String(), name: Type.String(), role: Type.String() },
        { additionalProperties: false },
      ),
    ),
    objectives: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          description: Type.String(),
          deadline_ms: Type.Union([Type.Integer(), Type.Null()]),
          target: Type.Integer(),
        },
        { additionalProperties: false },
      ),
    ),
    time_limit_ms: Type.Integer(),
  },
  { title: "ScenarioInfo", additionalProperties: false },
);
export type ScenarioInfo = Static<typeof ScenarioInfo>;

export const ScenarioList = Type.Object(
  { scenarios: Type.Array(ScenarioInfo) },
  { title: "ScenarioList", additionalProperties: false },
);
export type ScenarioList = Static<typeof ScenarioList>;

const viewed = RunView.properties;

export const RunResult = Type.Object(
  {
    scenario: viewed.scenario,
    seed: viewed.seed,
    status: viewed.status,
    status_reason: viewed.status_reason,
    objectives: viewed.objectives,
    sim_time_ms: viewed.sim_time_ms,
    wall_time_ms: Type.Integer({ description: "wall ms the run took" }),
    log_hash: viewed.log_hash,
    scores: viewed.scores,
  },
  {
    title: "RunResult",
    additionalProperties: false,
    description: "what `warren run --json` and `warren replay --json` print: a headless run's result",
  },
);
export type RunResult = Static<typeof RunResult>;
