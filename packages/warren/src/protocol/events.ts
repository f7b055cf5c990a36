import { type Static, type TSchema, Type } from "typebox";
import type { RunEvent as EngineRunEvent } from "../engine/events.js";
import { ObjectiveStatus, ObjectiveView } from "./briefing.js";
import { Receipt } from "./commands.js";
import { ToolArgs, WakeReason } from "./observation.js";
import { RunStatus } from "./runs.js";
import { RunScores } from "./scores.js";
import { Usage } from "./usage.js";

/**
 * The run events a spectator reads, one schema per kind, so a generated client narrows a frame
 * by `kind` to its `data`. The engine's plain types of them (engine/events.ts) are checked
 * against these at compile time (wire-check.ts).
 */

const closed = { additionalProperties: false } as const;
const agent = Type.String({ description: "the agent's id" });
const item = Type.String({ description: "the item's id" });
const cell = Type.String({ description: "a cell: <space>:<x>,<y>" });
const observationId = Type.String({ description: "<agent>#<seq>" });

const decisionBase = {
  agent,
  observation_id: observationId,
  expired: Type.Optional(
    Type.Literal(true, { description: "the deadline passed: the engine recorded this noop itself" }),
  ),
  refused: Type.Optional(
    Type.String({ description: "the world refused the action: the sentence saying why" }),
  ),
  wakes_at_ms: Type.Optional(
    Type.Integer({ description: "with refused: when the agent wakes again (that wake has no event)" }),
  ),
};

export const DecisionData = Type.Union(
  [
    Type.Object({ ...decisionBase, action: Type.String(), args: ToolArgs }, closed),
    Type.Object({ ...decisionBase, sleep_ms: Type.Integer() }, closed),
    Type.Object({ ...decisionBase, noop: Type.Literal(true) }, closed),
  ],
  {
    title: "DecisionData",
    description: "a decision: its agent and observation, then action and args, sleep_ms, or noop",
  },
);

const lever = { agent, bank: Type.String({ description: "north or south" }), spillway: Type.Integer() };

/** The simulation's own events (hashed), each kind's data. */
const SIM_EVENTS = {
  run_started: Type.Object({ scenario: Type.String(), seed: Type.Integer() }, closed),
  run_ended: Type.Object(
    {
      status: Type.Enum(["completed", "failed"]),
      reason: Type.String(),
      objectives: Type.Array(ObjectiveView),
    },
    closed,
  ),
  wake: Type.Object(
    {
      agent,
      observation_id: observationId,
      reason: WakeReason,
    },
    closed,
  ),
  decision: DecisionData,
  action_started: Type.Object(
    { agent, action: Type.String(), args: ToolArgs, until_ms: Type.Integer(), cell },
    closed,
  ),
  action_ended: Type.Object({ agent, action: Type.String(), result: Type.Enum(["done", "failed"]) }, closed),
  objective: Type.Object(
    {
      id: Type.String(),
      status: ObjectiveStatus,
      current: Type.Integer(),
      target: Type.Integer(),
      by: Type.Optional(
        Type.Union([Type.String(), Type.Null()], { description: "the agent whose action moved it" }),
      ),
      reason: Type.Optional(Type.String({ description: "why it failed" })),
    },
    closed,
  ),
  message: Type.Object({ from: agent, to: agent, text: Type.String() }, closed),
  credit: Type.Object({ agent, what: Type.String({ description: "the step credited, in words" }) }, closed),
  arrived: Type.Object({ agent, cell, place: Type.Union([Type.String(), Type.Null()]) }, closed),
  took: Type.Object({ agent, item }, closed),
  dropped: Type.Object({ agent, item, cell }, closed),
  bolted: Type.Object({ agent, item }, closed),
  spoiled: Type.Object({ agent, item }, closed),
  lost: Type.Object({ agent, item, where: Type.String() }, closed),
  misdelivered: Type.Object(
    { agent, item, at: Type.Union([Type.String(), Type.Null()]), address: Type.String() },
    closed,
  ),
  wrong_code: Type.Object({ agent, code: Type.String(), wrong: Type.Integer() }, closed),
  gate_opened: Type.Object({ agent }, closed),
  bridge_opened: Type.Object({ cell }, closed),
  lever_pulled: Type.Object(lever, closed),
  lever_sprang_back: Type.Object(lever, closed),
  spillway_opened: Type.Object({ spillway: Type.Integer() }, closed),
};

