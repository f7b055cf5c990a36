/**
 * The server's own warren-agent/0 messages: what it adds around the engine's shapes (briefings,
 * envelopes, receipts, run summaries and events are declared in engine/types.ts). Declared once
 * here; the TypeScript client imports these same types.
 */
import type { AffordanceMode, AgentSummary, NpcPolicies, RunSummary, ScenarioInfo } from "../engine/types.js";

export const PROTOCOL_HEADER = "x-warren-protocol";

/** Every error response: a stable machine code and a sentence for people. */
export interface ErrorBody {
  error: ErrorCode;
  detail: string;
  /** On 410 run_ended: the run's terminal status. */
  status?: string;
}

export type ErrorCode =
  | "bad_request"
  | "malformed_json"
  | "body_too_large"
  | "unsupported_media_type"
  | "lease_required"
  | "lease_invalid"
  | "lease_expired"
  | "not_found"
  | "unknown_run"
  | "unknown_agent"
  | "unknown_scenario"
  | "unknown_command"
  | "protocol_mismatch"
  | "agent_leased"
  | "not_remote"
  | "run_ended"
  | "unprocessable_command"
  | "upgrade_required"
  | "too_many_runs"
  | "internal";

/** Body of POST /v1/runs?scenario=&seed=. */
export interface CreateRunRequest {
  controlled_agents?: string[];
  npc_policy?: NpcPolicies;
  affordances?: AffordanceMode;
  pace?: number | null;
  /** Wall seconds a remote agent has to answer each observation (default 60). */
  deadline_s?: number;
}

/** What a command decides: exactly one of an action (with args), a sleep or a noop. */
export type CommandPayload =
  | { action: string; args?: Record<string, unknown> }
  | { sleep_ms: number }
  | { noop: true };

/** Body of POST …/agents/{agent}/commands. */
export type CommandBody = { command_id: string; observation_id: string } & CommandPayload;

/** An agent as GET /v1/runs/{run} shows it: who plays it and who holds its lease. */
export interface AgentView extends AgentSummary {
  leased: boolean;
  /** The label the lease holder gave at claim (`holder=`), "" if none; null when not leased. */
  holder: string | null;
  lease_expires_unix: number | null;
}

export interface RunView extends Omit<RunSummary, "agents"> {
  npc_policy: NpcPolicies;
  affordances: AffordanceMode;
  controlled_agents: string[];
  deadline_s: number;
  created_unix: number;
  agents: AgentView[];
}

export interface RunList {
  runs: RunView[];
}

export interface ScenarioList {
  scenarios: ScenarioInfo[];
}

/** Response of POST …/agents/{agent}/claim. */
export interface ClaimResponse {
  lease: string;
  briefing_revision: number;
  run_id: string;
  agent_id: string;
  /** true when the presented lease was still live and is resumed as it was. */
  resumed: boolean;
  lease_ttl_s: number;
  lease_expires_unix: number;
  /** The observation waiting for this agent's answer, if any (poll with after=-1 to get it again). */
  outstanding_observation_id: string | null;
}

export interface ReleaseResponse {
  released: true;
  run_id: string;
  agent_id: string;
}

/** The spectator stream's control frame: the subscriber fell behind; resume with since=cursor. */
export interface LaggedFrame {
  kind: "lagged";
  cursor: number;
}

/** WebSocket close code for a lagged spectator ("try again later"). */
export const LAGGED_CLOSE_CODE = 1013;
