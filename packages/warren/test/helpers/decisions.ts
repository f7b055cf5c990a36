import type { Decision, Observation, ToolArgs } from "../../src/engine/index.js";

/** Small makers and readings shared by the scripted players of the tests. */

export const act = (action: string, args: ToolArgs = {}): Decision => ({
  kind: "action",
  action,
  args,
});
export const wait = (ms: number): Decision => ({ kind: "sleep", sleep_ms: ms });
export const walking = (o: Observation) => o.busy.some((b) => b.lane === "body");
