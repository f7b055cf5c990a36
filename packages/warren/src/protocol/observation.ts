import { type Static, Type } from "typebox";
import { Lane, ObjectiveView } from "./briefing.js";

const closed = { additionalProperties: false } as const;

export const WakeReason = Type.Enum(
  ["start", "arrived", "done", "failed", "refused", "message", "timer", "idle"],
  {
    title: "WakeReason",
    description: "why the agent woke",
  },
);
export type WakeReason = Static<typeof WakeReason>;

export const ArgValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()], {
  title: "ArgValue",
  description: "one argument's value: a scalar, as its ArgumentSchema says",
});

export const ToolArgs = Type.Record(Type.String(), ArgValue, {
  title: "ToolArgs",
  description: "an action's args by name, valid for its tool's input_schema",
});

export const FeatureValue = Type.Union(
  [Type.String(), Type.Number(), Type.Boolean(), Type.Record(Type.String(), Type.String())],
  {
    title: "FeatureValue",
    description: "a place's fact: a word or a number, or a small table of named texts (a rota, a ledger)",
  },
);

const BusyLane = Type.Object(
  {
    lane: Lane,
    action: Type.String(),
    args: ToolArgs,
    since_ms: Type.Integer(),
    until_ms: Type.Integer(),
  },
  closed,
);

const SeenItem = Type.Object(
  { id: Type.String(), name: Type.String(), kind: Type.String(), cell: Type.String() },
  closed,
);

const SeenAgent = Type.Object(
  { id: Type.String(), name: Type.String(), role: Type.String(), cell: Type.String() },
  closed,
);

export const Observation = Type.Object(
  {
    agent: Type.String(),
    time: Type.Integer({ description: "sim ms" }),
    reason: WakeReason,
    busy: Type.Array(BusyLane),
    you: Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        role: Type.String(),
        cell: Type.String(),
        place: Type.Union([Type.String(), Type.Null()]),
        inventory: Type.Array(SeenItem),
        budgets_left: Type.Object({ messages: Type.Integer(), inventory: Type.Integer() }, closed),
      },
      closed,
    ),
    place: Type.Object(
      {
        id: Type.Union([Type.String(), Type.Null()]),
        name: Type.String(),
        cell: Type.String(),
        description: Type.String(),
        items: Type.Array(SeenItem),
        agents: Type.Array(SeenAgent),
        features: Type.Record(Type.String(), FeatureValue, {
          description: "scenario facts about this place, by name (a plate, a span, a rota)",
        }),
      },
      closed,
    ),
    nearby: Type.Object(
      {
        agents: Type.Array(SeenAgent),
        items: Type.Array(SeenItem),
        places: Type.Array(
          Type.Object({ id: Type.String(), name: Type.String(), cell: Type.String() }, closed),
        ),
      },
      closed,
    ),
    messages: Type.Array(
      Type.Object(
        { from: Type.String(), from_name: Type.String(), text: Type.String(), sent_ms: Type.Integer() },
        closed,
      ),
    ),
    outcomes: Type.Array(
      Type.Object(
        {
          observation_id: Type.String(),
          action: Type.String(),
          result: Type.Enum(["done", "failed", "refused"]),
          reason: Type.String(),
        },
        closed,
      ),
      { description: "what became of the agent's own actions since its previous observation" },
    ),
    objectives: Type.Array(ObjectiveView),
    tools: Type.Array(
      Type.Object(
        {
          action: Type.String(),
          lane: Lane,
          durative: Type.Boolean(),
          ready: Type.Boolean(),
          why_not: Type.String(),
        },
        closed,
      ),
    ),
  },
  {
    title: "Observation",
    additionalProperties: false,
    description: "the structured observation: the wire truth",
  },
);
export type Observation = Static<typeof Observation>;

export const Affordance = Type.Object(
  {
    action: Type.String(),
    params: Type.Record(
      Type.String(),
      Type.Object(
        { choices: Type.Array(Type.Union([Type.String(), Type.Number()]), { minItems: 1 }) },
        closed,
      ),
      {
        description:
          "per parameter, its valid values right now; a tool with none for a parameter is not offered",
      },
    ),
    suggestions: Type.Array(ToolArgs, {
      description: "ready-made args, each valid for the tool now",
    }),
  },
  {
    title: "Affordance",
    additionalProperties: false,
    description: "an action the agent may take now; bundled clients send no action outside these",
  },
);
export type Affordance = Static<typeof Affordance>;

export const Envelope = Type.Object(
  {
    run_id: Type.String(),
    agent_id: Type.String(),
    observation_id: Type.String({ description: "<agent>#<seq>; answer it with one command" }),
    seq: Type.Integer({ minimum: 0 }),
    sim_time_ms: Type.Integer(),
    reason: WakeReason,
    deadline_unix: Type.Number({ description: "wall time (Unix seconds) after which a noop is recorded" }),
    briefing_revision: Type.Integer({ minimum: 1 }),
    observation: Observation,
    text: Type.String({ description: "the observation rendered for a language model" }),
    affordances: Type.Array(Affordance),
  },
  {
    title: "Envelope",
    additionalProperties: false,
    description: "one observation as delivered to a remote agent",
  },
);
export type Envelope = Static<typeof Envelope>;
