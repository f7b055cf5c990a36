import { type TObject, type TSchema, Type } from "typebox";
import { Briefing } from "./briefing.js";
import { CommandBody, Receipt } from "./commands.js";
import { ErrorBody } from "./errors.js";
import { ClaimResponse, ReleaseResponse } from "./leases.js";
import {
  MAX_COMMAND_ID_CHARS,
  MAX_HOLDER_CHARS,
  MAX_ID_CHARS,
  MAX_NAME_CHARS,
  MAX_WAIT_S,
} from "./limits.js";
import { Envelope } from "./observation.js";
import { CreateRunRequest, RunList, RunView, ScenarioList } from "./runs.js";
import { SpectatorFrame } from "./spectator.js";
import { PROTOCOL_VERSION } from "./version.js";

/** One answer of an operation: its body's schema (none for 204/304/101) and headers it sets. */
export interface Answer {
  description: string;
  schema?: TSchema;
  headers?: Record<string, { description: string; schema: TSchema }>;
}

/**
 * One route of warren-agent/0: everything the server validates, the client sends and the OpenAPI
 * document says about it, declared once.
 */
export interface Operation {
  operationId: string;
  method: "GET" | "POST" | "DELETE";
  /** OpenAPI style: /v1/runs/{run}. */
  path: string;
  summary: string;
  description?: string;
  params?: TObject;
  query?: TObject;
  /** Request headers beyond X-Warren-Protocol and Authorization. */
  headers?: TObject;
  body?: { schema: TSchema; required: boolean; judgedByEngine?: boolean };
  /** "required": the agent's lease (401 without it); "optional": presented to resume. */
  lease?: "required" | "optional";
  /** Needs the server's access token when it has one (warren serve --token): 401/403 without it. */
  access?: boolean;
  responses: Record<number, Answer>;
}

/**
 * Errors any route may answer: a URL that does not decode (400), a foreign Host or Origin (403),
 * another protocol (409), a path or query value past its limit (422), a fault (500).
 */
export const COMMON_ERRORS: Record<number, Answer> = {
  400: { description: "bad_request: the URL or a parameter is invalid", schema: ErrorBody },
  403: {
    description:
      "host_not_allowed (a Host this server does not answer as) / origin_not_allowed (a request from another site's page)",
    schema: ErrorBody,
  },
  422: { description: "limit_exceeded: a value past its limit, the limit named", schema: ErrorBody },
  409: {
    description: `protocol_mismatch: the request named a protocol other than ${PROTOCOL_VERSION}`,
    schema: ErrorBody,
  },
  500: { description: "internal: the server failed; it has been logged", schema: ErrorBody },
};

const error = (description: string): Answer => ({ description, schema: ErrorBody });
const E404 = error("unknown_run / unknown_agent (or unknown_scenario, unknown_command)");
const E401 = error("lease_required: no lease presented");
const E403 = error("lease_invalid / lease_expired: not the agent's current lease");
const E410 = error(
  "run_ended: the run is over; `status` holds its terminal status (run_interrupted: the server stopped before the run ended, and no lease from before its restart is valid)",
);
/** Runs the server let go to their summary to bound its memory: only GET /v1/runs/{run} still answers. */
const E410_LET_GO = error(
  "run_ended: the run ended and the server keeps only its summary (GET /v1/runs/{run}), its events and commands let go, or it ended before the server restarted (run_interrupted if the server stopped first); `status` holds its terminal status",
);
const E413 = error("body_too_large: the body is over 1 MiB");
const E415 = error("unsupported_media_type: bodies are application/json only");
const E401_TOKEN = error("token_required: the server has an access token and the request did not send it");
const E403_TOKEN = error(
  "token_invalid: not the server's access token (or host_not_allowed / origin_not_allowed)",
);

const id = (description: string, maxLength = MAX_ID_CHARS) => Type.String({ maxLength, description });
const RunParams = Type.Object({ run: id("a run id, e.g. run-1") });
const AgentParams = Type.Object({
  run: id("a run id, e.g. run-1"),
  agent: id("an agent id, e.g. engineer-1", MAX_NAME_CHARS),
});
const LeaseQuery = {
  lease: Type.Optional(
    Type.String({
      maxLength: MAX_ID_CHARS,
      description:
        "the lease token (or send Authorization: Bearer <token>, unless the server has an access token: that header then carries it)",
    }),
  ),
};

