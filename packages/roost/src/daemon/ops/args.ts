import { REQUEST_ID_PATTERN, RoostError } from "../../protocol/index.js";

/** Reading an op's arguments: each wrong type is a `bad_request` naming the field. */
export function argsObject(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== "object" || Array.isArray(args))
    throw new RoostError("bad_request", "args must be an object");
  return args as Record<string, unknown>;
}

export function requiredString(args: Record<string, unknown>, field: string): string {
  const v = args[field];
  if (typeof v !== "string" || v === "")
    throw new RoostError("bad_request", `${field} must be a non-empty string`);
  return v;
}

export function optionalString(args: Record<string, unknown>, field: string): string | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new RoostError("bad_request", `${field} must be a string`);
  return v;
}

export function optionalBoolean(args: Record<string, unknown>, field: string): boolean | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new RoostError("bad_request", `${field} must be true or false`);
  return v;
}

/** `requestId`: 1–64 of `A-Z a-z 0-9 _ . : -`. */
export function optionalRequestId(args: Record<string, unknown>): string | undefined {
  const v = optionalString(args, "requestId");
  if (v !== undefined && !REQUEST_ID_PATTERN.test(v))
    throw new RoostError("bad_request", "requestId must be 1-64 of A-Z a-z 0-9 _ . : -");
  return v;
}
