import type { NpcPolicy } from "../engine/index.js";

/**
 * Who plays which agent in a sweep's runs. Agents named in `remote` are played by `command`, a
 * process started once per run; those in `none` do nothing; those in `solution` play on their
 * scenario's solution runner; every other agent follows `others` (default "solution").
 */
export interface AgentMix {
  /** Names the mix in records and the summary table: letters, digits, "_" and "-". */
  name: string;
  /** The scenarios the mix applies to; absent: every scenario of the sweep. */
  scenarios?: string[];
  solution?: string[];
  remote?: string[];
  none?: string[];
  others?: NpcPolicy;
  /** argv of the remote client; "{url}", "{run}" and "{agents}" in it are filled in per run. */
  command?: string[];
  /** Wall seconds a remote agent has to answer each observation (default 60). */
  deadline_s?: number;
  /** Sim ms per wall ms (default null: as fast as answers come); never changes a run's result. */
  pace?: number | null;
}

/** Every agent on its solution runner: what `warren run` plays, and the default mix. */
export const SOLUTION_MIX: AgentMix = { name: "solution" };

const MIX_FIELDS = new Set([
  "name",
  "scenarios",
  "solution",
  "remote",
  "none",
  "others",
  "command",
  "deadline_s",
  "pace",
]);
const MAX_DEADLINE_S = 86_400;

/** Reads a mixes file's parsed JSON (`{"mixes": [...]}` or the bare list); throws naming the bad field. */
export function parseAgentMixes(value: unknown): AgentMix[] {
  const list = Array.isArray(value) ? value : (value as { mixes?: unknown } | null)?.mixes;
  if (!Array.isArray(list) || list.length === 0) {
    throw new Error('an agents file is {"mixes": [...]} with at least one mix');
  }
  const mixes = list.map((entry, i) => parseMix(entry, `mixes[${i}]`));
  const names = new Set<string>();
  for (const mix of mixes) {
    if (names.has(mix.name)) throw new Error(`two mixes are named "${mix.name}"`);
    names.add(mix.name);
  }
  return mixes;
}

function parseMix(value: unknown, path: string): AgentMix {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${path} must be an object`);
  }
  const mix = value as Record<string, unknown>;
  for (const key of Object.keys(mix)) {
    if (!MIX_FIELDS.has(key)) {
      throw new Error(`${path} has an unknown field "${key}" (fields: ${[...MIX_FIELDS].join(", ")})`);
    }
  }
  if (typeof mix.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(mix.name)) {
    throw new Error(`${path}.name must be 1 to 64 letters, digits, "_" or "-"`);
  }
  for (const field of ["scenarios", "solution", "remote", "none", "command"] as const) {
    const list = mix[field];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((s) => typeof s !== "string" || s === "")) {
      throw new Error(`${path}.${field} must be a list of non-empty strings`);
    }
  }
  if (mix.others !== undefined && mix.others !== "solution" && mix.others !== "none") {
    throw new Error(`${path}.others must be "solution" or "none"`);
  }
  const named = [...listOf(mix.solution), ...listOf(mix.remote), ...listOf(mix.none)];
  const twice = named.find((agent, i) => named.indexOf(agent) !== i);
  if (twice) throw new Error(`${path} names agent "${twice}" more than once`);
  if (listOf(mix.remote).length > 0 && listOf(mix.command).length === 0) {
    throw new Error(`${path} has remote agents, so it needs a "command" that plays them`);
  }
  if (listOf(mix.remote).length === 0 && mix.command !== undefined) {
    throw new Error(`${path} has a "command" but no remote agents for it to play`);
  }
  const deadline = mix.deadline_s;
  if (
    deadline !== undefined &&
    !(typeof deadline === "number" && deadline > 0 && deadline <= MAX_DEADLINE_S)
  ) {
    throw new Error(
      `${path}.deadline_s must be a number of seconds, more than 0 and at most ${MAX_DEADLINE_S}`,
    );
  }
  const pace = mix.pace;
  if (
    pace !== undefined &&
    pace !== null &&
    !(typeof pace === "number" && Number.isFinite(pace) && pace > 0)
  ) {
    throw new Error(`${path}.pace must be null or a positive number of sim ms per wall ms`);
  }
  return mix as unknown as AgentMix;
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? (value as string[]) : [];
}

/** A mix applied to one scenario's agents: what the engine and the remote client are given. */
export interface MixCast {
  /** Played by the mix's command. */
  remote: string[];
  /** Do nothing while the others play their runners: answered with noops in-process. */
  idle: string[];
  /** Everyone else's controller. */
  npcPolicy: NpcPolicy;
}

/**
 * Casts a mix onto a scenario's agents; throws when the mix names an agent the scenario lacks.
 * The engine takes one policy for every agent not remote, so agents doing nothing beside runners
 * become in-process agents that always answer noop: the same decisions, so the same run.
 */
export function castMix(mix: AgentMix, scenario: string, agents: readonly string[]): MixCast {
  for (const agent of [...listOf(mix.solution), ...listOf(mix.remote), ...listOf(mix.none)]) {
    if (!agents.includes(agent)) {
      throw new Error(
        `mix "${mix.name}" names agent "${agent}", which ${scenario} does not have (its agents: ${agents.join(", ")})`,
      );
    }
  }
  const remote = listOf(mix.remote);
  const controllerOf = (agent: string): NpcPolicy =>
    listOf(mix.solution).includes(agent)
      ? "solution"
      : listOf(mix.none).includes(agent)
        ? "none"
        : (mix.others ?? "solution");
  const local = agents.filter((a) => !remote.includes(a));
  const anySolution = local.some((a) => controllerOf(a) === "solution");
  return {
    remote,
    idle: anySolution ? local.filter((a) => controllerOf(a) === "none") : [],
    npcPolicy: anySolution ? "solution" : "none",
  };
}
