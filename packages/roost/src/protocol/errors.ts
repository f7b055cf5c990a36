/** Every error code the daemon gives. The first six are the ones agents see (spec: "Error codes"). */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "not_found",
  "full",
  "busy",
  "unsupported",
  "locked",
  "limit",
  "rate_limited",
  "conflict",
  "blocked",
  "policy",
  "disconnected",
  "not_chosen",
  "reserved_name",
  "ended",
  /** The store could not keep the change (a full disk, a read-only database): nothing was changed. */
  "unwritable",
  "internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error that travels on the wire as `{ok: false, error, code}`. */
export class RoostError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    message: string,
  ) {
    super(message);
    this.name = "RoostError";
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
