import type { Decision, Observation, ToolArgs } from "../engine/types.js";

/** Small readings of an observation that the solution runners share. */

export function objectiveDone(o: Observation, id: string): boolean {
  return o.objectives.find((g) => g.id === id)?.status === "completed";
}

export function carrying(o: Observation, kind: string): string[] {
  return o.you.inventory.filter((i) => i.kind === kind).map((i) => i.id);
}

export function lyingHere(o: Observation, kind: string): string[] {
  return o.place.items.filter((i) => i.kind === kind).map((i) => i.id);
}

export function bodyBusy(o: Observation): boolean {
  return o.busy.some((b) => b.lane === "body");
}

export function act(action: string, args: ToolArgs = {}): Decision {
  return { kind: "action", action, args };
}

export function sleep(ms: number): Decision {
  return { kind: "sleep", sleep_ms: ms };
}

export const NOOP: Decision = { kind: "noop" };
