import type { SeededRandom } from "./random.js";
import type { Happening, ToolContext, ToolDefinition } from "./tool.js";
import type { Budgets, Decision, FeatureValue, Observation, ScenarioInfo } from "./types.js";
import type { AgentState, Place, World } from "./world.js";

/** A scripted player for one agent: sees what the agent sees, answers each wake. */
export interface SolutionRunner {
  decide(observation: Observation): Decision;
}

export interface ScenarioAgent {
  id: string;
  name: string;
  role: string;
  /** The place it starts at. */
  start: string;
}

export interface ScenarioObjective {
  id: string;
  description: string;
  target: number;
  deadlineMs: number | null;
}

/** Everything one scenario folder provides: its map and data, its rules and its solution. */
export interface ScenarioDefinition {
  name: string;
  title: string;
  premise: string;
  summary: string;
  /** The briefing's notes for every agent. */
  notes: string;
  /** Notes only one role reads (appended to `notes`): how its part of the world works. */
  roleNotes?: Readonly<Record<string, string>>;
  agents: readonly ScenarioAgent[];
  objectives: readonly ScenarioObjective[];
  /** The run fails when sim time reaches this with objectives unmet. */
  timeLimitMs: number;
  msPerCell: number;
  sightRadius: number;
  /** Roles that see farther or nearer than `sightRadius`. */
  sightByRole?: Readonly<Record<string, number>>;
  budgets: Budgets;
  /**
   * How many credits a team earns on its way to completing (objective units plus the scenario's
   * credited steps; what its solution team earns): a failed run's partial score is its share.
   */
  steps: number;
  /** Tools beyond move_to, take, drop and message. */
  tools: readonly ToolDefinition[];
  /** Lays out spaces, places, items and flags; agents and objectives are added from the lists above. */
  build(world: World, rng: SeededRandom): void;
  /** Rules that follow from what agents did (a medkit dropped at the clinic counts). */
  react?(ctx: ToolContext, happening: Happening): void;
  /** Facts shown about a place to an agent standing there (some are for one role's eyes only). */
  placeFeatures?(world: World, place: Place, viewer: AgentState): Record<string, FeatureValue>;
  solution(agentId: string): SolutionRunner;
  /**
   * Whether the scenario is finished when exactly these agents are on their solution runners and
   * every other agent does nothing. Declares which roles are needed.
   */
  solvableWith(solutionAgents: ReadonlySet<string>): boolean;
}

/** How far an agent of this role sees, in cells. */
export function sightOf(scenario: ScenarioDefinition, role: string): number {
  return scenario.sightByRole?.[role] ?? scenario.sightRadius;
}

/** The briefing notes an agent of this role reads. */
export function notesFor(scenario: ScenarioDefinition, role: string): string {
  const own = scenario.roleNotes?.[role];
  if (!own) return scenario.notes;
  return scenario.notes ? `${scenario.notes}\n\n${own}` : own;
}

/** A scenario as a catalogue lists it. */
export function describeScenario(s: ScenarioDefinition): ScenarioInfo {
  return {
    name: s.name,
    title: s.title,
    premise: s.premise,
    summary: s.summary,
    agents: s.agents.map((a) => ({ agent_id: a.id, name: a.name, role: a.role })),
    objectives: s.objectives.map((o) => ({
      id: o.id,
      description: o.description,
      deadline_ms: o.deadlineMs,
      target: o.target,
    })),
    time_limit_ms: s.timeLimitMs,
  };
}
