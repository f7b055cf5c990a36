import { parseCell } from "./grid.js";
import { SeededRandom } from "./random.js";
import { argsProblem } from "./tool-validation.js";
import type { Affordance, Decision, NpcPolicy, Observation, ToolArgs, ToolSpec } from "./types.js";

/**
 * Built-in baseline players, so a results table shows how far above chance an agent is. They see
 * what a remote agent sees (the observation and its affordances) and nothing of the scenario:
 *
 * - `noop` (and its older name `none`): answers every wake with a noop.
 * - `random`: picks one affordance at random and random choices for its parameters; a field no
 *   choice covers comes from a random suggestion (a message's text); if it has none, the
 *   affordance is skipped. With nothing to pick it sleeps 5 s.
 * - Both wait a second after a refusal before trying again (a refusal takes no sim time, so an
 *   agent that kept choosing refused actions would otherwise hold the clock still).
 * - `greedy`: the nearest-looking gain: a ready scenario tool, else tell each other agent, once,
 *   what the place it stands at shows (its features: a board, a plate, a ledger) and where items
 *   it sees elsewhere lie, else take what lies here, else carry what it holds to a place an
 *   objective names and put it down there, else walk to the nearest place it has not visited,
 *   else a noop.
 */
export interface BaselinePlayer {
  decide(observation: Observation, affordances: () => Affordance[]): Decision;
}

export type BaselinePolicy = Exclude<NpcPolicy, "solution">;

const CORE_ACTIONS = new Set(["move_to", "take", "drop", "message"]);
const NOTHING_TO_DO_MS = 5000;
const AFTER_REFUSAL: Decision = { kind: "sleep", sleep_ms: 1000 };
const NOOP: Decision = { kind: "noop" };

export function baselinePlayer(
  policy: BaselinePolicy,
  tools: ReadonlyMap<string, ToolSpec>,
  seed: number,
  agentId: string,
  trial = 0,
): BaselinePlayer {
  if (policy === "random") return randomPlayer(tools, new SeededRandom(mix(seed, agentId, trial)));
  if (policy === "greedy") return greedyPlayer(tools);
  return { decide: () => NOOP };
}

/**
 * A generator per agent (and per trial of a sweep), apart from the run's own, so a baseline never
 * shifts the world's chance. Trial 0 keeps the generator runs had before there were trials.
 */
function mix(seed: number, agentId: string, trial: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < agentId.length; i++) h = Math.imul(h ^ agentId.charCodeAt(i), 0x01000193);
  if (trial > 0) h = Math.imul(h ^ trial, 0x01000193);
  return h >>> 0;
}

/** Args for an affordance from the choices `pick` makes, or undefined when none would be valid. */
function argsFor(
  affordance: Affordance,
  tools: ReadonlyMap<string, ToolSpec>,
  pick: <T>(items: readonly T[]) => T,
): ToolArgs | undefined {
  const tool = tools.get(affordance.action);
  if (!tool) return undefined;
  const args: ToolArgs = {};
  if (affordance.suggestions.length > 0) Object.assign(args, pick(affordance.suggestions));
  for (const [param, { choices }] of Object.entries(affordance.params)) {
    if (choices.length > 0) args[param] = pick(choices);
  }
  return argsProblem(affordance.action, tool.input_schema, args) === "" ? args : undefined;
}

function randomPlayer(tools: ReadonlyMap<string, ToolSpec>, rng: SeededRandom): BaselinePlayer {
  const pick = <T>(items: readonly T[]): T => items[rng.int(items.length)]!;
  return {
    decide(o, affordances) {
      if (o.reason === "refused") return AFTER_REFUSAL;
      const options = rng.shuffled(affordances());
      for (const affordance of options) {
        const args = argsFor(affordance, tools, pick);
        if (args) return { kind: "action", action: affordance.action, args };
      }
      return { kind: "sleep", sleep_ms: NOTHING_TO_DO_MS };
    },
  };
}

