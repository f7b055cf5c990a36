/**
 * The engine's domain types: what it hands out (briefings, observation envelopes, receipts, run
 * summaries, events). The engine knows no wire: the server returns these as warren-agent/0 bodies,
 * whose declarations in src/protocol/ they must satisfy (the compiler checks it at each route,
 * and tests check every answer against the schemas).
 */

export type JsonSchema = Record<string, unknown>;

/** An agent's lanes: one durative action at a time on each (walking on the body, talking on the voice). */
export const LANES = ["body", "voice"] as const;
export type Lane = (typeof LANES)[number];

/** The JSON Schema of one of a tool's arguments: a scalar, with its own keywords. */
export interface ArgumentSchema {
  type: "string" | "integer" | "number" | "boolean";
  description?: string;
  enum?: (string | number)[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/** One argument's value: what an ArgumentSchema allows. */
export type ArgValue = string | number | boolean;

/** A tool's args once checked against its input_schema. */
export type ToolArgs = Record<string, ArgValue>;

/** The JSON Schema of a tool's args: always an object of named arguments. */
export interface ToolInputSchema {
  type: "object";
  properties: Record<string, ArgumentSchema>;
  required?: string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

/** A tool as agents see it in their briefing's catalog. */
export interface ToolSpec {
  name: string;
  description: string;
  lane: Lane;
  durative: boolean;
  input_schema: ToolInputSchema;
}

export type ObjectiveStatus = "pending" | "completed" | "failed";

export interface ObjectiveView {
  id: string;
  description: string;
  status: ObjectiveStatus;
  deadline_ms: number | null;
  progress: { current: number; target: number };
}

export interface Budgets {
  max_sight: number;
  max_messages: number;
  max_inventory: number;
}

export interface Briefing {
  briefing_id: string;
  revision: number;
  content_hash: string;
  agent_id: string;
  role: string;
  name: string;
  scenario: string;
  premise: string;
  objectives: ObjectiveView[];
  tool_catalog: ToolSpec[];
  conventions: {
    grid_naming: string;
    sight_radius: number;
    budgets: Budgets;
    decision: string;
  };
  notes: string;
}

/** Why an agent woke. */
export type WakeReason = "start" | "arrived" | "done" | "failed" | "refused" | "message" | "timer" | "idle";

export interface BusyLane {
  lane: Lane;
  action: string;
  args: ToolArgs;
  since_ms: number;
  until_ms: number;
}

export interface SeenItem {
  id: string;
  name: string;
  kind: string;
  cell: string;
}

export interface SeenAgent {
  id: string;
  name: string;
  role: string;
  cell: string;
}

/** A place's fact: a word or a number, or a small table of named texts (a rota, a ledger). */
export type FeatureValue = string | number | boolean | Record<string, string>;

export interface PlaceView {
  id: string | null;
  name: string;
  cell: string;
  description: string;
  items: SeenItem[];
  agents: SeenAgent[];
  /** Scenario facts about this place (a broken bridge, a posted note, a crate count). */
  features: Record<string, FeatureValue>;
}

export interface ReceivedMessage {
  from: string;
  from_name: string;
  text: string;
  sent_ms: number;
}

/** What became of the agent's own actions since its previous observation. */
export interface OwnOutcome {
  observation_id: string;
  action: string;
  result: "done" | "failed" | "refused";
  reason: string;
}

export interface ToolReadiness {
  action: string;
  lane: Lane;
  durative: boolean;
  ready: boolean;
  why_not: string;
}

/** The structured observation: the wire truth of an envelope. */
export interface Observation {
  agent: string;
  time: number;
  reason: WakeReason;
  busy: BusyLane[];
  you: {
    id: string;
    name: string;
    role: string;
    cell: string;
    place: string | null;
    inventory: SeenItem[];
    budgets_left: { messages: number; inventory: number };
  };
  place: PlaceView;
  nearby: { agents: SeenAgent[]; items: SeenItem[]; places: { id: string; name: string; cell: string }[] };
  messages: ReceivedMessage[];
  outcomes: OwnOutcome[];
  objectives: ObjectiveView[];
  tools: ToolReadiness[];
}

export interface Affordance {
  action: string;
  params: Record<string, { choices: (string | number)[] }>;
  /** Ready-made args, each valid for the tool now. */
  suggestions: ToolArgs[];
}

/** One observation as delivered to a remote agent. */
export interface Envelope {
  run_id: string;
  agent_id: string;
  observation_id: string;
  seq: number;
  sim_time_ms: number;
  reason: WakeReason;
  deadline_unix: number;
  briefing_revision: number;
  observation: Observation;
  text: string;
  affordances: Affordance[];
}

/** A decision after its payload was validated. */
export type Decision =
  | { kind: "action"; action: string; args: ToolArgs }
  | { kind: "sleep"; sleep_ms: number }
  | { kind: "noop" };

export type Verdict = "accepted" | "duplicate" | "rejected" | "stale" | "expired";

/** The engine's adjudication of an accepted command. */
export type Outcome = "none" | "pending" | "accepted" | "rejected" | "cancelled";

/**
 * What an agent spent thinking, as a command reports it: the tokens its model read and wrote
 * since the agent's last accepted command, and what they cost (in the client's unit). Metadata
 * about the agent, not a move in the world: it never changes the run's state or its log hash.
 */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cost?: number;
}

/** One agent's usage over a run: the sums over its accepted commands that reported one. */
export interface AgentUsage {
  /** Accepted commands that carried usage. */
  commands: number;
  input_tokens: number;
  output_tokens: number;
  /** The sum of the costs reported; null when none of its commands reported a cost. */
  cost: number | null;
}

/** The team's usage over a run, and the run's score against it. */
export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  /** score / (input + output tokens) × 1000; null with no tokens. */
  score_per_1k_tokens: number | null;
  /** score / cost; null with no cost, or a cost of 0. */
  score_per_cost: number | null;
}

export interface Receipt {
  command_id: string;
  observation_id: string;
  status: Verdict;
  detail: string;
  outcome: Outcome;
  outcome_reason: string;
}

/**
 * Statuses a run is ended with from outside its simulation: crashed (it failed unexpectedly),
 * interrupted (its server stopped or was killed before it ended), over_budget (its kept records
 * passed their byte budget), abandoned (a server's: no one claimed its agents in time), deleted (a
 * client deleted it).
 */
export const HALT_STATUSES = ["crashed", "interrupted", "over_budget", "abandoned", "deleted"] as const;
export type HaltStatus = (typeof HALT_STATUSES)[number];
export type RunStatus = "created" | "running" | "completed" | "failed" | HaltStatus;

/** Whether a run in this status has ended: nothing more happens in it. */
export function hasEnded(status: RunStatus): boolean {
  return status !== "created" && status !== "running";
}

/**
 * A run's time as it stands, for a spectator's clock: `until_ms` its next event while a paced
 * run moves on between events, null while it waits for `waiting_for` or is not paced.
 */
export interface RunTime {
  sim_time_ms: number;
  until_ms: number | null;
  waiting_for: string[];
}

/**
 * Who plays an agent that is not remote: its scenario's solution runner, nobody ("none" and
 * "noop" both answer every wake with a noop), or a built-in baseline ("random" picks a random
 * affordance, "greedy" the nearest-looking gain). See engine/baselines.ts.
 */
export const NPC_POLICIES = ["solution", "none", "noop", "random", "greedy"] as const;

export type NpcPolicy = (typeof NPC_POLICIES)[number];

/** One policy for every agent that is not remote, or one per agent id (unlisted agents: "solution"). */
export type NpcPolicies = NpcPolicy | Readonly<Record<string, NpcPolicy>>;

/** Which affordances an envelope offers: what would succeed now, or every tool and known target. */
export type AffordanceMode = "ready" | "all";

export type Controller = "remote" | NpcPolicy;

/** How one agent did, from the events of its run (see docs/scenarios.md, "Scores"). */
export interface AgentScore {
  agent_id: string;
  controller: Controller;
  /** Wakes it answered itself (actions, sleeps and noops; expired deadlines excluded). */
  commands: number;
  /** Of those, actions. */
  actions: number;
  /** Actions the world refused. */
  refusals: number;
  messages: number;
  /** Objective progress it caused plus the scenario's credited steps (a plank picked up, a code told). */
  credits: number;
  /** credits / every agent's credits, 0 when nobody has any. */
  contribution: number;
  /** What its commands reported spending; only for an agent that reported some. */
  usage?: AgentUsage;
}

export interface RunScores {
  completed: boolean;
  /** 1 for a completed run; otherwise the team's credits over the scenario's `steps`, below 1. */
  score: number;
  objectives_met: number;
  objectives_total: number;
  sim_time_ms: number;
  /** The solution team's sim time on the same seed, once the run has ended; null before. */
  solution_sim_time_ms: number | null;
  /** sim_time_ms / solution_sim_time_ms for a completed run; null otherwise. */
  time_ratio: number | null;
  agents: AgentScore[];
  /** The agents' usage summed, with the score per 1,000 tokens and per unit of cost; only when some agent reported usage. */
  usage?: RunUsage;
}

export interface AgentSummary {
  agent_id: string;
  name: string;
  role: string;
  controller: Controller;
}

export interface RunSummary {
  run_id: string;
  scenario: string;
  seed: number;
  status: RunStatus;
  status_reason: string;
  pace: number | null;
  sim_time_ms: number;
  objectives: ObjectiveView[];
  agents: AgentSummary[];
  /** Cursor of the latest event; a spectator resumes with since=<cursor>. */
  event_cursor: number;
  /** sha256 of the simulation's event log so far. */
  log_hash: string;
  scores: RunScores;
}

export interface ScenarioInfo {
  name: string;
  title: string;
  premise: string;
  summary: string;
  agents: { agent_id: string; name: string; role: string }[];
  objectives: { id: string; description: string; deadline_ms: number | null; target: number }[];
  time_limit_ms: number;
}
