import type { ErrorCode } from "./errors.js";

/** Client → daemon. `id` is the client's number for matching the response. */
export interface Request<Op extends string = string, Args = unknown> {
  id: number | string;
  op: Op;
  args?: Args;
}

export interface OkResponse<Result = unknown> {
  id: number | string | null;
  ok: true;
  result: Result;
}

export interface ErrorResponse {
  id: number | string | null;
  ok: false;
  error: string;
  code: ErrorCode | string;
}

export type Response<Result = unknown> = OkResponse<Result> | ErrorResponse;

/** Daemon → client, unasked: no `id`. */
export interface EventMessage {
  event: string;
  [field: string]: unknown;
}

export function isEventMessage(message: unknown): message is EventMessage {
  return (
    typeof message === "object" && message !== null && typeof (message as EventMessage).event === "string"
  );
}

export function isResponse(message: unknown): message is Response {
  return typeof message === "object" && message !== null && "ok" in message && "id" in message;
}
