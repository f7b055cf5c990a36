import { type Static, Type } from "typebox";
import { Receipt } from "./commands.js";
import { RunScores } from "./scores.js";

export const RunEvent = Type.Object(
  {
    cursor: Type.Integer({ minimum: 1, description: "counts from 1 with no gaps" }),
    sim: Type.Boolean({ description: "true: the simulation's own (hashed) history" }),
    sim_time_ms: Type.Integer(),
    kind: Type.String({ description: "e.g. wake, decision, action_started, objective, verdict, status" }),
    data: Type.Record(Type.String(), Type.Unknown()),
    // On a remote agent's decision event: its command's receipt, outcome settled; not hashed.
    receipt: Type.Optional(Receipt),
  },
  {
    title: "RunEvent",
    additionalProperties: false,
    description:
      "one spectator text frame: a run event. A decision event is logged when the batch resolves; a refused action is that one event, its data carrying `refused` (the sentence) and `wakes_at_ms` (when the agent wakes again; that wake has no event of its own), and, for a remote agent, `receipt` (its command's receipt, outcome settled; outside the log hash). A command that is not accepted is a `verdict` event (sim false), once per status and observation.",
  },
);
export type RunEvent = Static<typeof RunEvent>;

export const RunEndedEvent = Type.Object(
  {
    cursor: Type.Integer({ minimum: 1 }),
    sim: Type.Literal(false),
    sim_time_ms: Type.Integer(),
    kind: Type.Literal("status"),
    data: Type.Object(
      {
        status: Type.Enum(["completed", "failed"]),
        reason: Type.String(),
        scores: RunScores,
      },
      { additionalProperties: false },
    ),
  },
  {
    title: "RunEndedEvent",
    additionalProperties: false,
    description:
      "the last frame of a run that completed or failed, before close 1000: its terminal status, why, and its scores (a crashed or interrupted run's last frame is a plain status event with a reason)",
  },
);
export type RunEndedEvent = Static<typeof RunEndedEvent>;

export const LaggedFrame = Type.Object(
  {
    kind: Type.Literal("lagged"),
    cursor: Type.Integer({ minimum: 0, description: "resume with since=<cursor>" }),
    detail: Type.String(),
  },
  {
    title: "LaggedFrame",
    additionalProperties: false,
    description:
      "the last frame before close 1013: the reader fell behind (nothing is lost by resuming), or asked for events no longer kept (resuming continues after the gap)",
  },
);
export type LaggedFrame = Static<typeof LaggedFrame>;

export const SpectatorFrame = Type.Union([RunEndedEvent, RunEvent, LaggedFrame], { title: "SpectatorFrame" });
export type SpectatorFrame = Static<typeof SpectatorFrame>;

/** The run ended and every event was sent. */
export const ENDED_CLOSE_CODE = 1000;
/** "Try again later": the reader lagged; reconnect with since=<cursor>. */
export const LAGGED_CLOSE_CODE = 1013;
