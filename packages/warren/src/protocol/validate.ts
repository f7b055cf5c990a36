import { Ajv, type ValidateFunction } from "ajv";
import type { TSchema } from "typebox";

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<TSchema, ValidateFunction>();

/**
 * Why `value` does not match `schema` (ajv's words, each with its JSON path), or undefined when
 * it does. For checking what crosses the wire against its declaration.
 */
export function schemaProblems(schema: TSchema, value: unknown): string | undefined {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return undefined;
  return ajv.errorsText(validate.errors, { dataVar: "" });
}
