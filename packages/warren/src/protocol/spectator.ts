import { type Static, Type } from "typebox";
import { RunEvent } from "./events.js";
import { RunScores } from "./scores.js";

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

export const SpectatorFrame = Type.Union([RunEndedEvent, RunEvent, LaggedFrame], {
  title: "SpectatorFrame",
  description: "a spectator frame: a run event (narrowed by kind), the final status, or lagged",
});
export type SpectatorFrame = Static<typeof SpectatorFrame>;
