import { Ajv, type ValidateFunction } from "ajv";
import type { FastifySchemaCompiler } from "fastify";

/**
 * Two validators: query strings and path parameters arrive as text and are coerced to the schema's
 * types; JSON bodies are checked as sent, never coerced, stripped or filled with defaults.
 */
const textParts = new Ajv({
  coerceTypes: true,
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
});
const bodies = new Ajv({ coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === "body" ? bodies : textParts;
  return ajv.compile(schema) as ValidateFunction;
};

/**
 * For the commands route: the body goes to the engine unvalidated, because the engine's verdict
 * (closure before payload, teaching details, 422 for ids) is the protocol; its schema is documentation.
 */
export const engineJudgesBody: FastifySchemaCompiler<object> = (route) =>
  route.httpPart === "body" ? () => true : validatorCompiler(route);
