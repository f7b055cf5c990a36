import { canonicalJson, sha256 } from "./canonical-json.js";
import { notesFor, type ScenarioDefinition, sightOf } from "./scenario.js";
import type { ToolDefinition } from "./tool.js";
import type { Briefing } from "./types.js";
import type { AgentState, World } from "./world.js";

export const BRIEFING_REVISION = 1;

/** An agent's briefing: who it is, what the run is for, its tools and the conventions. */
export function buildBriefing(
  runId: string,
  scenario: ScenarioDefinition,
  world: World,
  agent: AgentState,
  tools: Iterable<ToolDefinition>,
): Briefing {
  const body: Omit<Briefing, "content_hash"> = {
    briefing_id: `${runId}/${agent.id}`,
    revision: BRIEFING_REVISION,
    agent_id: agent.id,
    role: agent.role,
    name: agent.name,
    scenario: scenario.name,
    premise: scenario.premise,
    objectives: scenario.objectives.map((o) => ({
      id: o.id,
      description: o.description,
      status: "pending",
      deadline_ms: o.deadlineMs,
      progress: { current: 0, target: o.target },
    })),
    tool_catalog: [...tools].map((t) => t.spec),
    conventions: {
      grid_naming: "cells are '<space>:<x>,<y>'; x grows east, y grows south",
      sight_radius: sightOf(scenario, agent.role),
      budgets: { ...world.budgets },
      decision: "answer each observation with exactly one command: an action, a sleep, or a noop",
    },
    notes: notesFor(scenario, agent.role),
  };
  const { briefing_id, revision, agent_id, role, name, scenario: scenarioName, premise, ...rest } = body;
  // The hash covers the content, not which run it was issued in.
  const { briefing_id: _id, ...content } = body;
  const content_hash = sha256(canonicalJson(content));
  return {
    briefing_id,
    revision,
    content_hash,
    agent_id,
    role,
    name,
    scenario: scenarioName,
    premise,
    ...rest,
  };
}
