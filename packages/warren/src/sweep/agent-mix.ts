import { NPC_POLICIES, type NpcPolicy } from "../engine/index.js";

/**
 * Who plays which agent in a sweep's runs. Agents named in `remote` are played by `command`, a
 * process started once per run; those in `solution`, `noop`, `random` or `greedy` play on that
 * in-process policy (their scenario's runner or a built-in baseline); those in `none` do nothing
 * (`none` is the older name of `noop`, the same player); every other agent follows `others`
 * (default "solution").
 */
export interface AgentMix {
  /** Names the mix in records and the summary table: letters, digits, "_" and "-". */
  name: string;
  /** The scenarios the mix applies to; absent: every scenario of the sweep. */
  scenarios?: string[];
  solution?: string[];
  remote?: string[];
  none?: string[];
  noop?: string[];
  random?: string[];
  greedy?: string[];
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

/** The lists that put agents on an in-process policy, each named for its policy. */
const POLICY_LISTS = ["solution", "none", "noop", "random", "greedy"] as const satisfies readonly NpcPolicy[];
const AGENT_LISTS = [...POLICY_LISTS, "remote"] as const;

const MIX_FIELDS = new Set<string>([
  "name",
  "scenarios",
  ...AGENT_LISTS,
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
  for (const field of ["scenarios", ...AGENT_LISTS, "command"] as const) {
    const list = mix[field];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((s) => typeof s !== "string" || s === "")) {
      throw new Error(`${path}.${field} must be a list of non-empty strings`);
    }
  }
  if (mix.others !== undefined && !NPC_POLICIES.includes(mix.others as NpcPolicy)) {
    throw new Error(`${path}.others must be one of ${NPC_POLICIES.map((p) => `"${p}"`).join(", ")}`);
  }
  const named = AGENT_LISTS.flatMap((field) => listOf(mix[field]));
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
  /**
   * Every other agent's policy, by agent id: the engine's per-agent `npc_policy`, the same one
   * `warren run --policy AGENT=POLICY` gives, so a sweep's run hashes as that run does.
   */
  npcPolicy: Record<string, NpcPolicy>;
}

/** Casts a mix onto a scenario's agents; throws when the mix names an agent the scenario lacks. */
export function castMix(mix: AgentMix, scenario: string, agents: readonly string[]): MixCast {
  const listed = new Map<string, NpcPolicy | "remote">();
  for (const field of AGENT_LISTS) {
    for (const agent of listOf(mix[field])) {
      if (!agents.includes(agent)) {
        throw new Error(
          `mix "${mix.name}" names agent "${agent}", which ${scenario} does not have (its agents: ${agents.join(", ")})`,
        );
      }
      listed.set(agent, field);
    }
  }
  const cast: MixCast = { remote: [], npcPolicy: {} };
  for (const agent of agents) {
    const controller = listed.get(agent) ?? mix.others ?? "solution";
    if (controller === "remote") cast.remote.push(agent);
    else cast.npcPolicy[agent] = controller;
  }
  return cast;
}
