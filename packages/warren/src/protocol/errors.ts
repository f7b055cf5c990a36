import { type Static, Type } from "typebox";

/**
 * Every error code an answer under /v1 may carry, declared once: the HTTP status it comes with and
 * what its detail says. The server builds each answer from this table, and the OpenAPI document
 * lists it.
 */
export const ERRORS = {
  bad_request: { status: 400, detail: "what in the request is wrong; a schema failure names the field" },
  malformed_json: { status: 400, detail: "the body is not valid JSON: <the parser's reason>" },
  lease_required: { status: 401, detail: "which agent's lease the request needs and where to get one" },
  token_required: { status: 401, detail: "that the server needs its access token, and how to send it" },
  lease_invalid: { status: 403, detail: "that the token is not the agent's current lease" },
  lease_expired: {
    status: 403,
    detail: "that the agent's lease expired, after how long, and to claim again",
  },
  token_invalid: { status: 403, detail: "that the token is not the server's access token" },
  host_not_allowed: { status: 403, detail: "the Host refused, and which addresses the server answers as" },
  origin_not_allowed: {
    status: 403,
    detail: "the page origin refused: only the server's own pages may call it",
  },
  not_found: { status: 404, detail: "the method and path with no route" },
  unknown_run: { status: 404, detail: "the run id, and whether it never was or was let go" },
  unknown_agent: { status: 404, detail: "the agent id and the run's agents" },
  unknown_scenario: { status: 404, detail: "the scenario name and the scenarios there are" },
  unknown_command: { status: 404, detail: "the command id: only accepted commands keep theirs" },
  protocol_mismatch: { status: 409, detail: "the protocol the server speaks and the one asked for" },
  agent_leased: { status: 409, detail: "who holds the agent's lease and until when" },
  not_remote: { status: 409, detail: "the controller that plays the agent instead" },
  run_ended: { status: 410, detail: "the run's terminal status and why (also in `status`)" },
  run_interrupted: { status: 410, detail: "when the server stopped the run, and what can still be read" },
  body_too_large: { status: 413, detail: "the body's limit" },
  unsupported_media_type: { status: 415, detail: "the content type sent; send application/json" },
  unprocessable_command: {
    status: 422,
    detail: "why the command cannot be judged (ids that are not strings, a malformed usage)",
  },
  limit_exceeded: { status: 422, detail: "the value and the limit it passed" },
  upgrade_required: { status: 426, detail: "that the route is a WebSocket" },
  too_many_client_runs: { status: 429, detail: "the client's live runs and its limit" },
  headers_too_large: { status: 431, detail: "that the headers are too large" },
  internal: { status: 500, detail: "that the server failed and logged it" },
  too_many_runs: { status: 503, detail: "the server's live runs and its limit" },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The HTTP status an error code comes with. */
export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}

const CODES = Object.keys(ERRORS) as ErrorCode[];

export const ErrorCodeSchema = Type.Enum(CODES, {
  title: "ErrorCode",
  description: `a stable machine code; the HTTP status follows from it: ${CODES.map((code) => `${code} ${ERRORS[code].status} (${ERRORS[code].detail})`).join("; ")}`,
});

/** How a run ended, as a 410's `status` says it. */
export const EndedStatus = Type.Enum(
  ["completed", "failed", "crashed", "interrupted", "over_budget", "abandoned", "deleted"],
  {
    description: "on 410 run_ended or run_interrupted: the run's terminal status",
  },
);
export type EndedStatus = Static<typeof EndedStatus>;

export const ErrorBody = Type.Object(
  {
    error: ErrorCodeSchema,
    detail: Type.String({ description: "what went wrong, in a sentence" }),
    status: Type.Optional(EndedStatus),
  },
  { title: "ErrorBody", additionalProperties: false, description: "every error answer under /v1" },
);
export type ErrorBody = Static<typeof ErrorBody>;