export const createRun: Operation = {
  operationId: "createRun",
  method: "POST",
  path: "/v1/runs",
  summary: "Create a run",
  description:
    "The run starts when every controlled agent has been claimed once (a run with none starts at once); until then its status is created and GET /v1/runs/{run} lists the agents still unclaimed, and past claim_within_s it ends abandoned. Needs Content-Type: application/json even with no body (a page's no-cors form or fetch cannot send it), and the server's access token when it has one.",
  query: Type.Object({
    scenario: Type.String({
      minLength: 1,
      maxLength: MAX_NAME_CHARS,
      description: "a scenario name from GET /v1/scenarios",
    }),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295, default: 0 })),
  }),
  body: { schema: CreateRunRequest, required: false },
  access: true,
  responses: {
    201: {
      description: "the run, created",
      schema: RunView,
      headers: { Location: { description: "/v1/runs/{run}", schema: Type.String() } },
    },
    400: error(
      "bad_request (the field named: body/pace must be ..., or an unknown agent in controlled_agents; a JSON null body) or malformed_json",
    ),
    401: E401_TOKEN,
    403: E403_TOKEN,
    404: error("unknown_scenario"),
    413: E413,
    415: error("unsupported_media_type: creation needs Content-Type: application/json, even with no body"),
    422: error("limit_exceeded: a field past its limit (controlled_agents, names, npc_policy), named"),
    429: error("too_many_client_runs: this client (its address) has as many live runs as one may"),
    503: error("too_many_runs: the server hosts as many live runs as it may"),
  },
};

export const deleteRun: Operation = {
  operationId: "deleteRun",
  method: "DELETE",
  path: "/v1/runs/{run}",
  summary: "End a run now and free it",
  description:
    "A run still going ends at once as deleted (its long polls answer, its spectators get the status event and close 1000) and its live slot is free; an ended run is let go to its summary (its events and commands freed: its other routes then answer 410). The answer is the run's summary. Needs Content-Type: application/json (no body), and the server's access token when it has one.",
  params: RunParams,
  access: true,
  responses: {
    200: { description: "the run, ended and let go to its summary", schema: RunView },
    401: E401_TOKEN,
    403: E403_TOKEN,
    404: E404,
    415: error("unsupported_media_type: deletion needs Content-Type: application/json"),
  },
};

export const listRuns: Operation = {
  operationId: "listRuns",
  method: "GET",
  path: "/v1/runs",
  summary: "Every run on this server",
  description:
    "Runs not yet ended and the ended ones it remembers (by default its latest 1,000 ended runs; older ones are forgotten).",
  responses: { 200: { description: "the runs", schema: RunList } },
};

export const getRun: Operation = {
  operationId: "getRun",
  method: "GET",
  path: "/v1/runs/{run}",
  summary: "A run: status and why, sim time, limits, objectives, agents, who holds them and who is unclaimed",
  description:
    "An ended run's summary stays here after the server lets its events and commands go to bound its memory (its other routes then answer 410); a run ended long ago is forgotten (404 unknown_run, saying so). A server with a data folder keeps its runs across restarts: runs that were live when it stopped are interrupted, and ids are never reused.",
  params: RunParams,
  responses: { 200: { description: "the run", schema: RunView }, 404: E404 },
};

export const listScenarios: Operation = {
  operationId: "listScenarios",
  method: "GET",
  path: "/v1/scenarios",
  summary: "The scenarios a run can be created from",
  responses: { 200: { description: "the scenarios", schema: ScenarioList } },
};

export const claimAgent: Operation = {
  operationId: "claimAgent",
  method: "POST",
  path: "/v1/runs/{run}/agents/{agent}/claim",
  summary: "Claim an agent (a fresh lease), or resume with the lease you hold",
  description:
    "No body (an empty body with Content-Type: application/json is no body). The run starts when all its controlled agents have been claimed.",
  params: AgentParams,
  query: Type.Object({
    lease: Type.Optional(
      Type.String({ maxLength: MAX_ID_CHARS, description: "resume this lease if it is still live" }),
    ),
    protocol: Type.Optional(
      Type.String({ description: `${PROTOCOL_VERSION}; any other value is refused with 409` }),
    ),
    holder: Type.Optional(
      Type.String({ maxLength: MAX_HOLDER_CHARS, description: "a label shown as the agent's holder" }),
    ),
  }),
  lease: "optional",
  access: true,
  responses: {
    200: { description: "the lease", schema: ClaimResponse },
    401: E401_TOKEN,
    403: E403_TOKEN,
    404: E404,
    409: error("agent_leased (someone else holds it), not_remote, or protocol_mismatch"),
    410: E410,
  },
};

export const getBriefing: Operation = {
  operationId: "getBriefing",
  method: "GET",
  path: "/v1/runs/{run}/agents/{agent}/briefing",
  summary: "The agent's briefing; ETag is its content_hash, If-None-Match with it gives 304",
  params: AgentParams,
  query: Type.Object(LeaseQuery),
  headers: Type.Object({
    "if-none-match": Type.Optional(Type.String({ description: "the ETag of the briefing you hold" })),
  }),
  lease: "required",
  responses: {
    200: {
      description: "the briefing",
      schema: Briefing,
      headers: { ETag: { description: '"<content_hash>"', schema: Type.String() } },
    },
    304: {
      description: "the briefing you hold is current",
      headers: { ETag: { description: '"<content_hash>"', schema: Type.String() } },
    },
    401: E401,
    403: E403,
    404: E404,
    410: E410_LET_GO,
  },
};

