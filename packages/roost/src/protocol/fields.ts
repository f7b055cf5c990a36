/**
 * The pieces op argument schemas are made of (TypeBox: one declaration gives the JSON Schema the
 * daemon checks and the static type clients write against). Unknown fields are allowed: the wire
 * ignores them.
 */
import { type TSchema, Type } from "typebox";
import { REQUEST_ID_PATTERN } from "./limits.js";

/** A field that may be left out or null: the clients send either for "not given". */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** A string with something in it. */
export const Text = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ minLength: 1, ...options });

/** A job, by id or by a name one job has. */
export const JobRef = Type.String({ minLength: 1, description: "a job id or name" });

/** `requestId`: 1–64 of `A-Z a-z 0-9 _ . : -`. */
export const RequestId = Type.String({
  pattern: REQUEST_ID_PATTERN.source,
  description: "1-64 of A-Z a-z 0-9 _ . : -",
});

/** A number the daemon gave (a task's, a schedule's): a positive integer, or a string of digits. */
export const NumberedId = Type.Union(
  [Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: "^\\d{1,15}$" })],
  { description: "a positive integer (or a string of digits)" },
);

/** An integer within bounds. */
export const Count = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });

/** What an op without arguments takes: anything, ignored. */
export const NoArgs = Type.Object({});
