import { type Static, Type } from "typebox";
import { LANES } from "../engine/types.js";

export const ArgumentSchema = Type.Object(
  {
    type: Type.Enum(["string", "integer", "number", "boolean"]),
    description: Type.Optional(Type.String()),
    enum: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]))),
    pattern: Type.Optional(Type.String()),
    minLength: Type.Optional(Type.Integer()),
    maxLength: Type.Optional(Type.Integer()),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
  },
  {
    title: "ArgumentSchema",
    additionalProperties: false,
    description: "the JSON Schema (draft 2020-12 subset) of one argument: a scalar and its keywords",
  },
);

export const ToolInputSchema = Type.Object(
  {
    type: Type.Literal("object"),
    properties: Type.Record(Type.String(), ArgumentSchema, { description: "each argument's JSON Schema" }),
    required: Type.Optional(Type.Array(Type.String(), { description: "the arguments that must be given" })),
    additionalProperties: Type.Optional(Type.Boolean()),
  },
  {
    title: "ToolInputSchema",
    description:
      "the JSON Schema (draft 2020-12 subset) of an action's args: always an object of named arguments",
  },
);

export const Lane = Type.Enum(LANES, {
  title: "Lane",
  description: "one durative action per lane at a time: body (walking, carrying, tools), voice (messages)",
});

export const ToolSpec = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    lane: Lane,
    durative: Type.Boolean(),
    input_schema: ToolInputSchema,
  },
  { title: "ToolSpec", additionalProperties: false, description: "a tool of the briefing's catalogue" },
);
export type ToolSpec = Static<typeof ToolSpec>;

export const ObjectiveStatus = Type.Enum(["pending", "completed", "failed"], { title: "ObjectiveStatus" });

export const ObjectiveView = Type.Object(
  {
    id: Type.String(),
    description: Type.String(),
    status: ObjectiveStatus,
    deadline_ms: Type.Union([Type.Integer(), Type.Null()], { description: "sim ms, or null for none" }),
    progress: Type.Object(
      { current: Type.Integer(), target: Type.Integer() },
      { additionalProperties: false },
    ),
  },
  { title: "Objective", additionalProperties: false },
);
export type ObjectiveView = Static<typeof ObjectiveView>;

export const Budgets = Type.Object(
  { max_sight: Type.Integer(), max_messages: Type.Integer(), max_inventory: Type.Integer() },
  { title: "Budgets", additionalProperties: false },
);

export const Briefing = Type.Object(
  {
    briefing_id: Type.String(),
    revision: Type.Integer({ minimum: 1 }),
    content_hash: Type.String({ description: "sha256:<hex>; also the ETag" }),
    agent_id: Type.String(),
    role: Type.String(),
    name: Type.String(),
    scenario: Type.String(),
    premise: Type.String(),
    objectives: Type.Array(ObjectiveView),
    tool_catalog: Type.Array(ToolSpec),
    conventions: Type.Object(
      {
        grid_naming: Type.String(),
        sight_radius: Type.Integer(),
        budgets: Budgets,
        decision: Type.String(),
      },
      { additionalProperties: false },
    ),
    notes: Type.String(),
  },
  {
    title: "Briefing",
    additionalProperties: false,
    description: "what an agent needs once: cache it by revision",
  },
);
export type Briefing = Static<typeof Briefing>;
