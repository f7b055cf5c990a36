import { type Static, Type } from "typebox";
import { Controller } from "./policies.js";
import { AgentUsage, RunUsage } from "./usage.js";

export const AgentScore = Type.Object(
  {
    agent_id: Type.String(),
    controller: Controller,
    commands: Type.Integer({
      description: "wakes it answered itself (actions, sleeps, noops; expired deadlines excluded)",
    }),
    actions: Type.Integer({ description: "of those, actions" }),
    refusals: Type.Integer({ description: "actions the world refused" }),
    messages: Type.Integer({ description: "messages it sent" }),
    credits: Type.Integer({
      description:
        "objective progress it caused plus the scenario's credited steps (a plank picked up, a code told)",
    }),
    contribution: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "credits / every agent's credits; 0 when nobody has any",
    }),
    usage: Type.Optional(AgentUsage),
  },
  {
    title: "AgentScore",
    additionalProperties: false,
    description:
      "how one agent did, from the events of its run; `usage` only for an agent whose commands reported usage",
  },
);
export type AgentScore = Static<typeof AgentScore>;

export const RunScores = Type.Object(
  {
    completed: Type.Boolean({ description: "every objective met" }),
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "1 for a completed run; otherwise partial credit: the team's credits over the scenario's steps (the credits its solution team earns), at most 0.99",
    }),
    objectives_met: Type.Integer(),
    objectives_total: Type.Integer(),
    sim_time_ms: Type.Integer(),
    solution_sim_time_ms: Type.Union([Type.Integer(), Type.Null()], {
      description: "the solution team's sim time on the same seed, once the run has ended; null before",
    }),
    time_ratio: Type.Union([Type.Number(), Type.Null()], {
      description:
        "sim_time_ms / solution_sim_time_ms for a completed run (1 is the solution's pace); null otherwise",
    }),
    agents: Type.Array(AgentScore),
    usage: Type.Optional(RunUsage),
  },
  {
    title: "RunScores",
    additionalProperties: false,
    description: "a run's scores beyond pass/fail; `usage` only when some agent reported usage",
  },
);
export type RunScores = Static<typeof RunScores>;
