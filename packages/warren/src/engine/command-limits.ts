/**
 * What one command may carry, in characters and fields: everything an accepted command leaves in
 * the run's receipts, ledger and event log is bounded by these, so no client can fill a server's
 * memory through one run's commands. A command past one is refused whole (HTTP 422, the limit
 * named), never truncated.
 */

/** command_id and observation_id. */
export const MAX_COMMAND_ID_CHARS = 128;
/** action, and each field name of a command or of its args. */
export const MAX_NAME_CHARS = 64;
/** Fields in args. */
export const MAX_ARGS_FIELDS = 32;
/** args written as JSON. */
export const MAX_ARGS_JSON_CHARS = 4096;
/** Fields in a command (it has at most five that mean something). */
export const MAX_COMMAND_FIELDS = 8;

/** The first limit the command passes, as the sentence of its 422; "" when it keeps within them. */
export function commandLimitProblem(command: Record<string, unknown>): string {
  for (const field of ["command_id", "observation_id"] as const) {
    const value = command[field];
    if (typeof value === "string" && value.length > MAX_COMMAND_ID_CHARS) {
      return `${field} is ${value.length} characters; at most ${MAX_COMMAND_ID_CHARS} are allowed`;
    }
  }
  const fields = Object.keys(command);
  if (fields.length > MAX_COMMAND_FIELDS) {
    return `a command has ${fields.length} fields; at most ${MAX_COMMAND_FIELDS} are allowed (command_id, observation_id, one of action with args, sleep_ms or noop, and usage)`;
  }
  const longField = fields.find((f) => f.length > MAX_NAME_CHARS);
  if (longField !== undefined) {
    return `a field name of ${longField.length} characters; at most ${MAX_NAME_CHARS} are allowed`;
  }
  const { action, args } = command;
  if (typeof action === "string" && action.length > MAX_NAME_CHARS) {
    return `action is ${action.length} characters; at most ${MAX_NAME_CHARS} are allowed`;
  }
  if (args !== null && typeof args === "object" && !Array.isArray(args)) {
    const names = Object.keys(args);
    if (names.length > MAX_ARGS_FIELDS) {
      return `args has ${names.length} fields; at most ${MAX_ARGS_FIELDS} are allowed`;
    }
    const longName = names.find((n) => n.length > MAX_NAME_CHARS);
    if (longName !== undefined) {
      return `args has a field name of ${longName.length} characters; at most ${MAX_NAME_CHARS} are allowed`;
    }
    const chars = JSON.stringify(args).length;
    if (chars > MAX_ARGS_JSON_CHARS) {
      return `args is ${chars} characters as JSON; at most ${MAX_ARGS_JSON_CHARS} are allowed`;
    }
  }
  return "";
}
