/** Errors the engine raises for bad requests, each with a code a server can map to a status. */

export type RunErrorCode =
  | "unknown_scenario"
  | "unknown_agent"
  | "invalid_run_options"
  | "not_remote"
  | "unprocessable_command"
  | "limit_exceeded";

export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RunError";
  }
}
