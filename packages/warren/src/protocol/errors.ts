import { type Static, Type } from "typebox";

/** Every error code an answer under /v1 may carry, with the HTTP status it comes with. */
export const ERROR_STATUS = {
  bad_request: 400,
  malformed_json: 400,
  lease_required: 401,
  token_required: 401,
  lease_invalid: 403,
  lease_expired: 403,
  token_invalid: 403,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  not_found: 404,
  unknown_run: 404,
  unknown_agent: 404,
  unknown_scenario: 404,
  unknown_command: 404,
  protocol_mismatch: 409,
  agent_leased: 409,
  not_remote: 409,
  run_ended: 410,
  run_interrupted: 410,
  body_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_command: 422,
  limit_exceeded: 422,
  upgrade_required: 426,
  too_many_client_runs: 429,
  headers_too_large: 431,
  internal: 500,
  too_many_runs: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export const ErrorCodeSchema = Type.Enum(CODES, {
  title: "ErrorCode",
  description: "a stable machine code; the HTTP status follows from it",
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
