import { type Static, Type } from "typebox";
import { MAX_USAGE_COST, MAX_USAGE_TOKENS } from "./limits.js";

/**
 * What an agent spent thinking: reported on a command, summed per agent and for the team in a
 * run's scores. Metadata about the agent, not a move in the world: outside the log hash.
 */

const nullableNumber = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description });

export const Usage = Type.Object(
  {
    input_tokens: Type.Integer({
      minimum: 0,
      maximum: MAX_USAGE_TOKENS,
      description: "tokens the agent's model read (prompt, cached ones included)",
    }),
    output_tokens: Type.Integer({
      minimum: 0,
      maximum: MAX_USAGE_TOKENS,
      description: "tokens the agent's model wrote",
    }),
    cost: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_USAGE_COST,
        description: "what those tokens cost, in the client's unit (dollars, say)",
      }),
    ),
  },
  {
    title: "Usage",
    additionalProperties: false,
    description:
      "optional on a command: what the agent spent since its last accepted command, refused tries included. Counted once, with the command accepted (a duplicate adds nothing, a command not accepted adds nothing: carry its usage to the next); outside the log hash. A malformed one is 422 unprocessable_command, one past a limit 422 limit_exceeded",
  },
);
export type Usage = Static<typeof Usage>;

export const AgentUsage = Type.Object(
  {
    commands: Type.Integer({ minimum: 0, description: "accepted commands that reported usage" }),
    input_tokens: Type.Integer({ minimum: 0 }),
    output_tokens: Type.Integer({ minimum: 0 }),
    cost: nullableNumber("the costs reported, summed; null when none of its commands reported a cost"),
  },
  {
    title: "AgentUsage",
    additionalProperties: false,
    description: "what one agent's accepted commands reported spending, summed",
  },
);
export type AgentUsage = Static<typeof AgentUsage>;

export const RunUsage = Type.Object(
  {
    input_tokens: Type.Integer({ minimum: 0 }),
    output_tokens: Type.Integer({ minimum: 0 }),
    cost: nullableNumber("the agents' costs summed; null when none reported a cost"),
    score_per_1k_tokens: nullableNumber("score × 1000 / (input_tokens + output_tokens); null with no tokens"),
    score_per_cost: nullableNumber("score / cost; null with no cost or a cost of 0"),
  },
  {
    title: "RunUsage",
    additionalProperties: false,
    description: "the agents' usage summed, and the run's score against it",
  },
);
export type RunUsage = Static<typeof RunUsage>;