function greedyPlayer(tools: ReadonlyMap<string, ToolSpec>): BaselinePlayer {
  const visited = new Set<string>();
  const told = new Set<string>();
  const first = <T>(items: readonly T[]): T => items[0]!;
  return {
    decide(o, affordances) {
      if (o.you.place) visited.add(o.you.place);
      if (o.reason === "refused") return AFTER_REFUSAL;
      if (o.busy.some((b) => b.lane === "body")) return NOOP;
      const ready = affordances();
      const find = (action: string) => ready.find((a) => a.action === action);
      const act = (affordance: Affordance | undefined, args?: ToolArgs): Decision | undefined => {
        if (!affordance) return undefined;
        const chosen = args ?? argsFor(affordance, tools, first);
        return chosen ? { kind: "action", action: affordance.action, args: chosen } : undefined;
      };
      for (const affordance of ready) {
        if (CORE_ACTIONS.has(affordance.action)) continue;
        const decision = act(affordance);
        if (decision) return decision;
      }
      const shared = tellNews(o, find("message"), told);
      if (shared) return shared;
      const taken = act(find("take"));
      if (taken) return taken;
      const goals = new Set(
        o.nearby.places
          .map((p) => p.id)
          .concat(find("move_to")?.params.dest?.choices.map(String) ?? [], o.you.place ?? [])
          .filter((id) => o.objectives.some((g) => g.status === "pending" && mentions(g.description, id))),
      );
      const held = o.you.inventory[0];
      if (held && o.you.place && goals.has(o.you.place)) return act(find("drop"), { item: held.id }) ?? NOOP;
      const move = find("move_to");
      const dests = move?.params.dest?.choices.map(String) ?? [];
      if (held) {
        const goal = dests.find((d) => goals.has(d));
        if (goal) return { kind: "action", action: "move_to", args: { dest: goal } };
      }
      const unvisited = dests.filter((d) => !visited.has(d));
      const nearest = nearestOf(o, unvisited);
      if (nearest) return { kind: "action", action: "move_to", args: { dest: nearest } };
      return NOOP;
    },
  };
}

/**
 * A message telling the next agent what it has not yet heard from this player: what the place
 * here shows (its features) and where items in sight lie, or undefined when there is no news.
 */
function tellNews(o: Observation, message: Affordance | undefined, told: Set<string>): Decision | undefined {
  if (!message) return undefined;
  const news = new Map<string, string>();
  for (const [k, v] of Object.entries(o.place.features))
    news.set(`${o.place.cell} ${k}`, `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  const placeAt = new Map(o.nearby.places.map((p) => [p.cell, p.id]));
  for (const item of o.nearby.items) {
    if (item.cell === o.you.cell) continue;
    const where = placeAt.get(item.cell);
    news.set(`${item.id} ${item.cell}`, `${item.id} at ${item.cell}${where ? ` (${where})` : ""}`);
  }
  for (const to of message.params.to?.choices.map(String) ?? []) {
    const unheard = [...news].filter(([key]) => !told.has(`${to} ${key}`));
    if (unheard.length === 0) continue;
    for (const [key] of unheard) told.add(`${to} ${key}`);
    const text = `At ${o.place.name}: ${unheard.map(([, line]) => line).join("; ")}`;
    return { kind: "action", action: "message", args: { to, text } };
  }
  return undefined;
}

/** Whether an objective's description names a place ("the clinic" for `clinic`, "north field" for `north_field`). */
function mentions(description: string, placeId: string): boolean {
  return description.toLowerCase().includes(placeId.replace(/_/g, " "));
}

/** The place among `ids` nearest the agent as the crow flies, when the observation shows its cell. */
function nearestOf(o: Observation, ids: readonly string[]): string | undefined {
  const here = parseCell(o.you.cell);
  const cells = new Map(o.nearby.places.map((p) => [p.id, parseCell(p.cell)]));
  let best: string | undefined;
  let bestSteps = Number.POSITIVE_INFINITY;
  for (const id of ids) {
    const cell = cells.get(id);
    const steps = cell && here ? Math.abs(cell.x - here.x) + Math.abs(cell.y - here.y) : 1_000_000;
    if (steps < bestSteps) {
      best = id;
      bestSteps = steps;
    }
  }
  return best;
}
