/**
 * JSON Schemas of the routes: they validate path parameters, query strings and the run-creation
 * body, and they are the source of the OpenAPI document at /v1/openapi.json.
 */
import { MAX_SLEEP_MS, NPC_POLICIES } from "../engine/index.js";
import { MAX_DEADLINE_S, MAX_HOLDER_CHARS, MAX_WAIT_S } from "./limits.js";

const open = { type: "object", additionalProperties: true } as const;

export const errorSchema = {
  type: "object",
  required: ["error", "detail"],
  properties: {
    error: { type: "string", description: "stable machine code, e.g. lease_invalid" },
    detail: { type: "string", description: "what went wrong, in a sentence" },
    status: { type: "string", description: "on 410 run_ended: the run's terminal status" },
  },
} as const;

const errors = (...codes: number[]): Record<number, typeof errorSchema> =>
  Object.fromEntries(codes.map((c) => [c, errorSchema]));

const runParams = {
  type: "object",
  required: ["run"],
  properties: { run: { type: "string" } },
} as const;

const agentParams = {
  type: "object",
  required: ["run", "agent"],
  properties: { run: { type: "string" }, agent: { type: "string" } },
} as const;

const leaseQuery = {
  type: "object",
  properties: {
    lease: { type: "string", description: "the token from claim (or send Authorization: Bearer <token>)" },
  },
} as const;

const agentView = {
  type: "object",
  properties: {
    agent_id: { type: "string" },
    name: { type: "string" },
    role: { type: "string" },
    controller: { type: "string", enum: ["remote", ...NPC_POLICIES] },
    leased: { type: "boolean" },
    holder: { type: ["string", "null"] },
    lease_expires_unix: { type: ["number", "null"] },
  },
} as const;

export const runViewSchema = {
  type: "object",
  properties: {
    run_id: { type: "string" },
    scenario: { type: "string" },
    seed: { type: "integer" },
    status: { type: "string", enum: ["created", "running", "completed", "failed", "crashed"] },
    status_reason: { type: "string" },
    pace: { type: ["number", "null"] },
    sim_time_ms: { type: "number" },
    objectives: { type: "array", items: open },
    agents: { type: "array", items: agentView },
    npc_policy: { anyOf: [{ type: "string" }, { type: "object", additionalProperties: { type: "string" } }] },
    affordances: { type: "string", enum: ["ready", "all"] },
    controlled_agents: { type: "array", items: { type: "string" } },
    deadline_s: { type: "number" },
    created_unix: { type: "number" },
    event_cursor: { type: "integer" },
    log_hash: { type: "string" },
    scores: open,
  },
} as const;

const receiptSchema = {
  type: "object",
  properties: {
    command_id: { type: "string" },
    observation_id: { type: "string" },
    status: { type: "string", enum: ["accepted", "duplicate", "rejected", "stale", "expired"] },
    detail: { type: "string" },
    outcome: { type: "string", enum: ["none", "pending", "accepted", "rejected", "cancelled"] },
    outcome_reason: { type: "string" },
  },
} as const;

export const createRunSchema = {
  summary: "Create a run; it starts once every controlled agent has been claimed",
  querystring: {
    type: "object",
    required: ["scenario"],
    properties: {
      scenario: { type: "string", minLength: 1 },
      seed: { type: "integer", minimum: 0, maximum: 4294967295, default: 0 },
    },
  },
  body: {
    type: "object",
    additionalProperties: false,
    properties: {
      controlled_agents: { type: "array", items: { type: "string" }, default: [] },
      npc_policy: {
        anyOf: [
          { type: "string", enum: NPC_POLICIES },
          { type: "object", additionalProperties: { type: "string", enum: NPC_POLICIES } },
        ],
        default: "solution",
        description: "who plays the agents not controlled remotely: one policy, or one per agent id",
      },
      affordances: {
        type: "string",
        enum: ["ready", "all"],
        default: "ready",
        description: "ready: offer what would succeed now; all: every tool and known target",
      },
      pace: { type: ["number", "null"], exclusiveMinimum: 0, default: null },
      deadline_s: { type: "number", exclusiveMinimum: 0, maximum: MAX_DEADLINE_S, default: 60 },
    },
  },
  response: { 201: runViewSchema, ...errors(400, 404, 409, 503) },
} as const;