/** The driver's events (not hashed: they depend on remote timing), each kind's data. */
const DRIVER_EVENTS = {
  status: Type.Object(
    {
      status: RunStatus,
      reason: Type.Optional(Type.String()),
      scores: Type.Optional(RunScores),
    },
    closed,
  ),
  verdict: Type.Object(
    {
      agent,
      command_id: Type.String(),
      observation_id: Type.String(),
      status: Type.Enum(["duplicate", "rejected", "stale", "expired"]),
      detail: Type.String(),
    },
    closed,
  ),
  expired: Type.Object({ agent, observation_id: observationId }, closed),
};

const DESCRIPTIONS: Record<string, string> = {
  run_started: "the run started",
  run_ended: "the simulation ended, completed or failed",
  wake: "an agent woke (a refused action's wake has no event: its decision's wakes_at_ms says when)",
  decision:
    "an agent's decision, logged when its batch resolves; a remote agent's carries its command's receipt, outcome settled, and the usage the command reported (both outside the log hash)",
  action_started: "an action began; it takes until until_ms",
  action_ended: "a durative action finished, done or failed",
  objective: "an objective moved, completed or failed",
  message: "an agent spoke to another",
  credit: "the scenario credited an agent with a step that moved the team forward",
  status: "the run's status changed; the last one of an ended run carries its scores",
  verdict: "a command that was not accepted, once per status and observation",
  expired: "an observation's deadline passed with no answer",
};

const pascal = (kind: string): string =>
  kind.replace(/(^|_)([a-z])/g, (_whole, _bar, letter: string) => letter.toUpperCase());

/** A title per kind; the simulation's run_ended is apart from the final status frame (RunEndedEvent). */
const titleOf = (kind: string): string =>
  kind === "run_ended" ? "SimulationEndedEvent" : `${pascal(kind)}Event`;

/** One kind's part of RunEvent: its kind, whether it is the simulation's, and its data. */
function kindOf(kind: string, sim: boolean, data: TSchema) {
  return Type.Object(
    { sim: Type.Literal(sim), kind: Type.Literal(kind), data },
    { title: titleOf(kind), description: DESCRIPTIONS[kind] ?? "a scenario's event" },
  );
}

type SimEvents = typeof SIM_EVENTS;
type DriverEvents = typeof DRIVER_EVENTS;
interface EventFields {
  cursor: number;
  sim_time_ms: number;
}

/**
 * The events as these schemas describe them, kind by kind; wire-check.ts holds them equal to the
 * engine's RunEvent, the type both sides use.
 */
export type RunEventOfSchemas =
  | {
      [K in keyof SimEvents]: EventFields & {
        sim: true;
        kind: K;
        data: Static<SimEvents[K]>;
        receipt?: Receipt;
        usage?: Usage;
      };
    }[keyof SimEvents]
  | {
      [K in keyof DriverEvents]: EventFields & { sim: false; kind: K; data: Static<DriverEvents[K]> };
    }[keyof DriverEvents];

export type RunEvent = EngineRunEvent;

/**
 * The fields every event has, and one of the kinds: a generated client types an event as the
 * fields and the union of kinds, so `kind` narrows `data`.
 */
export const RunEvent = Type.Unsafe<RunEvent>({
  ...Type.Object(
    {
      cursor: Type.Integer({ minimum: 1, description: "counts from 1 with no gaps" }),
      sim: Type.Boolean({ description: "true: the simulation's own (hashed) history" }),
      sim_time_ms: Type.Integer(),
      kind: Type.String({ description: "what happened; each kind has its data (oneOf)" }),
      data: Type.Unknown({ description: "the kind's data" }),
      // On a remote agent's decision event: its command's receipt, outcome settled, and the usage
      // the command reported; neither hashed.
      receipt: Type.Optional(Receipt),
      usage: Type.Optional(Usage),
    },
    {
      title: "RunEvent",
      additionalProperties: false,
      description:
        "one spectator text frame: a run event, its data declared by its kind. A decision event is logged when the batch resolves; a refused action is that one event, its data carrying `refused` (the sentence) and `wakes_at_ms` (when the agent wakes again; that wake has no event of its own), and, for a remote agent, `receipt` (its command's receipt, outcome settled) and `usage` when the command reported one, both outside the log hash. A command that is not accepted is a `verdict` event (sim false), once per status and observation.",
    },
  ),
  oneOf: [
    ...Object.entries(SIM_EVENTS).map(([kind, data]) => kindOf(kind, true, data)),
    ...Object.entries(DRIVER_EVENTS).map(([kind, data]) => kindOf(kind, false, data)),
  ],
});

/** Every kind of event there is. */
export const EVENT_KINDS = [...Object.keys(SIM_EVENTS), ...Object.keys(DRIVER_EVENTS)];
