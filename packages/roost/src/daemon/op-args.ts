/**
 * Checks an op's arguments against its schema in the protocol, before its handler runs or anything
 * is looked up. Each schema is compiled once; nothing is coerced, stripped or defaulted: a wrong
 * field is `bad_request` naming it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { OPS, type OpArgs, type OpName, RoostError } from "../protocol/index.js";

const ajv = new Ajv({
  allErrors: false,
  strict: false,
  strictNumbers: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  verbose: true,
});

/** Each op's validator, compiled on its first request and kept (a daemon that starts pays for none). */
const validators = new Map<OpName, ValidateFunction>();

function validatorOf(op: OpName): ValidateFunction {
  let validate = validators.get(op);
  if (!validate) {
    validate = ajv.compile(OPS[op].args);
    validators.set(op, validate);
  }
  return validate;
}

/** A schema as ajv hands it back with an error (the parts the wording reads). */
interface SchemaNode {
  type?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
}

/** What a value must be, in words: "a non-empty string", "an integer from 1 to 200", ... */
function describeSchema(schema: SchemaNode): string {
  if (schema.description) return schema.description;
  // Null is "not given" wherever a field may be left out: not worth saying.
  if (schema.anyOf)
    return [...new Set(schema.anyOf.filter((s) => s.type !== "null").map(describeSchema))].join(" or ");
  if (schema.enum) return `one of ${schema.enum.join(", ")}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.type) {
    case "string":
      return schema.minLength ? "a non-empty string" : "a string";
    case "integer": {
      const { minimum: min, maximum: max } = schema;
      if (min !== undefined && max !== undefined && max < Number.MAX_SAFE_INTEGER)
        return `an integer from ${min} to ${max}`;
      if (min === 1) return "a positive integer";
      return min !== undefined ? `an integer of at least ${min}` : "an integer";
    }
    case "number":
      return "a finite number";
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "array":
      return schema.items ? `an array, each ${describeSchema(schema.items)}` : "an array";
    case "object":
      return "an object";
    default:
      return "something else";
  }
}

/** `/report/summary` → `report.summary`; `/after/0` → `after[0]`. */
function fieldName(path: string, missing?: string): string {
  const parts = path.split("/").slice(1);
  if (missing !== undefined) parts.push(missing);
  return parts.reduce(
    (out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    "",
  );
}

/** A limit broken by a value of the right type: said as such, even inside a union (`text or null`). */
const BOUNDS = new Set(["maxLength", "maxItems"]);

/**
 * The words for what is wrong: the field it is about, and what it must be. Inside a union (a field
 * that may also be null) the deepest field wins: an object of the right kind with a wrong field in
 * it is about that field.
 */
function explainArgsError(errors: ErrorObject[]): string {
  const depth = (e: ErrorObject) => e.instancePath.split("/").length;
  const deepest = Math.max(...errors.map(depth));
  const there = errors.filter((e) => depth(e) === deepest);
  const error = there.find((e) => BOUNDS.has(e.keyword)) ?? there[there.length - 1]!;
  const schema = error.parentSchema as SchemaNode;
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `${fieldName(error.instancePath, missing)} must be ${describeSchema(schema.properties?.[missing] ?? {})}`;
  }
  const field = fieldName(error.instancePath) || "args";
  const limit = (error.params as { limit?: number }).limit;
  if (error.keyword === "maxLength") return `${field} is longer than ${limit} characters`;
  if (error.keyword === "maxItems") return `${field} has more than ${limit} items`;
  return `${field} must be ${describeSchema(schema)}`;
}

/** The op's arguments, checked: absent ones are `{}`; anything else wrong is `bad_request`. */
export function checkedArgs<Op extends OpName>(op: Op, args: unknown): OpArgs<Op> {
  const value = args === undefined || args === null ? {} : args;
  if (typeof value !== "object" || Array.isArray(value))
    throw new RoostError("bad_request", "args must be an object");
  const validate = validatorOf(op);
  if (!validate(value)) throw new RoostError("bad_request", explainArgsError(validate.errors ?? []));
  return value as OpArgs<Op>;
}