export const listRunsSchema = {
  summary: "Every run on this server",
  response: { 200: { type: "object", properties: { runs: { type: "array", items: runViewSchema } } } },
} as const;

export const getRunSchema = {
  summary: "A run: status, scenario, seed, sim time, objectives, agents and who holds them",
  params: runParams,
  response: { 200: runViewSchema, ...errors(404) },
} as const;

export const listScenariosSchema = {
  summary: "The scenarios a run can be created from",
  response: { 200: { type: "object", properties: { scenarios: { type: "array", items: open } } } },
} as const;

export const claimSchema = {
  summary: "Claim an agent (a fresh lease), or resume with the lease you hold",
  params: agentParams,
  querystring: {
    type: "object",
    properties: {
      lease: { type: "string", description: "resume this lease if it is still live" },
      protocol: { type: "string", description: "warren-agent/0; any other value is refused with 409" },
      holder: {
        type: "string",
        maxLength: MAX_HOLDER_CHARS,
        description: "a label shown as the agent's holder",
      },
    },
  },
  response: {
    200: {
      type: "object",
      properties: {
        lease: { type: "string" },
        briefing_revision: { type: "integer" },
        run_id: { type: "string" },
        agent_id: { type: "string" },
        resumed: { type: "boolean" },
        lease_ttl_s: { type: "number" },
        lease_expires_unix: { type: "number" },
        outstanding_observation_id: { type: ["string", "null"] },
      },
    },
    ...errors(400, 404, 409, 410),
  },
} as const;

export const briefingSchema = {
  summary: "The agent's briefing (ETag is its content_hash; If-None-Match gives 304)",
  params: agentParams,
  querystring: leaseQuery,
  response: { 200: open, ...errors(401, 403, 404) },
} as const;

export const observationsSchema = {
  summary: `Long-poll the agent's next observation (seq > after); 204 when wait runs out`,
  params: agentParams,
  querystring: {
    type: "object",
    properties: {
      ...leaseQuery.properties,
      after: { type: "integer", minimum: -1, default: -1, description: "the last seq you answered" },
      wait: {
        type: "number",
        minimum: 0,
        default: 0,
        description: `seconds to wait for an observation; capped at ${MAX_WAIT_S}`,
      },
    },
  },
  response: { 200: open, 204: { type: "null" }, ...errors(400, 401, 403, 404, 410) },
} as const;

export const commandSchema = {
  summary: "Answer an observation: one of action (with args), sleep_ms or noop",
  params: agentParams,
  querystring: leaseQuery,
  body: {
    "x-judged-by": "engine",
    description:
      "Judged by the engine, never coerced: closure first (stale/expired), then payload (rejected with a teaching detail). Non-string command_id/observation_id get 422.",
    type: "object",
    required: ["command_id", "observation_id"],
    properties: {
      command_id: { type: "string", description: "client-minted; retry under the same id" },
      observation_id: { type: "string" },
      action: { type: "string" },
      args: open,
      sleep_ms: { type: "integer", minimum: 1, maximum: MAX_SLEEP_MS },
      noop: { type: "boolean", enum: [true] },
    },
  },
  response: { 200: receiptSchema, ...errors(400, 401, 403, 404, 422) },
} as const;

export const receiptQuerySchema = {
  summary: "An accepted command's receipt with its current outcome",
  params: {
    type: "object",
    required: ["run", "agent", "command_id"],
    properties: { run: { type: "string" }, agent: { type: "string" }, command_id: { type: "string" } },
  },
  querystring: leaseQuery,
  response: { 200: receiptSchema, ...errors(401, 403, 404) },
} as const;

export const releaseSchema = {
  summary: "Release the agent's lease now",
  params: agentParams,
  querystring: leaseQuery,
  response: {
    200: {
      type: "object",
      properties: { released: { type: "boolean" }, run_id: { type: "string" }, agent_id: { type: "string" } },
    },
    ...errors(401, 403, 404),
  },
} as const;

export const spectateSchema = {
  summary:
    "WebSocket: every run event from since, then live; {kind: lagged, cursor} and close 1013 if you fall behind",
  params: runParams,
  querystring: {
    type: "object",
    properties: { since: { type: "integer", minimum: 0, default: 0, description: "last cursor you saw" } },
  },
  response: { ...errors(400, 404, 426) },
} as const;
