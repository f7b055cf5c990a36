import { type Static, Type } from "typebox";
import { MAX_SLEEP_MS } from "../engine/command-payload.js";
import {
  MAX_ARGS_FIELDS,
  MAX_ARGS_JSON_CHARS,
  MAX_COMMAND_FIELDS,
  MAX_COMMAND_ID_CHARS,
  MAX_NAME_CHARS,
} from "./limits.js";
import { Usage } from "./usage.js";

/** What every command form has: its ids, and the usage it may report. */
const commandIds = {
  command_id: Type.String({
    minLength: 1,
    maxLength: MAX_COMMAND_ID_CHARS,
    description: `client-minted, non-empty, at most ${MAX_COMMAND_ID_CHARS} characters; retry under the same id`,
  }),
  observation_id: Type.String({
    maxLength: MAX_COMMAND_ID_CHARS,
    description: "the observation this answers",
  }),
  usage: Type.Optional(Usage),
};
const closedCommand = (title: string, description: string) => ({
  title,
  description,
  additionalProperties: false,
});

export const ActionCommand = Type.Object(
  {
    ...commandIds,
    action: Type.String({ maxLength: MAX_NAME_CHARS, description: "one of the agent's tools" }),
    args: Type.Optional(
      Type.Record(Type.String({ maxLength: MAX_NAME_CHARS }), Type.Unknown(), {
        maxProperties: MAX_ARGS_FIELDS,
        description: `the action's input: at most ${MAX_ARGS_FIELDS} fields, field names of at most ${MAX_NAME_CHARS} characters, at most ${MAX_ARGS_JSON_CHARS} characters as JSON`,
      }),
    ),
  },
  closedCommand("ActionCommand", "do one of the agent's tools, with its args (none: {})"),
);

export const SleepCommand = Type.Object(
  {
    ...commandIds,
    sleep_ms: Type.Integer({ minimum: 1, maximum: MAX_SLEEP_MS, description: "sleep this long" }),
  },
  closedCommand("SleepCommand", "sleep this many sim ms, unless something wakes the agent first"),
);

export const NoopCommand = Type.Object(
  { ...commandIds, noop: Type.Literal(true) },
  closedCommand("NoopCommand", "do nothing until something wakes the agent"),
);

/**
 * Exactly one of the three forms. The route does not validate it: the engine judges each body
 * (closure before payload, a teaching detail for a bad one), so this schema is what it accepts.
 */
export const CommandBody = Type.Unsafe<
  Static<typeof ActionCommand | typeof SleepCommand | typeof NoopCommand>
>({
  title: "CommandBody",
  oneOf: [ActionCommand, SleepCommand, NoopCommand],
  description: `Exactly one of action (with args), sleep_ms or noop, and optionally the usage the agent spent on it. Judged by the engine, never coerced: closure first (stale/expired), then payload (a rejected receipt with a teaching detail). A body without non-empty string command_id and string observation_id, or with a malformed usage, is 422 (unprocessable_command), and so is one past a limit (limit_exceeded: ids, the action, args' fields and size, usage's numbers, at most ${MAX_COMMAND_FIELDS} fields in all), refused whole and named.`,
});

/** What a command decides: exactly one of an action (with args), a sleep or a noop. */
export type CommandPayload =
  | { action: string; args?: Record<string, unknown> }
  | { sleep_ms: number }
  | { noop: true };

export type CommandBody = { command_id: string; observation_id: string; usage?: Usage } & CommandPayload;

export const Verdict = Type.Enum(["accepted", "duplicate", "rejected", "stale", "expired"], {
  title: "Verdict",
});

export const Outcome = Type.Enum(["none", "pending", "accepted", "rejected", "cancelled"], {
  title: "Outcome",
  description: "the engine's adjudication of an accepted command",
});

export const Receipt = Type.Object(
  {
    command_id: Type.String(),
    observation_id: Type.String(),
    status: Verdict,
    detail: Type.String(),
    outcome: Outcome,
    outcome_reason: Type.String(),
  },
  { title: "Receipt", additionalProperties: false, description: "every verdict is a 200 with a receipt" },
);
export type Receipt = Static<typeof Receipt>;
