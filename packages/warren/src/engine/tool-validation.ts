import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchema } from "./types.js";

/**
 * Tool arguments are checked against each tool's input_schema with ajv, compiled once per schema.
 * Nothing is coerced, stripped or defaulted: what the agent sent is what gets judged.
 */
const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: true });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

export function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The teaching sentence for invalid args, naming each offending JSON path, or "" when valid. */
export function argsProblem(tool: string, schema: JsonSchema, args: unknown): string {
  const validate = validatorFor(schema);
  if (validate(args)) return "";
  return (validate.errors ?? []).map((e) => describeError(tool, e, args)).join("; ");
}

function describeError(tool: string, error: ErrorObject, args: unknown): string {
  const path = "args" + error.instancePath.replace(/\//g, ".");
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${path} is missing the required field "${String(params.missingProperty)}" for ${tool}`;
    case "additionalProperties":
      return `${path} has a field "${String(params.additionalProperty)}" that ${tool} does not take`;
    case "type":
      return `${path} must be ${article(String(params.type))} (got ${describeValue(valueAt(args, error.instancePath))})`;
    default:
      return `${path} ${error.message ?? "is invalid"} (got ${describeValue(valueAt(args, error.instancePath))})`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let at = root;
  for (const part of pointer.split("/").slice(1)) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return at;
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}