export const pollObservations: Operation = {
  operationId: "pollObservations",
  method: "GET",
  path: "/v1/runs/{run}/agents/{agent}/observations",
  summary: "Long-poll the agent's observation",
  description: `While an observation is outstanding (issued, not yet answered by an accepted command, not expired) every poll returns it at once, whatever after says: delivery is at-least-once, so a client that lost it gets it back. With none outstanding, the poll waits up to wait seconds (capped at ${MAX_WAIT_S}) for the next one with seq > after, and answers 204 if none came.`,
  params: AgentParams,
  query: Type.Object({
    ...LeaseQuery,
    after: Type.Optional(
      Type.Integer({
        minimum: -1,
        default: -1,
        description:
          "the seq of the last observation you answered (-1: none); never hides an outstanding one",
      }),
    ),
    wait: Type.Optional(
      Type.Number({
        minimum: 0,
        default: 0,
        description: `seconds to wait when nothing is outstanding; larger values than ${MAX_WAIT_S} are cut to ${MAX_WAIT_S}`,
      }),
    ),
  }),
  lease: "required",
  responses: {
    200: { description: "the outstanding observation", schema: Envelope },
    204: { description: "no observation came within wait" },
    401: E401,
    403: E403,
    404: E404,
    410: E410,
  },
};

export const submitCommand: Operation = {
  operationId: "submitCommand",
  method: "POST",
  path: "/v1/runs/{run}/agents/{agent}/commands",
  summary: "Answer an observation with one command",
  description:
    "Every verdict (accepted, duplicate, rejected, stale, expired) is a 200 receipt. Commands after the run ended are still judged, until the server lets the ended run go to its summary (then 410).",
  params: AgentParams,
  query: Type.Object(LeaseQuery),
  body: { schema: CommandBody, required: true, judgedByEngine: true },
  lease: "required",
  responses: {
    200: { description: "the receipt", schema: Receipt },
    400: error("malformed_json"),
    401: E401,
    403: E403,
    404: E404,
    410: E410_LET_GO,
    413: E413,
    415: E415,
    422: error(
      "unprocessable_command: not an object, or command_id / observation_id not a (non-empty) string; limit_exceeded: past a limit (ids, the action, args' fields and size), named",
    ),
  },
};

export const getCommand: Operation = {
  operationId: "getCommand",
  method: "GET",
  path: "/v1/runs/{run}/agents/{agent}/commands/{command_id}",
  summary: "An accepted command's receipt with its current outcome",
  params: Type.Object({
    ...AgentParams.properties,
    command_id: id("the command's id", MAX_COMMAND_ID_CHARS),
  }),
  query: Type.Object(LeaseQuery),
  lease: "required",
  responses: {
    200: { description: "the receipt", schema: Receipt },
    401: E401,
    403: E403,
    404: error("unknown_command: only accepted commands keep their id (or unknown_run, unknown_agent)"),
    410: E410_LET_GO,
  },
};

export const releaseAgent: Operation = {
  operationId: "releaseAgent",
  method: "POST",
  path: "/v1/runs/{run}/agents/{agent}/release",
  summary: "Release the agent's lease now",
  description: "No body (an empty body with Content-Type: application/json is no body).",
  params: AgentParams,
  query: Type.Object(LeaseQuery),
  lease: "required",
  responses: {
    200: { description: "released", schema: ReleaseResponse },
    401: E401,
    403: E403,
    404: E404,
    410: E410_LET_GO,
  },
};

export const spectate: Operation = {
  operationId: "spectate",
  method: "GET",
  path: "/v1/runs/{run}/spectate",
  summary: "WebSocket: the run's events from since, then live",
  description:
    "Connect with Upgrade: websocket. Each text frame is a SpectatorFrame: a RunEvent, or a LaggedFrame as the last frame before close 1013 (the reader fell behind, or since is older than the events the server keeps; reconnect with since=<cursor>). After the run's terminal status event the server closes with 1000.",
  params: RunParams,
  query: Type.Object({
    since: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: "the last cursor you saw" })),
  }),
  responses: {
    101: {
      description:
        "switching to WebSocket; frames are SpectatorFrame; close 1000 at the end, 1013 after a lagged frame",
      schema: SpectatorFrame,
    },
    // Never answered over HTTP/1.1: a 2XX gives the frames' schema a typed home for generators.
    200: {
      description:
        "the stream's frames, as JSON: after the 101 each WebSocket text frame is one SpectatorFrame (no plain 200 is answered; a plain GET gets 426)",
      schema: SpectatorFrame,
    },
    404: E404,
    410: E410_LET_GO,
    426: error("upgrade_required: a plain GET; connect with Upgrade: websocket"),
  },
};

export const getOpenApi: Operation = {
  operationId: "getOpenApi",
  method: "GET",
  path: "/v1/openapi.json",
  summary: "This document",
  responses: { 200: { description: "the OpenAPI 3.1 document", schema: Type.Object({}) } },
};

/** Every route, in the order the document lists them. */
export const OPERATIONS: readonly Operation[] = [
  createRun,
  listRuns,
  getRun,
  deleteRun,
  listScenarios,
  claimAgent,
  getBriefing,
  pollObservations,
  submitCommand,
  getCommand,
  releaseAgent,
  spectate,
  getOpenApi,
];
