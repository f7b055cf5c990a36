import type { SimEventData, SimEventKind } from "./events.js";
import type { SeededRandom } from "./random.js";
import type { ToolArgs, ToolSpec, WakeReason } from "./types.js";
import type { AgentState, Item, World } from "./world.js";

/** What a tool may see and do while it runs: the world and a few effects the core owns. */
export interface ToolContext {
  readonly world: World;
  readonly now: number;
  readonly msPerCell: number;
  readonly rng: SeededRandom;
  /** Records a simulation event in the run's log. */
  emit<K extends SimEventKind>(kind: K, data: SimEventData[K]): void;
  /** Moves an objective's progress; completing or failing the run follows from it. */
  progress(objectiveId: string, delta: number): void;
  /** Puts a message in an agent's inbox and wakes it. */
  deliver(from: AgentState, to: AgentState, text: string): void;
  /** Lets the scenario's rules react to something an action did. */
  react(happening: Happening): void;
  /** Fails an objective for good (a mistake that cannot be undone); the run ends failed. */
  fail(objectiveId: string, reason: string): void;
  /** Credits an agent with a step that moved the team forward (counted in its scores). */
  credit(agent: AgentState, what: string): void;
}

export type Happening =
  | { kind: "took"; agent: AgentState; item: Item }
  | { kind: "dropped"; agent: AgentState; item: Item }
  | { kind: "arrived"; agent: AgentState }
  | { kind: "messaged"; agent: AgentState; to: AgentState; text: string };

/**
 * A tool either refuses, in a sentence saying why as a person would, or starts. A `hint` (what to
 * do instead) follows the sentence unless the run offers every affordance, where working that out
 * is the agent's job.
 */
export type Begin =
  | { refused: string; hint?: string }
  | {
      durationMs: number;
      /** Durative tools apply their effect here; a returned sentence means the action failed. */
      finish?: () => string | null;
      /** The wake reason when the action is over (default "done"). */
      doneReason?: WakeReason;
    };

export interface Offer {
  params: Record<string, { choices: (string | number)[] }>;
  suggestions: ToolArgs[];
}

export interface ToolDefinition {
  spec: ToolSpec;
  /** Roles that have this tool; every role when absent. */
  roles?: readonly string[];
  /** Why the tool cannot be used right now, or "" when it can. Cheap: asked on every wake. */
  unavailable(ctx: ToolContext, agent: AgentState): string;
  /** The valid choices right now; asked only when the tool is available and an envelope is built. */
  offer(ctx: ToolContext, agent: AgentState): Offer;
  begin(ctx: ToolContext, agent: AgentState, args: ToolArgs): Begin;
}

export function toolsFor(tools: readonly ToolDefinition[], role: string): ToolDefinition[] {
  return tools.filter((t) => !t.roles || t.roles.includes(role));
}
